import Testing

@testable import ListModel

private func json(_ text: String) -> JSONValue {
    do { return try JSONValue(parsing: Array(text.utf8)) } catch { fatalError("\(error): \(text)") }
}

private func apply(_ patch: String, to document: JSONValue) throws(JSONPatchError) -> JSONValue {
    try JSONPatch(parsing: Array(patch.utf8)).apply(to: document)
}

private func failure(_ patch: String, on document: JSONValue) -> JSONPatchError? {
    do {
        _ = try apply(patch, to: document)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONPatchApplyTests {
    let document = json(#"{"a":[1,2,3],"o":{"x":{"y":1}},"s":"text","":{"":"empty"},"t~/":0}"#)

    @Test func dashAppendsAndIndexesInsert() throws {
        #expect(try apply(#"[{"op":"add","path":"/a/-","value":4}]"#, to: document)[JSONPointer("/a")] == [1, 2, 3, 4])
        #expect(try apply(#"[{"op":"add","path":"/a/3","value":4}]"#, to: document)[JSONPointer("/a")] == [1, 2, 3, 4])
        #expect(try apply(#"[{"op":"add","path":"/a/0","value":0}]"#, to: document)[JSONPointer("/a")] == [0, 1, 2, 3])
    }

    @Test(arguments: [
        (#"[{"op":"add","path":"/a/4","value":0}]"#, #""/a/4": index 4 is out of range (the array has 3 elements)"#),
        (#"[{"op":"add","path":"/a/01","value":0}]"#, #""/a/01": "01" is not an array index"#),
        (#"[{"op":"remove","path":"/a/-"}]"#, #""/a/-": "-" names the end of the array, where there is no element"#),
        (#"[{"op":"replace","path":"/a/-","value":0}]"#, #""/a/-": "-" names the end of the array, where there is no element"#),
        (#"[{"op":"remove","path":"/a/3"}]"#, #""/a/3": index 3 is out of range (the array has 3 elements)"#),
        (#"[{"op":"replace","path":"/nope","value":0}]"#, #""/nope": member "nope" not found"#),
        (#"[{"op":"remove","path":"/o/z"}]"#, #""/o/z": member "z" not found"#),
        (#"[{"op":"add","path":"/s/x","value":0}]"#, #""/s/x": "/s" is a string, not an object or array"#),
        (#"[{"op":"add","path":"/s/x/y","value":0}]"#, #""/s/x/y": "/s" is a string, not an object or array"#),
        (#"[{"op":"copy","from":"/q","path":"/r"}]"#, #""/q": member "q" not found"#),
        (#"[{"op":"move","from":"/q","path":"/q"}]"#, #""/q": member "q" not found"#),
        (#"[{"op":"move","from":"/o","path":"/o/x/z"}]"#, #"cannot move "/o" into its own child "/o/x/z""#),
        (#"[{"op":"move","from":"","path":"/z"}]"#, #"cannot move "" into its own child "/z""#),
        (#"[{"op":"remove","path":""}]"#, #""": cannot remove the whole document"#),
    ])
    func failsNamingThePath(patch: String, message: String) {
        let error = failure(patch, on: document)
        #expect(error == JSONPatchError(kind: .failed, operationIndex: 0, message: message))
        #expect(error?.httpStatus == 409)
    }

    @Test func moveToTheSamePathIsANoOp() throws {
        #expect(try apply(#"[{"op":"move","from":"/o/x","path":"/o/x"}]"#, to: document) == document)
        #expect(try apply(#"[{"op":"move","from":"","path":""}]"#, to: document) == document)
        // A sibling whose name starts the same is not a child.
        let moved = try apply(#"[{"op":"move","from":"/o","path":"/ox"}]"#, to: document)
        #expect(moved[JSONPointer("/ox/x/y")] == 1)
        #expect(moved[JSONPointer("/o")] == nil)
    }

    @Test func copiesABigSubtree() throws {
        let rows = JSONValue.array((0..<10_000).map { ["key": .string("r\($0)"), "cells": ["n": .number(Double($0))]] })
        let big: JSONValue = ["sections": [["key": "s0", "rows": rows]]]
        let result = try apply(
            #"[{"op":"copy","from":"/sections/0","path":"/sections/-"},"#
                + #"{"op":"replace","path":"/sections/1/key","value":"s1"},"#
                + #"{"op":"remove","path":"/sections/1/rows/0"}]"#, to: big)
        #expect(result[JSONPointer("/sections/1/rows")]?.arrayValue?.count == 9_999)
        #expect(result[JSONPointer("/sections/0/rows")] == rows)
        #expect(result[JSONPointer("/sections/1/rows/0/key")] == "r1")
        #expect(big[JSONPointer("/sections")]?.arrayValue?.count == 1)
    }

    @Test func copyIntoItsOwnChildIsAllowed() throws {
        let result = try apply(#"[{"op":"copy","from":"/o","path":"/o/copy"}]"#, to: document)
        #expect(result[JSONPointer("/o/copy")] == json(#"{"x":{"y":1}}"#))
    }

    @Test func testUsesJSONEquality() throws {
        let doc = json(#"{"o":{"a":1,"b":[1.0,{"c":null,"d":true}]}}"#)
        #expect(throws: Never.self) {
            try apply(#"[{"op":"test","path":"/o","value":{"b":[1,{"d":true,"c":null}],"a":1.0}}]"#, to: doc)
        }
        #expect(throws: Never.self) { try apply(#"[{"op":"test","path":"/o/a","value":1e0}]"#, to: doc) }
        #expect(failure(#"[{"op":"test","path":"/o/b","value":[{"d":true,"c":null},1]}]"#, on: doc) != nil)
        #expect(failure(#"[{"op":"test","path":"/o","value":{"a":1}}]"#, on: doc) != nil)
        #expect(failure(#"[{"op":"test","path":"/o/a","value":true}]"#, on: doc) != nil)
    }

    @Test func escapedTokensAndEmptyKeys() throws {
        let result = try apply(
            #"[{"op":"replace","path":"/t~0~1","value":1},{"op":"add","path":"/a~1b","value":2},"#
                + #"{"op":"replace","path":"//","value":"full"},{"op":"add","path":"/o/","value":3}]"#, to: document)
        #expect(result.objectValue?["t~/"] == 1)
        #expect(result.objectValue?["a/b"] == 2)
        #expect(result.objectValue?[""] == ["": "full"])
        #expect(result[JSONPointer("/o/")] == 3)
        let removed = try apply(#"[{"op":"remove","path":"/"}]"#, to: document)
        #expect(removed.objectValue?[""] == nil)
    }

    @Test func rootPointerForEveryOperation() throws {
        #expect(try apply(#"[{"op":"add","path":"","value":[1]}]"#, to: document) == [1])
        #expect(try apply(#"[{"op":"replace","path":"","value":{"b":2}}]"#, to: document) == ["b": 2])
        #expect(try apply(#"[{"op":"test","path":"","value":{}}]"#, to: [:]) == [:])
        #expect(failure(#"[{"op":"test","path":"","value":[]}]"#, on: [:])?.kind == .failed)
        #expect(try apply(#"[{"op":"copy","from":"/o","path":""}]"#, to: document) == json(#"{"x":{"y":1}}"#))
        #expect(try apply(#"[{"op":"move","from":"/o/x","path":""}]"#, to: document) == ["y": 1])
        let copied = try apply(#"[{"op":"copy","from":"","path":"/self"}]"#, to: ["a": 1])
        #expect(copied == ["a": 1, "self": ["a": 1]])
        #expect(failure(#"[{"op":"remove","path":""}]"#, on: document)?.kind == .failed)
    }

    @Test func isAtomic() throws {
        let original = document
        let error = failure(
            #"[{"op":"add","path":"/a/-","value":4},{"op":"remove","path":"/o/x"},"#
                + #"{"op":"remove","path":"/missing"},{"op":"add","path":"/z","value":0}]"#, on: document)
        #expect(error?.operationIndex == 2)
        #expect(document == original)
        #expect(document.serialized() == original.serialized())
        #expect(document[JSONPointer("/o/x/y")] == 1)
    }

    @Test func appliesOperationsInOrder() throws {
        let result = try apply(
            #"[{"op":"add","path":"/list","value":[]},{"op":"add","path":"/list/-","value":"b"},"#
                + #"{"op":"add","path":"/list/0","value":"a"},{"op":"copy","from":"/list/0","path":"/list/-"},"#
                + #"{"op":"move","from":"/list/2","path":"/list/1"},{"op":"test","path":"/list","value":["a","a","b"]}]"#,
            to: [:])
        #expect(result == ["list": ["a", "a", "b"]])
    }
}
