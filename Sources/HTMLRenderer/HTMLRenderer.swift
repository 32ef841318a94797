// Renders lists to HTML bytes. See HTMLRenderer.swift.
import ListModel

/// Turns list documents, pages and rows into escaped UTF-8 HTML.
public struct HTMLRenderer: Sendable {
    public init() {}
}
