import HTMLRenderer
import ListModel
import ListModelTesting
import ListServerTesting
import Synchronization
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// Live views (API.md section 9 "Live"): `/events` with `sort`, `q` and filters. For random
/// lists, queries and writes (rows moving across the sort order and in and out of the filter,
/// sections coming and going, keyed row writes and whole-document ones), every client's
/// document after every event equals a fresh view document at that event's version, for
/// `view=json` (whole and windowed) and `view=html`, windows grown with `…/more`, and resumes.
@Suite("Live hub: live views")
struct LiveQueryViewTests {
    static let columns = [
        Column(key: "name", title: "Name"), Column(key: "pop", title: "Pop", kind: .number),
        Column(key: "site", title: "Site", kind: .link),
    ]
    static let words = ["Item 2", "item 10", "ITEM 02", "apple", "Banana", "cherry", "", "Straße", "strasse", "z 1"]
    static let numbers: [Double] = [0, 1, 2, 10, 10_000, -3.5, 99]

    struct Generator {
        var rng: SplitMix64
        var serial = 0

        mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
        mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }

        mutating func row(key: String? = nil) -> Row {
            serial += 1
            var row = Row(key: key ?? "r\(serial)")
            if !chance(5) { row.cells["name"] = .text(pick(LiveQueryViewTests.words)) }
            if !chance(4) { row.cells["pop"] = .number(pick(LiveQueryViewTests.numbers)) }
            if !chance(3) { row.cells["site"] = .link(text: pick(LiveQueryViewTests.words), href: "/s") }
            return row
        }

        mutating func section() -> Section {
            serial += 1
            return Section(
                key: "s\(serial)", header: chance(2) ? "Head \(serial)" : nil, footer: chance(2) ? "Foot" : nil,
                rows: (0..<Int.random(in: 0...6, using: &rng)).map { _ in row() })
        }

        mutating func document() -> ListDocument {
            ListDocument(
                title: "T", columns: LiveQueryViewTests.columns, sections: (0..<Int.random(in: 1...4, using: &rng)).map { _ in section() })
        }

        mutating func query() -> ListQuery {
            var items: [(name: String, value: String)] = []
            if !chance(4) { items.append((chance(2) ? "sort" : "sort_desc", pick(LiveQueryViewTests.columns).key)) }
            if chance(3) { items.append(("q", pick(["item", "a", "ss", "1", "0"]))) }
            if chance(2) {
                let column = pick(LiveQueryViewTests.columns)
                let op = pick(ListQuery.FilterOperator.allCases)
                if !op.takesValue {
                    items.append(("filter.\(column.key)", op.rawValue))
                } else {
                    let value = column.kind == .number ? pick(["0", "2", "10", "-1"]) : pick(["item 2", "b", "s", "apple"])
                    items.append(("filter.\(column.key)", "\(op.rawValue):\(value)"))
                }
            }
            if items.isEmpty { items.append(("sort", "name")) }
            return try! ListQuery(parameters: items, columns: LiveQueryViewTests.columns)
        }

        /// A write of `list`: mostly keyed row writes (changed cells, so rows move and start or
        /// stop matching; inserts; removals), sometimes a section added or removed or a
        /// whole-document write (section headers, the title, the list's state).
        mutating func write(_ list: IndexedList) throws -> IndexedRowEdit? {
            let document = list.document
            let keys = document.sections.flatMap { $0.rows.map(\.key) }
            switch Int.random(in: 0..<20, using: &rng) {
            case 0...8:
                guard let key = keys.isEmpty ? nil : pick(keys) else { return nil }
                return try list.replacingRow(row(key: key))
            case 9...12:
                let section = pick(document.sections)
                let position: RowInsertPosition = section.rows.isEmpty || chance(2) ? .end : .before(pick(section.rows.map(\.key)))
                return try list.insertingRows([row()], inSection: section.key, at: position)
            case 13...16:
                guard let key = keys.isEmpty ? nil : pick(keys) else { return nil }
                return try list.removingRow(key: key)
            case 17:
                var value = section().json(columns: document.columns)
                if case .object(var object) = value {
                    object["key"] = .string("s\(serial)x")
                    value = .object(object)
                }
                let index = Int.random(in: 0...document.sections.count, using: &rng)
                return try list.applying(
                    JSONPatch(operations: [.add(path: JSONPointer(tokens: ["sections", String(index)]), value: value)]))
            case 18:
                guard document.sections.count > 1 else { return nil }
                let index = Int.random(in: 0..<document.sections.count, using: &rng)
                return try list.applying(JSONPatch(operations: [.remove(path: JSONPointer(tokens: ["sections", String(index)]))]))
            default:
                return nil  // a whole-document write (the caller's)
            }
        }

