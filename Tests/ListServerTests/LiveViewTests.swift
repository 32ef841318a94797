import HTMLRenderer
import ListModel
import ListModelTesting
import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Live html view patches")
struct LiveViewTests {
    let renderer = HTMLRenderer()

    func snapshot(_ document: ListDocument, version: Int, after previous: ListSnapshot? = nil) -> ListSnapshot {
        let list = previous.map { $0.list.updated(to: document) } ?? IndexedList(document: document)
        return ListSnapshot(id: "l", version: version, list: list)
    }

    /// Random windows of `list`: empty, small, half, everything.
    func windows(_ list: IndexedList, using random: inout SplitMix64) -> [LiveWindow] {
        [0, 1, Int.random(in: 0...max(1, list.rowCount), using: &random), list.rowCount / 2, list.rowCount]
            .map { LiveWindow(limit: $0, in: list) }
    }

    @Test func patchesTakeEveryWindowFromOldToNew() throws {
        var edits = RandomListEdits(seed: 7)
        var checked = 0
        for _ in 0..<150 {
            let oldDocument = edits.document(sections: 4, rowsPerSection: 0...6)
            let newDocument = edits.edited(oldDocument, edits: Int.random(in: 1...8, using: &edits.random))
            let old = snapshot(oldDocument, version: 1)
            let new = snapshot(newDocument, version: 2, after: old)
            for window in windows(old.list, using: &edits.random) {
                let before = LiveView(snapshot: old, window: window, renderer: renderer)
                let after = LiveView(snapshot: new, window: window, renderer: renderer)
                let patch = LiveView.patch(from: before, to: after)
                let applied = try patch.apply(to: before.json)
                #expect(applied == after.json, "window \(window), patch \(String(decoding: patch.json.serialized(), as: UTF8.self))")
                checked += 1
            }
        }
        #expect(checked == 750)
    }

    @Test func growingAWindowAddsExactlyTheNextRows() throws {
        var edits = RandomListEdits(seed: 11)
        for _ in 0..<50 {
            let document = edits.document(sections: 5, rowsPerSection: 0...5)
            let current = snapshot(document, version: 3)
            var window = LiveWindow(limit: Int.random(in: 0...3, using: &edits.random), in: current.list)
            var view = LiveView(snapshot: current, window: window, renderer: renderer).json
            while true {
                let grown = window.extended(by: 2, in: current.list)
                let patch = LiveView.patch(
                    from: LiveView(snapshot: current, window: window, renderer: renderer),
                    to: LiveView(snapshot: current, window: grown, renderer: renderer))
                view = try patch.apply(to: view)
                #expect(view == LiveView(snapshot: current, window: grown, renderer: renderer).json)
                if grown == window { break }
                window = grown
            }
            let rowKeys = view["/sections"]?.arrayValue?.flatMap { $0["/rows"]?.arrayValue ?? [] }.compactMap { $0["/key"]?.stringValue }
            #expect(rowKeys == document.sections.flatMap { $0.rows.map(\.key) }, "in the end the window holds every row once, in order")
            #expect(view["/more"] == false)
        }
    }

    @Test func footersAppearOnlyWithTheSectionsLastRow() {
        let document = ListDocument(
            title: "T",
            sections: [
                Section(key: "a", footer: "end of a", rows: [Row(key: "1"), Row(key: "2")]),
                Section(key: "b", footer: "end of b", rows: [Row(key: "3")]),
            ])
        let current = snapshot(document, version: 1)
        let partial = LiveView(snapshot: current, window: LiveWindow(limit: 1, in: current.list), renderer: renderer)
        #expect(partial.list.sections.map(\.footer) == [nil])
        #expect(partial.more)
        let whole = LiveView(snapshot: current, window: LiveWindow(limit: 3, in: current.list), renderer: renderer)
        #expect(whole.list.sections.map { $0.footer != nil } == [true, true])
        #expect(!whole.more)
        #expect(whole.until != nil)
    }

    @Test func aListInALoadingOrErrorStateShowsItsStatusInsteadOfRows() throws {
        var document = ListDocument(title: "T", sections: [Section(key: "a", header: "A", rows: [Row(key: "1"), Row(key: "2")])])
        let content = snapshot(document, version: 1)
        document.state = .error(message: "down")
        let failing = snapshot(document, version: 2, after: content)
        let window = LiveWindow(limit: 1, in: content.list)
        let view = LiveView(snapshot: failing, window: window, renderer: renderer)
        #expect(view.list.sections.isEmpty, "the page hides sections while a state is set")
        #expect(!view.more)
        #expect(view.status?.contains("down") == true)
        let before = LiveView(snapshot: content, window: window, renderer: renderer)
        #expect(try LiveView.patch(from: before, to: view).apply(to: before.json) == view.json)
        #expect(try LiveView.patch(from: view, to: before).apply(to: view.json) == before.json, "and the rows come back")
    }

    @Test func rowsAppendedAfterTheWindowStayOutUntilMore() throws {
        let document = ListDocument(title: "T", sections: [Section(key: "a", rows: [Row(key: "1")])])
        let old = snapshot(document, version: 1)
        var grown = document
        grown.sections[0].rows.append(Row(key: "2"))
        grown.sections[0].rows.insert(Row(key: "0"), at: 0)
        let new = snapshot(grown, version: 2, after: old)
        let window = LiveWindow(limit: 1, in: old.list)
        let after = LiveView(snapshot: new, window: window, renderer: renderer)
        #expect(after.list.sections[0].rows.map(\.key) == ["0", "1"], "a row inserted before the end joins")
        #expect(after.more, "the appended row is beyond the window")
    }
}

@Suite("Growing a live window")
struct LiveViewGrowTests {
    let renderer = HTMLRenderer()

    /// Growing by the rows that join gives exactly the view a full render of the grown window
    /// gives, and a patch that takes a client there; on lists with empty sections anywhere.
    @Test func growingEqualsAFullRender() throws {
        var edits = RandomListEdits(seed: 23)
        var grown = 0
        for _ in 0..<120 {
            var document = edits.document(sections: 6, rowsPerSection: 0...4)
            if Bool.random(using: &edits.random) { document.sections.insert(Section(key: edits.freshKey()), at: 0) }
            let snapshot = ListSnapshot(id: "l", version: 1, list: IndexedList(document: document))
            var window = LiveWindow(limit: Int.random(in: 0...3, using: &edits.random), in: snapshot.list)
            var view = LiveView(snapshot: snapshot, window: window, renderer: renderer)
            let cache = RowMarkupCache()
            while true {
                let next = window.extended(by: Int.random(in: 1...5, using: &edits.random), in: snapshot.list)
                guard
                    let (after, patch) = LiveView.growing(
                        view, from: window, to: next, snapshot: snapshot,
                        renderer: renderer, rowMarkup: cache)
                else { break }
                let full = LiveView(snapshot: snapshot, window: next, renderer: renderer)
                #expect(after == full)
                #expect(try patch.apply(to: view.json) == full.json)
                view = after
                window = next
                grown += 1
            }
            #expect(!view.more || document.rowCount == 0)
        }
        #expect(grown > 200)
    }
}
