#!/usr/bin/python3
"""ListClient.applyPatch against RFC 6902 (Appendix A and edge cases), checked in the browser."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import FixtureList, equal, run  # noqa: E402

# (name, document, patch, expected result or None when the patch must fail)
CASES = [
    ("A.1 add object member", {"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux"}], {"baz": "qux", "foo": "bar"}),
    ("A.2 add array element", {"foo": ["bar", "baz"]}, [{"op": "add", "path": "/foo/1", "value": "qux"}], {"foo": ["bar", "qux", "baz"]}),
    ("A.3 remove member", {"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),
    ("A.4 remove element", {"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/1"}], {"foo": ["bar", "baz"]}),
    ("A.5 replace", {"baz": "qux", "foo": "bar"}, [{"op": "replace", "path": "/baz", "value": "boo"}], {"baz": "boo", "foo": "bar"}),
    ("A.6 move member", {"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
     [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
     {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}),
    ("A.7 move element", {"foo": ["all", "grass", "cows", "eat"]}, [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
     {"foo": ["all", "cows", "eat", "grass"]}),
    ("A.8 test success", {"baz": "qux", "foo": ["a", 2, "c"]},
     [{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}], {"baz": "qux", "foo": ["a", 2, "c"]}),
    ("A.9 test failure", {"baz": "qux"}, [{"op": "test", "path": "/baz", "value": "bar"}], None),
    ("A.10 add nested member", {"foo": "bar"}, [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
     {"foo": "bar", "child": {"grandchild": {}}}),
    ("A.11 ignore unknown members", {"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}], {"foo": "bar", "baz": "qux"}),
    ("A.12 add to nonexistent target", {"foo": "bar"}, [{"op": "add", "path": "/baz/bat", "value": "qux"}], None),
    ("A.14 ~ escapes", {"/": 9, "~1": 10}, [{"op": "test", "path": "/~01", "value": 10}], {"/": 9, "~1": 10}),
    ("A.15 compare strings and numbers", {"/": 9, "~1": 10}, [{"op": "test", "path": "/~01", "value": "10"}], None),
    ("A.16 add array value", {"foo": ["bar"]}, [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}], {"foo": ["bar", ["abc", "def"]]}),
    ("~1 and ~0 in a member name", {"a/b": {"c~d": 1}}, [{"op": "replace", "path": "/a~1b/c~0d", "value": 2}], {"a/b": {"c~d": 2}}),
    ("- appends", {"s": [1]}, [{"op": "add", "path": "/s/-", "value": 2}, {"op": "add", "path": "/s/-", "value": 3}], {"s": [1, 2, 3]}),
    ("- is not a remove target", {"s": [1]}, [{"op": "remove", "path": "/s/-"}], None),
    ("index past the end", {"s": [1]}, [{"op": "add", "path": "/s/2", "value": 2}], None),
    ("leading zero index", {"s": [1, 2]}, [{"op": "remove", "path": "/s/01"}], None),
    ("copy deep", {"a": {"b": [1]}}, [{"op": "copy", "from": "/a", "path": "/c"}, {"op": "add", "path": "/c/b/-", "value": 2}],
     {"a": {"b": [1]}, "c": {"b": [1, 2]}}),
    ("move into own child", {"a": {"b": {}}}, [{"op": "move", "from": "/a", "path": "/a/b/c"}], None),
    ("replace root", {"a": 1}, [{"op": "replace", "path": "", "value": [1]}], [1]),
    ("test with member order ignored", {"a": {"x": 1, "y": 2}}, [{"op": "test", "path": "/a", "value": {"y": 2, "x": 1}}],
     {"a": {"x": 1, "y": 2}}),
    ("a failing op leaves nothing applied", {"a": 1}, [{"op": "add", "path": "/b", "value": 2}, {"op": "remove", "path": "/zz"}], None),
    ("__proto__ stays a plain member", {}, [{"op": "add", "path": "/__proto__", "value": {"polluted": 1}}], {"__proto__": {"polluted": 1}}),
]

RUN_JS = """
const [doc, patch] = arguments;
const input = JSON.parse(doc);
try { return JSON.stringify({ok: ListClient.applyPatch(input, JSON.parse(patch)), input, polluted: ({}).polluted}); }
catch (e) { return JSON.stringify({error: e instanceof ListClient.PatchError ? 'PatchError' : String(e), input}); }
"""


def test_rfc6902_cases(server, browser):
    import jsonpatch
    server.add_list(FixtureList.generated("p", [1]))
    browser.open(server.page_url("p"), {"live": False})
    for name, doc, patch, expected in CASES:
        result = json.loads(browser.js(RUN_JS, json.dumps(doc), json.dumps(patch)))
        equal(result["input"], doc, f"{name}: input unchanged")
        if expected is None:
            equal(result.get("error"), "PatchError", f"{name}: must fail")
        else:
            equal(result.get("ok"), expected, name)
            equal(result.get("polluted"), None, f"{name}: no prototype pollution")
            if name != "__proto__ stays a plain member":
                equal(jsonpatch.apply_patch(doc, patch), expected, f"{name}: reference implementation agrees")


if __name__ == "__main__":
    run([test_rfc6902_cases])
