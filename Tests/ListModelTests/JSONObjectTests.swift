import Testing

@testable import ListModel

/// The object inside a literal (dictionary literals keep their order).
private func object(_ value: JSONValue) -> JSONObject { value.objectValue! }

@Suite struct JSONObjectTests {
    @Test func setAppendsReplacesAndRemovesKeepingOrder() {
        var object = JSONObject()
        #expect(object.isEmpty)
        for (index, key) in ["a", "b", "c", "d", "e", "f"].enumerated() { object[key] = .number(Double(index)) }
        object["c"] = "replaced"
        object["a"] = nil
        #expect(object.keys == ["b", "c", "d", "e", "f"])
        #expect(object["c"] == "replaced")
        #expect(object.removeValue(forKey: "e") == .number(4))
        #expect(object.removeValue(forKey: "missing") == nil)
        #expect(String(decoding: JSONValue.object(object).serialized(), as: UTF8.self) == #"{"b":1,"c":"replaced","d":3,"f":5}"#)
    }

    @Test func copiesAreIndependent() {
        var original = object(["name": "Ada", "tags": ["x"]])
        let copy = original
        original["name"] = "Grace"
        original["new"] = true
        var other = copy
        other.removeValue(forKey: "tags")
        #expect(copy == object(["name": "Ada", "tags": ["x"]]))
        #expect(original.keys == ["name", "tags", "new"])
        #expect(other.keys == ["name"])
    }

    @Test func parsedObjectsEditWithoutTouchingTheirSource() throws {
        let parsed = try JSONValue(parsing: #"{"row":{"key":"r1","cells":{"name":"Ada"}}}"#)
        let edited = try JSONPatch(parsing: Array(#"[{"op":"replace","path":"/row/cells/name","value":"Grace"}]"#.utf8)).apply(to: parsed)
        #expect(parsed[JSONPointer("/row/cells/name")] == "Ada")
        #expect(edited[JSONPointer("/row/cells/name")] == "Grace")
    }

    @Test func equalityIgnoresMemberOrderButNotValues() {
        let a = object(["x": 1, "y": [1, 2], "z": nil])
        let b = object(["z": nil, "x": 1.0, "y": [1, 2]])
        #expect(a == b)
        #expect(a != object(["x": 1, "y": [2, 1], "z": nil]))
        #expect(a != object(["x": 1, "y": [1, 2]]))
        #expect(a != object(["x": 1, "y": [1, 2], "w": nil]))
    }

    @Test func iterationYieldsMembersInOrder() {
        let object = object(["one": 1, "two": 2, "three": 3])
        var seen: [String] = []
        for (key, value) in object { seen.append("\(key)=\(value.numberValue!)") }
        #expect(seen == ["one=1.0", "two=2.0", "three=3.0"])
        #expect(object.members.map(\.key) == ["one", "two", "three"])
    }
}
