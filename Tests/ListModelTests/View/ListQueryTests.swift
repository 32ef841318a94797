import Testing

@testable import ListModel

@Suite struct ListQueryTests {
    static let columns = [
        Column(key: "name", title: "Name"), Column(key: "pop", kind: .number),
        Column(key: "site", kind: .link), Column(key: "flag", kind: .image), Column(key: "a b", kind: .text),
    ]

    func parse(_ items: [(String, String)]) throws(ListQueryError) -> ListQuery {
        try ListQuery(parameters: items.map { (name: $0.0, value: $0.1) }, columns: Self.columns)
    }

    func error(_ items: [(String, String)]) -> ListQueryError? {
        do {
            _ = try parse(items)
            return nil
        } catch { return error }
    }

    @Test func readsEveryParameterAndIgnoresOthers() throws {
        let query = try parse([
            ("limit", "5"), ("filter.pop", "ge:1e3"), ("q", "Zürich"), ("sort_desc", "name"),
            ("after", "x"), ("filter.flag", "nonempty"), ("filter.name", "contains:a:b"),
        ])
        #expect(query.sort == ListQuery.Sort(column: "name", descending: true))
        #expect(query.search == "Zürich")
        #expect(
            query.filters == [
                ListQuery.Filter(column: "flag", op: .nonempty),
                ListQuery.Filter(column: "name", op: .contains, value: "a:b"),
                ListQuery.Filter(column: "pop", op: .ge, value: "1000"),
            ])
        #expect(try parse([]).isIdentity)
        #expect(try parse([("page", "2")]) == ListQuery())
    }

    @Test(
        arguments: [
            ([("sort", "nope")], "sort"),
            ([("sort_desc", "nope")], "sort_desc"),
            ([("filter.nope", "eq:1")], "filter.nope"),
            ([("filter.name", "like:x")], "filter.name"),
            ([("filter.name", "")], "filter.name"),
            ([("filter.pop", "eq:ten")], "filter.pop"),
            ([("filter.pop", "eq: 1")], "filter.pop"),
            ([("filter.pop", "lt:01")], "filter.pop"),
            ([("filter.pop", "gt:1.")], "filter.pop"),
            ([("filter.pop", "gt:+1")], "filter.pop"),
            ([("filter.pop", "contains:1,000")], "filter.pop"),
            ([("filter.name", "eq")], "filter.name"),
            ([("filter.name", "eq:")], "filter.name"),
            ([("filter.name", "empty:x")], "filter.name"),
            ([("sort", "name"), ("sort_desc", "pop")], "sort_desc"),
            ([("sort_desc", "pop"), ("sort", "name")], "sort"),
            ([("sort", "name"), ("sort", "pop")], "sort"),
            ([("filter.pop", "eq:1"), ("filter.pop", "eq:2")], "filter.pop"),
            ([("q", "")], "q"),
            ([("q", String(repeating: "é", count: 129))], "q"),
            ([("q", "a"), ("q", "b")], "q"),
            ([("filter.name", "eq:" + String(repeating: "x", count: 257))], "filter.name"),
        ] as [([(String, String)], String)])
    func errorsNameTheParameter(items: [(String, String)], parameter: String) {
        let error = error(items)
        #expect(error?.parameter == parameter, "\(items)")
        #expect(error.map { !$0.message.isEmpty && $0.description.hasPrefix(parameter + ": ") } == true)
    }

    @Test func messagesSayWhatIsWrong() {
        #expect(error([("sort", "nope")])?.message == "unknown column \"nope\"")
        #expect(error([("filter.pop", "eq:ten")])?.message.contains("not a JSON number") == true)
        #expect(error([("filter.name", "like:x")])?.message.contains("unknown operator \"like\"") == true)
        #expect(error([("q", "")])?.message == "must be 1 to 256 bytes, got 0")
    }

    @Test func atMostEightFilters() throws {
        let columns = (0..<9).map { Column(key: "c\($0)") }
        let items = (0..<9).map { (name: "filter.c\($0)", value: "nonempty") }
        #expect(throws: ListQueryError.self) { try ListQuery(parameters: items, columns: columns) }
        do { _ = try ListQuery(parameters: items, columns: columns) } catch { #expect(error.parameter == "filter.c8") }
        #expect(try ListQuery(parameters: Array(items.prefix(8)), columns: columns).filters.count == 8)
        // A query built in Swift is checked the same way.
        let built = ListQuery(filters: (0..<9).map { ListQuery.Filter(column: "c\($0)", op: .empty) })
        #expect(throws: ListQueryError.self) { try built.validated(for: columns) }
    }

    @Test func qLimitCountsBytes() throws {
        #expect(try parse([("q", String(repeating: "é", count: 128))]).search?.utf8.count == 256)
    }

    @Test func canonicalFormDoesNotDependOnParameterOrder() throws {
        let a = try parse([("q", "x y"), ("filter.pop", "lt:10.0"), ("sort", "a b"), ("filter.flag", "empty")])
        let b = try parse([("filter.flag", "empty"), ("sort", "a b"), ("filter.pop", "lt:1e1"), ("q", "x y")])
        #expect(a == b)
        #expect(a.canonicalParameters.map(\.name) == ["sort", "filter.flag", "filter.pop", "q"])
        #expect(a.queryString == "sort=a%20b&filter.flag=empty&filter.pop=lt%3A10&q=x%20y")
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint != (try parse([("q", "x y")])).fingerprint)
    }

    /// FNV-1a 64 of the canonical query string; expected values computed outside Swift (Python).
    @Test func fingerprintIsFNV1a64OfTheQueryString() throws {
        #expect(ListQuery().fingerprint == 0xCBF2_9CE4_8422_2325)
        #expect(try parse([("sort", "name")]).fingerprint == 0x0466_9AED_FAB2_64BF)
        let query = try parse([("q", "café"), ("filter.pop", "ge:10"), ("sort_desc", "pop")])
        #expect(query.queryString == "sort_desc=pop&filter.pop=ge%3A10&q=caf%C3%A9")
        #expect(query.fingerprint == 0xDBCA_1F03_BA64_81ED)
    }

    @Test func viewValidatesASwiftQuery() {
        let document = ListDocument(title: "T", columns: Self.columns)
        #expect(throws: ListQueryError(parameter: "sort", message: "unknown column \"x\"")) {
            try document.view(ListQuery(sort: .init(column: "x")))
        }
        #expect(throws: ListQueryError.self) { try document.view(ListQuery(search: "")) }
    }
}
