/// Where a live window of a view ends (docs/LIVE.md, "Live views").
public enum ViewWindowEnd: Hashable, Sendable {
    /// The whole view (a `view=json` stream without `limit` or `until`).
    case whole
    /// No rows.
    case empty
    /// Every row of the view up to and including this position (by view key, so rows that
    /// move or join before it are in, rows after it stay out).
    case through(ViewCursor)
}

/// The rows of a window of a view, by section, as `ViewIndex.window(_:)` finds them.
public struct ViewIndexWindow: Sendable, Equatable {
    public struct Section: Sendable, Equatable {
        /// Index into the list's `document.sections`.
        public var sectionIndex: Int
        /// The window's rows of the section, in view order.
        public var rowKeys: [String]
        /// Whether every row the section has in the view is in the window.
        public var complete: Bool
    }

    /// The window's sections in list order: those whose rows begin before the window's end (a
    /// page's rule: empty ones among them too, when the view keeps empty sections), every
    /// section of the view when no row remains after the window.
    public var sections: [Section]
    /// Rows in the window.
    public var rowCount: Int
    /// Whether rows of the view remain after the window.
    public var more: Bool
}

/// Which sections a window of a view shows and how many rows of each (`ViewIndex.windowShape`).
public struct ViewWindowShape: Sendable, Equatable {
    public struct Section: Sendable, Equatable {
        /// Index into the list's `document.sections`.
        public var sectionIndex: Int
        public var rowsInView: Int
        public var rowsInWindow: Int
    }

    public var sections: [Section]
    public var rowCount: Int
    public var more: Bool
}

extension ViewIndex {
    /// The sections and rows of the window ending at `end`: O(sections + window).
    public func window(_ end: ViewWindowEnd) -> ViewIndexWindow {
        let shape = windowShape(end)
        let document = list.document
        let sections = shape.sections.map { part in
            let key = document.sections[part.sectionIndex].key
            return ViewIndexWindow.Section(
                sectionIndex: part.sectionIndex,
                rowKeys: part.rowsInWindow == 0 ? [] : self.sections[ByteKey(key)]!.rowKeys(prefix: part.rowsInWindow),
                complete: part.rowsInWindow == part.rowsInView)
        }
        return ViewIndexWindow(sections: sections, rowCount: shape.rowCount, more: shape.more)
    }

    /// The window ending at `end` without its rows: which sections it shows and how many of
    /// their rows. O(sections), plus a binary search in the end's section.
    public func windowShape(_ end: ViewWindowEnd) -> ViewWindowShape {
        let document = list.document
        var counts: [ViewWindowShape.Section] = []
        counts.reserveCapacity(document.sections.count)
        // For a cursor whose section is gone: the list section where its order key falls.
        var endSection: Int?
        if case .through(let cursor) = end {
            if let index = list.sectionIndexes[ByteKey(cursor.sectionKey)] {
                endSection = index
            } else {
                let position = list.firstPosition(after: cursor.orderKey)
                endSection = position < list.rowCount ? list.location(ofPosition: position).section : document.sections.count
            }
        }
        var windowCount = 0
        for (index, section) in document.sections.enumerated() {
            let inView = sections[ByteKey(section.key)]?.count ?? 0
            if inView == 0 && query.selectsRows { continue }
            let inWindow: Int
            switch end {
            case .whole: inWindow = inView
            case .empty: inWindow = 0
            case .through(let cursor):
                let last = endSection!
                if index < last {
                    inWindow = inView
                } else if index > last || list.sectionIndexes[ByteKey(cursor.sectionKey)] == nil {
                    inWindow = 0
                } else {
                    inWindow = sections[ByteKey(section.key)]?.count(through: cursor, source(list)) ?? 0
                }
            }
            counts.append(.init(sectionIndex: index, rowsInView: inView, rowsInWindow: inWindow))
            windowCount += inWindow
        }
        let more = windowCount < rowCount
        var shown: [ViewWindowShape.Section] = []
        var start = 0
        for count in counts {
            guard !more || start < windowCount else { break }
            shown.append(count)
            start += count.rowsInView
        }
        return ViewWindowShape(sections: shown, rowCount: windowCount, more: more)
    }

    /// The end of the window of the view's first `limit` rows (all of them when there are
    /// fewer): the cursor of its last row, `.empty` when it has none.
    public func windowEnd(limit: Int) -> ViewWindowEnd {
        let target = min(limit, rowCount) - 1
        guard target >= 0 else { return .empty }
        var before = 0
        for section in list.document.sections {
            guard let index = sections[ByteKey(section.key)], index.count > 0 else { continue }
            if target < before + index.count {
                let entry = index.entry(at: target - before)
                return .through(
                    ViewCursor(
                        fingerprint: query.fingerprint, key: source(list).key(ofRow: entry.rowKey), rowKey: entry.rowKey,
                        sectionKey: section.key))
            }
            before += index.count
        }
        return .empty
    }

    /// The row of the current list with `key`, if any.
    public func row(key: String) -> Row? {
        list.position(ofRow: key).map { list.row(atPosition: $0) }
    }
}