        mutating func wholeWrite(_ document: ListDocument) -> ListDocument {
            var document = document
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: document.title = "T\(serial)"
            case 1 where !document.sections.isEmpty:
                let index = Int.random(in: 0..<document.sections.count, using: &rng)
                document.sections[index].header = chance(2) ? nil : "H\(serial)"
            case 2: document.state = chance(3) ? .loading : nil
            case 3: document.emptyText = chance(2) ? nil : "Nothing"
            default:
                // Rows moved between sections and reordered: a diff, not a keyed edit.
                if document.sections.count > 1, let row = document.sections[0].rows.first {
                    document.sections[0].rows.remove(at: 0)
                    document.sections[document.sections.count - 1].rows.insert(row, at: 0)
                }
            }
            serial += 1
            return document
        }
    }

    /// A client of a live view, with what it asked for.
    struct ViewClient {
        let client: LiveClient
        let query: ListQuery
    }

    func subscribe(
        _ harness: LiveHarness, _ query: ListQuery, view: Subscriber.View,
        window: LiveHub.SubscribeRequest.WindowSpec, since: Int? = nil, base: JSONValue? = nil
    ) -> ViewClient {
        let client = LiveClient(listID: "l", view: view, doc: base, version: since)
        let request = LiveHub.SubscribeRequest(listID: "l", view: view, window: window, since: since, query: query)
        harness.hub.attach(request, to: client.stream)
        return ViewClient(client: client, query: query)
    }

    /// What a fresh subscription of the client's view and window gets at `version`. The JSON
    /// document is made from `ListView` (the read path's view, built from scratch), not from the
    /// hub's `ViewIndex`; the HTML one from a `ViewIndex` built afresh.
    func expected(_ harness: LiveHarness, _ viewClient: ViewClient, at version: Int) throws -> JSONValue {
        let snapshot = try #require(harness.snapshot("l", at: version))
        let client = viewClient.client
        let end: ViewWindowEnd
        if client.view == .json {
            end = .whole
        } else if let until = client.doc?["/until"]?.stringValue {
            end = .through(try ViewCursor(decoding: until))
        } else {
            end = .empty
        }
        if client.view == .html {
            let index = try ViewIndex(list: snapshot.list, query: viewClient.query)
            return ViewDocument.make(
                .init(view: .html, end: end), index: index, listID: "l", renderer: harness.hub.renderer,
                rowMarkup: RowMarkupCache()
            ).json
        }
        let view = try snapshot.list.view(viewClient.query)
        var document = view.document
        guard client.view == .jsonWindow else { return document.json }
        // The window: the view's rows up to the cursor, with the sections a page of them shows.
        var count = 0
        if case .through(let cursor) = end {
            let after = try view.page(after: cursor, limit: 1)
            let firstAfter = after.parts.first { !$0.rows.isEmpty }.map { part in
                view.list.document.sections[part.sectionIndex].rows[part.rows[0]].key
            }
            let keys = view.rows.map(\.row.key)
            count = firstAfter.flatMap { keys.firstIndex(of: $0) } ?? keys.count
        }
        if count == 0 {
            document.sections = view.rowCount == 0 ? document.sections : []
        } else {
            document.sections = view.sections(in: try view.page(after: nil, limit: count))
        }
        guard case .object(let object) = document.json else { return document.json }
        var until: JSONValue = .null
        if case .through(let cursor) = end { until = .string(cursor.encoded) }
        return .object(JSONObject(object.members + [("more", .bool(count < view.rowCount)), ("until", until)]))
    }

    func pump(_ harness: LiveHarness, _ viewClient: ViewClient, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        harness.hub.publishReceived()
        var checked = 0
        for event in try viewClient.client.receive() where event.name == "reset" || event.name == "patch" {
            let version = viewClient.client.version!
            let expected = try expected(harness, viewClient, at: version)
            let got = viewClient.client.doc
            #expect(
                got == expected,
                "\(viewClient.client.view) of \(viewClient.query.queryString) at \(version) after \(event.name!) \(String(decoding: event.data ?? [], as: UTF8.self).prefix(600)): got \(String(decoding: got?.serialized() ?? [], as: UTF8.self).prefix(1500)) expected \(String(decoding: expected.serialized(), as: UTF8.self).prefix(1500))",
                sourceLocation: sourceLocation)
            checked += 1
        }
        return checked
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func everyViewFollowsRandomWrites(seed: UInt64) throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(recentVersions: 8))
        var generator = Generator(rng: SplitMix64(seed: seed))
        try harness.put("l", generator.document())
        var clients: [ViewClient] = []
        var checked = 0
        var grown = 0
        var resumed = 0
        for step in 0..<160 {
            switch Int.random(in: 0..<12, using: &generator.rng) {
            case 0, 1:
                let query = clients.isEmpty || generator.chance(2) ? generator.query() : generator.pick(clients).query
                let view: Subscriber.View = generator.pick([.json, .jsonWindow, .html])
                let window: LiveHub.SubscribeRequest.WindowSpec = generator.pick([.limit(0), .limit(1), .limit(3), .limit(1_000)])
                clients.append(subscribe(harness, query, view: view, window: window))
            case 2:
                // `…/more` on a windowed client.
                let windowed = clients.filter { $0.client.view != .json && $0.client.subscription != nil }
                guard !windowed.isEmpty else { continue }
                let viewClient = generator.pick(windowed)
                checked += try pump(harness, viewClient)
                let (rows, more) = try harness.hub.extend(
                    subscription: viewClient.client.subscription!, listID: "l",
                    by: Int.random(in: 1...3, using: &generator.rng))
                checked += try pump(harness, viewClient)
                if viewClient.client.doc?["/status"] == nil || viewClient.client.doc?["/status"] == .null {
                    let held = viewClient.client.doc?["/sections"]?.arrayValue?.reduce(0) { $0 + ($1["/rows"]?.arrayValue?.count ?? 0) }
                    #expect(held == rows, "the stream brought the rows `more` announced")
                    #expect(viewClient.client.doc?["/more"] == .bool(more))
                }
                grown += 1
            case 3:
                // A client that stopped and comes back with `since` (its document and version):
                // a resume from the channel's recent versions, or a reset.
                let ready = clients.filter { $0.client.version != nil }
                guard !ready.isEmpty else { continue }
                let old = generator.pick(ready)
                checked += try pump(harness, old)
                let window: LiveHub.SubscribeRequest.WindowSpec =
                    try old.client.doc?["/until"]?.stringValue
                    .map { .viewUntil(try ViewCursor(decoding: $0)) } ?? .limit(0)
                let snapshot = try #require(harness.registry.snapshot(id: "l"))
                old.client.stream.finish()
                for _ in 0..<Int.random(in: 0...3, using: &generator.rng) {
                    try harness.registry.write(id: "l") { generator.wholeWrite($0!) }
                }
                _ = snapshot
                let again = subscribe(
                    harness, old.query, view: old.client.view, window: window,
                    since: old.client.version, base: old.client.doc)
                clients.removeAll { $0.client === old.client }
                clients.append(again)
                checked += try pump(harness, again)
                resumed += again.client.events.contains { $0.name == "reset" } ? 0 : 1
            default:
                let current = try #require(harness.registry.snapshot(id: "l"))
                if let edit = try generator.write(current.list) {
                    try harness.registry.writeRows(id: "l") { _ in edit }
                } else {
                    try harness.registry.write(id: "l") { generator.wholeWrite($0!) }
                }
            }
            if step % 3 == 0 { for viewClient in clients { checked += try pump(harness, viewClient) } }
        }
        let current = try #require(harness.registry.snapshot(id: "l"))
        for viewClient in clients {
            checked += try pump(harness, viewClient)
            #expect(viewClient.client.version == current.version)
        }
        #expect(checked > 100)
        // Keyed row edits patch windows from the rows they touched (the rest diff whole windows).
        #expect(harness.hub.incrementalViewPatches.load(ordering: .relaxed) > 100)
        #expect(harness.hub.diffedViewPatches.load(ordering: .relaxed) > 100)
        #expect(grown > 2)
        #expect(resumed > 0)
    }

    /// One-row writes (a row rewritten so that it moves, one inserted, one removed) to a sorted
    /// view never diff whole windows: each window is patched from the row the write touched.
    @Test func oneRowWritesPatchWindowsFromTheRowsTheyTouched() throws {
        let harness = try LiveHarness()
        var generator = Generator(rng: SplitMix64(seed: 11))
        var document = generator.document()
        document.sections = (0..<3).map { index in
            Section(key: "k\(index)", footer: "F", rows: (0..<20).map { _ in generator.row() })
        }
        try harness.put("l", document)
        var clients: [ViewClient] = []
        for query in [
            try ListQuery(parameters: [("sort", "name")], columns: Self.columns),
            try ListQuery(parameters: [("sort_desc", "pop")], columns: Self.columns),
        ] {
            clients.append(subscribe(harness, query, view: .json, window: .limit(50)))
            clients.append(subscribe(harness, query, view: .jsonWindow, window: .limit(25)))
            clients.append(subscribe(harness, query, view: .html, window: .limit(7)))
        }
        for viewClient in clients { _ = try pump(harness, viewClient) }
        for step in 0..<60 {
            let current = try #require(harness.registry.snapshot(id: "l"))
            let keys = current.document.sections.flatMap { $0.rows.map(\.key) }
            let key = generator.pick(keys)
            switch step % 3 {
            case 0: try harness.registry.writeRows(id: "l") { try $0.replacingRow(generator.row(key: key)) }
            case 1:
                try harness.registry.writeRows(id: "l") {
                    try $0.insertingRows(
                        [generator.row()], inSection: "k\(step % 2)", at: .before(current.document.sections[step % 2].rows[0].key))
                }
            default: try harness.registry.writeRows(id: "l") { try $0.removingRow(key: key) }
            }
            for viewClient in clients { _ = try pump(harness, viewClient) }
        }
        #expect(harness.hub.incrementalViewPatches.load(ordering: .relaxed) == 60 * clients.count)
        #expect(harness.hub.diffedViewPatches.load(ordering: .relaxed) == 0)
    }

    /// Another instance's change (read back from the change log) names no rows: they are read
    /// from its patch and the order keys it logs. A view updated from those rows equals a view
    /// built afresh, for random row-level whole-document writes (rows rewritten, moved within and
    /// across sections, added, removed).
    @Test func touchedRowsReadFromAPatchKeepViewsExact() throws {
        var generator = Generator(rng: SplitMix64(seed: 99))
        var derived = 0
        for round in 0..<300 {
            let old = IndexedList(document: generator.document())
            var document = old.document
            for _ in 0..<Int.random(in: 1...4, using: &generator.rng) {
                let section = Int.random(in: 0..<document.sections.count, using: &generator.rng)
                let count = document.sections[section].rows.count
                switch Int.random(in: 0..<4, using: &generator.rng) {
                case 0 where count > 0:
                    let index = Int.random(in: 0..<count, using: &generator.rng)
                    document.sections[section].rows[index] = generator.row(key: document.sections[section].rows[index].key)
                case 1 where count > 0:
                    let row = document.sections[section].rows.remove(at: Int.random(in: 0..<count, using: &generator.rng))
                    let target = Int.random(in: 0..<document.sections.count, using: &generator.rng)
                    document.sections[target].rows.insert(
                        row, at: Int.random(in: 0...document.sections[target].rows.count, using: &generator.rng))
                case 2 where count > 0:
                    document.sections[section].rows.remove(at: Int.random(in: 0..<count, using: &generator.rng))
                default:
                    document.sections[section].rows.insert(generator.row(), at: Int.random(in: 0...count, using: &generator.rng))
                }
            }
            let patch = JSONPatch(from: old.document, to: document)
            let new = old.updated(to: document)
            guard var touched = ListChange.touchedRows(of: patch, in: old.document) else { continue }
            derived += 1
            // As the change log does: the order keys of rows that are new or renumbered.
            for section in document.sections {
                for row in section.rows where old.orderKey(ofRow: row.key) != new.orderKey(ofRow: row.key) { touched.append(row.key) }
            }
            let query = generator.query()
            var index = try ViewIndex(list: old, query: query)
            _ = index.update(to: new, touching: touched)
            let fresh = try ViewIndex(list: new, query: query)
            #expect(index.rowKeysBySection.map(\.sectionKey) == fresh.rowKeysBySection.map(\.sectionKey), "round \(round)")
            #expect(index.rowKeysBySection.map(\.rowKeys) == fresh.rowKeysBySection.map(\.rowKeys), "round \(round): \(query.queryString)")
            #expect(index.window(.whole) == fresh.window(.whole))
        }
        #expect(derived > 200)
    }

    @Test func subscribersOfOneWindowShareOneEvent() throws {
        let harness = try LiveHarness()
        var generator = Generator(rng: SplitMix64(seed: 77))
        try harness.put("l", generator.document())
        let query = try ListQuery(parameters: [("sort_desc", "pop")], columns: Self.columns)
        let first = subscribe(harness, query, view: .html, window: .limit(3))
        let second = subscribe(harness, query, view: .html, window: .limit(3))
        _ = try pump(harness, first)
        _ = try pump(harness, second)
        let current = try #require(harness.registry.snapshot(id: "l"))
        let key = try #require(current.list.document.sections.first { !$0.rows.isEmpty }?.rows.first?.key)
        var row = current.list.row(atPosition: current.list.position(ofRow: key)!)
        row.cells["pop"] = .number(1e9)
        try harness.registry.writeRows(id: "l") { try $0.replacingRow(row) }
        harness.hub.publishReceived()
        let a = first.client.drain()
        let b = second.client.drain()
        #expect(!a.isEmpty && a == b, "one patch, the same bytes")
    }

    @Test func aListKeepsAtMostMaxViewsAndDropsOnesWithoutSubscribers() throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(maxViews: 2))
        var generator = Generator(rng: SplitMix64(seed: 5))
        try harness.put("l", generator.document())
        let byName = try ListQuery(parameters: [("sort", "name")], columns: Self.columns)
        let byPop = try ListQuery(parameters: [("sort", "pop")], columns: Self.columns)
        let search = try ListQuery(parameters: [("q", "a")], columns: Self.columns)
        let one = subscribe(harness, byName, view: .json, window: .limit(50))
        let two = subscribe(harness, byPop, view: .json, window: .limit(50))
        _ = try pump(harness, one)
        _ = try pump(harness, two)
        #expect(!harness.hub.hasRoom(forView: search, of: "l"), "both views have subscribers: 503")
        #expect(harness.hub.hasRoom(forView: byName, of: "l"), "an existing view always has room")
        two.client.stream.finish()
        harness.hub.detach(subscription: two.client.subscription!)
        #expect(harness.hub.hasRoom(forView: search, of: "l"))
        let three = subscribe(harness, search, view: .json, window: .limit(50))
        #expect(try pump(harness, three) == 1)
        let channel = try #require(harness.hub.channel(for: "l"))
        #expect(channel.state.withLock { Set($0.queryViews.keys) } == [byName, search])
    }
}
