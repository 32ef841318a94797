import Foundation
import Testing

@testable import ListModel

private func json(_ text: String) -> JSONValue {
    do { return try JSONValue(parsing: Array(text.utf8)) } catch { fatalError("\(error): \(text)") }
}

/// Parses `patch` and applies it to `document`.
private func apply(_ patch: String, to document: String) throws(JSONPatchError) -> JSONValue {
    try JSONPatch(parsing: Array(patch.utf8)).apply(to: json(document))
}

private func failure(_ patch: String, on document: String) -> JSONPatchError? {
    do {
        _ = try apply(patch, to: document)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONPatchTests {
    @Suite struct RFC6902AppendixA {
        @Test(arguments: [
            // A.1 Adding an Object Member
            (#"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#, #"{"baz":"qux","foo":"bar"}"#),
            // A.2 Adding an Array Element
            (#"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#, #"{"foo":["bar","qux","baz"]}"#),
            // A.3 Removing an Object Member
            (#"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#, #"{"foo":"bar"}"#),
            // A.4 Removing an Array Element
            (#"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#, #"{"foo":["bar","baz"]}"#),
            // A.5 Replacing a Value
            (#"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#, #"{"baz":"boo","foo":"bar"}"#),
            // A.6 Moving a Value
            (
                #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
                #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
                #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#
            ),
            // A.7 Moving an Array Element
            (
                #"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
                #"{"foo":["all","cows","eat","grass"]}"#
            ),
            // A.8 Testing a Value: Success
            (
                #"{"baz":"qux","foo":["a",2,"c"]}"#,
                #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
                #"{"baz":"qux","foo":["a",2,"c"]}"#
            ),
            // A.10 Adding a Nested Member Object
            (
                #"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
                #"{"foo":"bar","child":{"grandchild":{}}}"#
            ),
            // A.11 Ignoring Unrecognized Elements
            (#"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#, #"{"foo":"bar","baz":"qux"}"#),
            // A.14 ~ Escape Ordering
            (#"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":10}]"#, #"{"/":9,"~1":10}"#),
            // A.16 Adding an Array Value
            (#"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#, #"{"foo":["bar",["abc","def"]]}"#),
        ])
        func succeeds(document: String, patch: String, expected: String) throws {
            #expect(try apply(patch, to: document) == json(expected))
        }

        @Test func a9TestingAValueError() {
            let error = failure(#"[{"op":"test","path":"/baz","value":"bar"}]"#, on: #"{"baz":"qux"}"#)
            #expect(
                error
                    == JSONPatchError(
                        kind: .failed, operationIndex: 0,
                        message: #""/baz": test failed: the value is "qux", expected "bar""#))
            #expect(error?.httpStatus == 409)
        }

        @Test func a12AddingToANonexistentTarget() {
            let error = failure(#"[{"op":"add","path":"/baz/bat","value":"qux"}]"#, on: #"{"foo":"bar"}"#)
            #expect(error?.kind == .failed)
            #expect(error?.description == #"operation 0: "/baz/bat": member "baz" not found"#)
        }

        @Test func a13InvalidJSONPatchDocument() {
            let error = failure(#"[{"op":"add","path":"/baz","value":"qux","op":"remove"}]"#, on: #"{"foo":"bar"}"#)
            #expect(error?.kind == .malformed)
            #expect(error?.httpStatus == 400)
            #expect(error?.message.contains("duplicate member name \"op\"") == true)
        }

        @Test func a15ComparingStringsAndNumbers() {
            let error = failure(#"[{"op":"test","path":"/~01","value":"10"}]"#, on: #"{"/":9,"~1":10}"#)
            #expect(error?.kind == .failed)
            #expect(error?.message == #""/~01": test failed: the value is 10, expected "10""#)
        }
    }

    @Suite struct Parsing {
        @Test(arguments: [
            (#"{"op":"add"}"#, nil as Int?, "a JSON Patch must be an array of operations, got an object"),
            (#"[{"op":"add","path":"/a","value":1},{"op":"add","path":"/a"}]"#, 1, #"missing "value""#),
            (#"[{"op":"replace","path":"/a"}]"#, 0, #"missing "value""#),
            (#"[{"op":"test","path":"/a"}]"#, 0, #"missing "value""#),
            (#"[{"op":"move","path":"/a"}]"#, 0, #"missing "from""#),
            (#"[{"op":"copy","from":"/a"}]"#, 0, #"missing "path""#),
            (#"[{"path":"/a"}]"#, 0, #"missing "op""#),
            (#"[{"op":"jump","path":"/a"}]"#, 0, #"unknown op "jump" (expected add, remove, replace, move, copy or test)"#),
            (#"[{"op":"ADD","path":"/a","value":1}]"#, 0, #"unknown op "ADD" (expected add, remove, replace, move, copy or test)"#),
            (#"[{"op":1,"path":"/a"}]"#, 0, #""op" must be a string, got a number"#),
            (#"[{"op":"remove","path":5}]"#, 0, #""path" must be a string, got a number"#),
            (#"[{"op":"remove","path":"a"}]"#, 0, #""path" is not a JSON Pointer: "a": a JSON Pointer must be empty or start with "/""#),
            (#"[{"op":"move","from":"/~2","path":"/a"}]"#, 0, #""from" is not a JSON Pointer: "/~2": "~" must be followed by "0" or "1""#),
            (#"[[]]"#, 0, "an operation must be an object, got an array"),
            (#"[{"op":"remove","path":"/a"},null]"#, 1, "an operation must be an object, got null"),
        ])
        func rejects(patch: String, index: Int?, message: String) {
            let error = failure(patch, on: "{}")
            #expect(error == JSONPatchError(kind: .malformed, operationIndex: index, message: message))
        }

        @Test func rejectsInvalidJSON() {
            let error = failure("[{", on: "{}")
            #expect(error?.kind == .malformed)
            #expect(error?.operationIndex == nil)
            #expect(error?.description == "invalid JSON: byte 2: unexpected end of input in object")
        }

        @Test func parsesData() throws {
            let patch = try JSONPatch(parsing: Data(#"[{"op":"move","from":"/a","path":"/b"}]"#.utf8))
            #expect(patch.operations == [.move(from: "/a", path: "/b")])
            #expect(patch.operations[0].path == "/b")
        }

        @Test func acceptsNullValueAndEmptyPatch() throws {
            #expect(try apply(#"[{"op":"add","path":"/a","value":null}]"#, to: "{}") == ["a": nil])
            #expect(try apply("[]", to: "[1]") == [1])
        }

        @Test func writesTheCanonicalJSONForm() throws {
            let text =
                #"[{"path":"/a~1b","op":"add","value":{"x":1.0}},{"path":"/b","op":"remove"},"#
                + #"{"value":2,"path":"/c","op":"replace"},{"path":"/d","from":"/e","op":"move"},"#
                + #"{"from":"/","op":"copy","path":"/f/-"},{"op":"test","path":"","value":[]}]"#
            let patch = try JSONPatch(parsing: Array(text.utf8))
            let canonical =
                #"[{"op":"add","path":"/a~1b","value":{"x":1}},{"op":"remove","path":"/b"},"#
                + #"{"op":"replace","path":"/c","value":2},{"op":"move","from":"/e","path":"/d"},"#
                + #"{"op":"copy","from":"/","path":"/f/-"},{"op":"test","path":"","value":[]}]"#
            #expect(String(decoding: patch.serialized(), as: UTF8.self) == canonical)
            #expect(try JSONPatch(json: patch.json) == patch)
            #expect(patch.operations.map(\.name) == ["add", "remove", "replace", "move", "copy", "test"])
        }
    }
}
