// `list-bench big-patch`: the ListModel part of scripts/bench/big_patch.py, one PATCH of 100,000
// `add`s at /sections/0/rows/0 (rows with a key only) applied to a 1,000-row list
// (`IndexedList.applying`), without HTTP, the store or the JSON Patch parse.

import ListModel

func runBigPatchBenchmark() {
    let document = benchDocument(
        title: "Big patch", columns: [Column(key: "name"), Column(key: "n", kind: .number)],
        sections: 1, rows: 1_000
    ) { serial in
        ["name": .text("Row \(serial)"), "n": .number(Double(serial))]
    }
    let list = IndexedList(document: document)
    let path = JSONPointer(tokens: ["sections", "0", "rows", "0"])
    let operations = (0..<100_000).map { n in
        JSONPatchOperation.add(path: path, value: try! JSONValue(parsing: "{\"key\":\"n\(n)\"}"))
    }
    let patch = JSONPatch(operations: operations)
    let seconds = medianThreadCPUSeconds(iterations: 3) { blackHole(try! list.applying(patch)) }
    print("  100,000 adds at /sections/0/rows/0 of a 1,000-row list, one PATCH: thread CPU median of 3 \(ms(seconds))")
}
