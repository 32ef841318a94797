import Testing

@testable import ListModel

@Suite struct JSONPointerTests {
    /// RFC 6901 section 5's document.
    let document: JSONValue = [
        "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4,
        "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8,
    ]

    @Test(
        arguments: [
            ("", nil), ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1),
            ("/c%d", 2), ("/e^f", 3), ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
        ] as [(String, JSONValue?)])
    func resolvesRFC6901Examples(pointer: String, expected: JSONValue?) throws {
        let parsed = try JSONPointer(parsing: pointer)
        #expect(try parsed.resolve(in: document) == (expected ?? document))
        #expect(parsed.description == pointer)
    }

    @Test func parsesTokens() throws {
        #expect(try JSONPointer(parsing: "").tokens == [])
        #expect(try JSONPointer(parsing: "/").tokens == [""])
        #expect(try JSONPointer(parsing: "//a/").tokens == ["", "a", ""])
        #expect(try JSONPointer(parsing: "/~01/~10").tokens == ["~1", "/0"])
        #expect(JSONPointer(tokens: ["a/b", "~", ""]).description == "/a~1b/~0/")
    }

    @Test(arguments: ["a", "a/b", "/~", "/a~2", "/~a", "/x~"])
    func rejectsMalformedPointers(pointer: String) {
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: pointer) }
    }

    @Test func navigates() {
        let pointer: JSONPointer = "/sections/0/rows"
        #expect(pointer.appending("a/b").description == "/sections/0/rows/a~1b")
        #expect(pointer.appending(index: 3).tokens == ["sections", "0", "rows", "3"])
        #expect(pointer.parent == "/sections/0")
        #expect(pointer.lastToken == "rows")
        #expect(JSONPointer.root.parent == nil)
        #expect(JSONPointer.root.lastToken == nil)
        #expect(JSONPointer.root.isPrefix(of: pointer))
        #expect(JSONPointer("/sections").isPrefix(of: pointer))
        #expect(!JSONPointer("/section").isPrefix(of: pointer))
    }

    @Test(arguments: [
        ("/foo/2", "\"/foo/2\": index 2 is out of range (the array has 2 elements)"),
        ("/foo/-", "\"/foo/-\": \"-\" names the end of the array, where there is no element"),
        ("/foo/01", "\"/foo/01\": \"01\" is not an array index"),
        ("/foo/+1", "\"/foo/+1\": \"+1\" is not an array index"),
        ("/bar", "\"/bar\": member \"bar\" not found"),
        ("/foo/0/x", "\"/foo/0/x\": \"/foo/0\" is a string, not an object or array"),
    ])
    func reportsResolutionFailures(pointer: String, message: String) throws {
        let parsed = try JSONPointer(parsing: pointer)
        #expect(throws: JSONPointerError(message: message)) { try parsed.resolve(in: document) }
        #expect(document[parsed] == nil)
    }
}
