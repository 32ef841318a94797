#!/usr/bin/python3
"""Differential test of the keyed diff against an independent RFC 6902 implementation.

Runs the `diff-corpus` tool (random old/new list documents and the patch that
`JSONPatch(from:to:)` computes between them), applies every patch to its old document with
Python's `jsonpatch` (Debian package python3-jsonpatch) and checks the result equals the new
document. Prints a summary; exits non-zero on the first mismatch, printing that case.

The binary is found next to $LIST_SERVER_BIN when that is set, else in the bin directory of
`swift build --show-bin-path` at the package root (built there if missing).

    /usr/bin/python3 Tests/integration/test_diff_differential.py [SEED] [COUNT]
"""

import json
import os
import subprocess
import sys
import time

import jsonpatch

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def corpus_binary():
    server = os.environ.get("LIST_SERVER_BIN")
    if server:
        return os.path.join(os.path.dirname(server), "diff-corpus")
    bin_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=PACKAGE_ROOT, check=True,
        capture_output=True, text=True).stdout.strip()
    binary = os.path.join(bin_path, "diff-corpus")
    if not os.path.exists(binary):
        subprocess.run(["swift", "build", "--product", "diff-corpus"], cwd=PACKAGE_ROOT, check=True)
    return binary


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 20261121
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    binary = corpus_binary()
    started = time.monotonic()
    output = subprocess.run([binary, str(seed), str(count)], check=True, capture_output=True).stdout

    cases = operations = moves = cross_section_moves = section_moves = root_replaces = 0
    for line in output.splitlines():
        case = json.loads(line)
        patch = case["patch"]
        try:
            result = jsonpatch.apply_patch(case["old"], patch)
            error = None
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exception:
            result, error = None, exception
        if error is not None or result != case["new"]:
            print(f"FAIL seed {case['seed']} (replay: diff-corpus {case['seed']} 1)")
            print("error:", error) if error else print("got:  ", json.dumps(result, ensure_ascii=False))
            for name in ("old", "new", "patch"):
                print(f"{name}:", json.dumps(case[name], ensure_ascii=False))
            return 1
        cases += 1
        operations += len(patch)
        for op in patch:
            if op["op"] == "move":
                moves += 1
                source, target = op["from"].split("/"), op["path"].split("/")
                if len(source) == 3:
                    section_moves += 1
                elif source[2] != target[2]:
                    cross_section_moves += 1
        root_replaces += patch[:1] == [{"op": "replace", "path": "", "value": case["new"]}]

    if cases != count:
        print(f"FAIL expected {count} cases, got {cases}")
        return 1
    print(f"diff differential: {cases} cases OK against python-jsonpatch {jsonpatch.__version__} "
          f"({operations} operations, {moves} moves: {section_moves} of sections, "
          f"{cross_section_moves} of rows across sections; {root_replaces} whole replaces) "
          f"in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
