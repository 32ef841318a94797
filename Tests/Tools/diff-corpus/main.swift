// Emits random (old, new, patch) triples as JSON lines for the differential test against an
// independent JSON Patch implementation (Tests/integration/test_diff_differential.py):
//
//     diff-corpus SEED COUNT
//     diff-corpus patches SEED COUNT
//
// The second form emits random patches applied by `IndexedList.applying` (for
// Tests/integration/test_patch_differential.py): {"seed", "old", "patch", "outcome"} where
// outcome is "applied" (then "published", the patch it publishes, and "new"), "failed" (an
// operation did not apply) or "invalid" (the result is not a valid list).
//
// Each line is {"seed": N, "old": DOCUMENT, "new": DOCUMENT, "patch": [OPERATIONS]}, where
// "patch" is JSONPatch(from: old, to: new). Case N uses generator seed SEED + N, so a failing
// case can be replayed alone with `diff-corpus SEED+N 1`. Every 50th case is a larger list
// (10 sections of 10 to 30 rows) with the benchmark's mixed edits; the others are small
// lists under random edit scripts (moves within and across sections, section reorders, …).

import Foundation
import ListModel
import ListModelTesting

var arguments = CommandLine.arguments
let patches = arguments.count == 4 && arguments[1] == "patches"
if patches { arguments.remove(at: 1) }
guard arguments.count == 3, let seed = UInt64(arguments[1]), let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: diff-corpus [patches] SEED COUNT\n".utf8))
    exit(2)
}
if patches {
    emitPatchCases(seed: seed, count: count)
    exit(0)
}

var out: [UInt8] = []
out.reserveCapacity(1 << 20)
for index in 0..<count {
    let caseSeed = seed &+ UInt64(index)
    var random = RandomListEdits(seed: caseSeed)
    let old: ListDocument
    let new: ListDocument
    if caseSeed % 50 == 49 {
        old = random.document(sections: 10, rowsPerSection: 10...30)
        new = random.mixedEdits(old, deletes: 0.1, inserts: 0.1, moves: 0.05, updates: 0.1).document
    } else {
        old = random.document(sections: Int.random(in: 0...5, using: &random.random), rowsPerSection: 0...10)
        new = random.edited(old, edits: Int.random(in: 0...15, using: &random.random))
    }
    let line: JSONValue = [
        "seed": .number(Double(caseSeed)), "old": old.json, "new": new.json,
        "patch": JSONPatch(from: old, to: new).json,
    ]
    line.serialize(into: &out)
    out.append(UInt8(ascii: "\n"))
    if out.count > 1 << 20 {
        FileHandle.standardOutput.write(Data(out))
        out.removeAll(keepingCapacity: true)
    }
}
FileHandle.standardOutput.write(Data(out))
