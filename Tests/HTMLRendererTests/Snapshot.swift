import Foundation
import Testing

/// Compares `html` byte for byte with `Snapshots/{name}.html`; `RECORD_SNAPSHOTS=1` (re)writes it.
///
/// A missing snapshot fails unless recording, and says how to record it.
func assertSnapshot(_ html: [UInt8], named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = folder.appendingPathComponent("\(name).html")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(html).write(to: file)
        } catch {
            Issue.record("could not record \(file.path): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected = FileManager.default.contents(atPath: file.path) else {
        Issue.record(
            "missing snapshot \(file.path); record it with RECORD_SNAPSHOTS=1 swift test --filter HTMLRendererTests",
            sourceLocation: sourceLocation)
        return
    }
    if [UInt8](expected) != html {
        let actual = String(decoding: html, as: UTF8.self)
        Issue.record(
            """
            \(name).html differs from the rendering (re-record with RECORD_SNAPSHOTS=1 if the change is intended).
            rendered:
            \(actual)
            """,
            sourceLocation: sourceLocation)
    }
}

/// The bytes as a `String`, for `contains` checks.
func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
