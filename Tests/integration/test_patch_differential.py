#!/usr/bin/python3
"""Differential test of PATCH applied to the indexed list against an independent RFC 6902 implementation.

Runs `diff-corpus patches` (random patches of random lists, applied by `IndexedList.applying`)
and checks each case with Python's `jsonpatch` (Debian package python3-jsonpatch):

- the patch fails to apply in jsonpatch exactly when ours said an operation failed;
- for an applied patch, the patch we publish to live subscribers, applied by jsonpatch to the
  old document, gives exactly our new document.

Prints a summary; exits non-zero on the first mismatch, printing that case.

    /usr/bin/python3 Tests/integration/test_patch_differential.py [SEED] [COUNT]
"""

import json
import sys
import time

import jsonpatch

from test_diff_differential import corpus_binary

import subprocess


def moves_into_own_child(patch):
    """Whether an operation moves a value into its own child: RFC 6902 (4.4) forbids it, and
    ours fails there, but python-jsonpatch applies it, so such a patch is not compared."""
    return any(op["op"] == "move" and op["path"].startswith(op["from"] + "/") for op in patch)


def has_leading_zero_index(patch):
    """Whether a pointer holds an index like "01": not an array index by RFC 6901, so ours
    fails there, but python-jsonpatch reads it as 1, so such a patch is not compared."""
    return any(len(token) > 1 and token[0] == "0" and token.isdigit()
               for op in patch for key in ("path", "from") if key in op for token in op[key].split("/"))


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 20261123
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
    binary = corpus_binary()
    started = time.monotonic()
    output = subprocess.run([binary, "patches", str(seed), str(count)], check=True, capture_output=True).stdout
    outcomes = {"applied": 0, "failed": 0, "invalid": 0}
    operations = published_operations = 0
    for line in output.splitlines():
        case = json.loads(line)
        outcome = case["outcome"]
        outcomes[outcome] += 1
        operations += len(case["patch"])
        try:
            jsonpatch.apply_patch(case["old"], case["patch"])
            theirs = "applies"
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError, KeyError, IndexError):
            theirs = "fails"  # python-jsonpatch raises TypeError for some pointers it cannot follow
        failure = None
        if outcome == "failed" and (moves_into_own_child(case["patch"]) or has_leading_zero_index(case["patch"])):
            pass
        elif (outcome == "failed") != (theirs == "fails"):
            failure = f"ours: {outcome}, jsonpatch: the patch {theirs}"
        elif outcome == "applied":
            published_operations += len(case["published"])
            try:
                result = jsonpatch.apply_patch(case["old"], case["published"])
                if result != case["new"]:
                    failure = "the published patch gives " + json.dumps(result, ensure_ascii=False)
            except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as error:
                failure = f"the published patch does not apply: {error}"
        if failure:
            print(f"FAIL seed {case['seed']} (replay: diff-corpus patches {case['seed']} 1): {failure}")
            for name in ("old", "patch", "published", "new"):
                if name in case:
                    print(f"{name}:", json.dumps(case[name], ensure_ascii=False))
            return 1
    if sum(outcomes.values()) != count or min(outcomes.values()) < count // 20:
        print(f"FAIL expected {count} cases of every outcome, got {outcomes}")
        return 1
    print(f"patch differential: {count} cases OK against python-jsonpatch {jsonpatch.__version__} "
          f"({outcomes['applied']} applied, {outcomes['failed']} failed, {outcomes['invalid']} invalid; "
          f"{operations} operations in, {published_operations} published) in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
