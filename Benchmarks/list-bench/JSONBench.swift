import Foundation
import ListModel

// JSON: our byte-level parser and writer against Foundation on a ~10 MB list document.

/// The list document as a Codable model, for JSONDecoder/JSONEncoder.
private struct BenchList: Codable {
    struct Column: Codable {
        var key: String
        var title: String
        var kind: String
    }
    struct Image: Codable {
        var src: String
        var alt: String
    }
    struct Link: Codable {
        var text: String
        var href: String
    }
    struct Cells: Codable {
        var name: String
        var pop: Double
        var flag: Image
        var wiki: Link
    }
    struct Row: Codable {
        var key: String
        var cells: Cells
        var href: String?
        var style: String
    }
    struct Section: Codable {
        var key: String
        var header: String?
        var footer: String?
        var collapsible: Bool
        var collapsed: Bool
        var rows: [Row]
    }
    var title: String
    var columns: [Column]
    var sections: [Section]
}

private let names = [
    "Italy", "France", "Zürich \"Old Town\"", "São Paulo", "Köln/Bonn", "東京都", "New York\nCity",
    "Tab\tSeparated", "Emoji 🎉 party", "Back\\slash & <b>bold</b>", "Ελλάδα", "Plain ASCII name",
]

/// Sections of rows with text, number, image and link cells; about `rows` × 190 bytes of JSON.
private func makeDocument(sections: Int, rowsPerSection: Int) -> JSONValue {
    var sectionValues: [JSONValue] = []
    var serial = 0
    for s in 0..<sections {
        var rows: [JSONValue] = []
        rows.reserveCapacity(rowsPerSection)
        for r in 0..<rowsPerSection {
            serial += 1
            let name = names[serial % names.count]
            let cells: JSONValue = [
                "name": .string("\(name) \(r)"),
                "pop": .number(serial % 3 == 0 ? Double(serial) : Double(serial) / 7.0),
                "flag": ["src": .string("/img/flags/\(serial % 250).png"), "alt": .string("Flag of \(name)")],
                "wiki": ["text": "Wikipedia", "href": .string("https://en.wikipedia.org/wiki/Item_\(serial)?q=\"x\"")],
            ]
            rows.append([
                "key": .string("row-\(serial)"), "cells": cells,
                "href": serial % 4 == 0 ? .string("/items/\(serial)") : nil,
                "style": serial % 10 == 0 ? "highlight" : "default",
            ])
        }
        sectionValues.append([
            "key": .string("section-\(s)"), "header": .string("Section \(s) — “quoted”"),
            "footer": s % 2 == 0 ? .string("\(rowsPerSection) rows") : nil,
            "collapsible": false, "collapsed": false, "rows": .array(rows),
        ])
    }
    return [
        "title": "Benchmark list",
        "columns": [
            ["key": "name", "title": "Name", "kind": "text"], ["key": "pop", "title": "Population", "kind": "number"],
            ["key": "flag", "title": "Flag", "kind": "image"], ["key": "wiki", "title": "More", "kind": "link"],
        ],
        "sections": .array(sectionValues),
    ]
}

/// Wall-clock and thread-CPU medians of one contender.
private struct Timing {
    var wall: Double
    var cpu: Double
}

/// Medians of `body` over `iterations` runs after a warm-up, in wall-clock and thread CPU time.
private func measure(_ iterations: Int, _ body: () -> Void) -> Timing {
    body()
    var walls: [Double] = [], cpus: [Double] = []
    for _ in 0..<iterations {
        var cpu0 = timespec(), cpu1 = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0)
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1)
        cpus.append(Double(cpu1.tv_sec - cpu0.tv_sec) + Double(cpu1.tv_nsec - cpu0.tv_nsec) / 1e9)
    }
    return Timing(wall: walls.sorted()[iterations / 2], cpu: cpus.sorted()[iterations / 2])
}

private func row(_ name: String, bytes: Int, _ timing: Timing, baseline: Timing? = nil) {
    let padded = name.padding(toLength: 30, withPad: " ", startingAt: 0)
    var line = "  \(padded) wall \(ms(timing.wall).leftPadded(11)) \(mbps(bytes: bytes, seconds: timing.wall).leftPadded(9))"
    line += "   cpu \(ms(timing.cpu).leftPadded(11)) \(mbps(bytes: bytes, seconds: timing.cpu).leftPadded(9))"
    if let baseline {
        line += String(format: "   ours %.1fx faster (cpu %.1fx)", timing.wall / baseline.wall, timing.cpu / baseline.cpu)
    }
    print(line)
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

func runJSONBenchmarks() {
    let value = makeDocument(sections: 40, rowsPerSection: 1_000)
    let bytes = value.serialized()
    let data = Data(bytes)
    let count = bytes.count
    print(String(format: "  document: 40 sections x 1,000 rows x 4 cells, %.2f MB", Double(count) / 1e6))
    print("  medians of wall-clock and of thread CPU time (CPU is steadier on a shared machine);")
    print("  each parse includes freeing its result, as a server would")

    // Sanity: every contender reads the same document.
    let decoded = try! JSONDecoder().decode(BenchList.self, from: data)
    precondition(decoded.sections.count == 40 && decoded.sections[0].rows.count == 1_000)
    precondition((try! JSONValue(parsing: bytes)) == value)
    // JSONEncoder leaves out nil members where ours writes null: compare the parts it keeps.
    let reencoded = try! JSONValue(parsing: try! JSONEncoder().encode(decoded))
    precondition(reencoded[JSONPointer("/sections/7/rows/3/cells")] == value[JSONPointer("/sections/7/rows/3/cells")])

    let ourParse = measure(11) { blackHole(try! JSONValue(parsing: bytes)) }
    let ourWrite = measure(11) { blackHole(value.serialized()) }
    let decoder = measure(5) { blackHole(try! JSONDecoder().decode(BenchList.self, from: data)) }
    let encoder = measure(5) { blackHole(try! JSONEncoder().encode(decoded)) }
    let object = try! JSONSerialization.jsonObject(with: data)
    let serializationRead = measure(5) { blackHole(try! JSONSerialization.jsonObject(with: data)) }
    let serializationWrite = measure(3) { blackHole(try! JSONSerialization.data(withJSONObject: object)) }

    print("  parse (bytes in)")
    row("JSONValue(parsing:)", bytes: count, ourParse)
    row("JSONDecoder (Codable struct)", bytes: count, decoder, baseline: ourParse)
    row("JSONSerialization.jsonObject", bytes: count, serializationRead, baseline: ourParse)
    print("  serialize (bytes out)")
    row("JSONValue.serialized()", bytes: count, ourWrite)
    row("JSONEncoder (Codable struct)", bytes: count, encoder, baseline: ourWrite)
    row("JSONSerialization.data", bytes: count, serializationWrite, baseline: ourWrite)

    // Patch apply: in-place edits deep in the big document (copies only the touched paths).
    var operations: [JSONPatchOperation] = []
    for i in 0..<1_000 {
        let section = i % 40, rowIndex = (i * 37) % 1_000
        operations.append(
            .replace(
                path: JSONPointer(tokens: ["sections", "\(section)", "rows", "\(rowIndex)", "cells", "pop"]), value: .number(Double(i))))
    }
    for i in 0..<100 {
        operations.append(
            .move(
                from: JSONPointer(tokens: ["sections", "\(i % 40)", "rows", "0"]),
                path: JSONPointer(tokens: ["sections", "\((i + 1) % 40)", "rows", "-"])))
    }
    let patch = JSONPatch(operations: operations)
    let applied = medianSeconds(iterations: 11) { blackHole(try! patch.apply(to: value)) }
    print(String(format: "  JSONPatch.apply, 1,100 ops on the 10 MB document: %@ (%.2f µs per op)", ms(applied), applied / 1_100 * 1e6))
    let same = JSONPatch(operations: Array(repeating: operations[0], count: 1_000))
    let sameTime = medianSeconds(iterations: 11) { blackHole(try! same.apply(to: value)) }
    print(String(format: "  JSONPatch.apply, 1,000 replaces of one cell: %@ (%.2f µs per op)", ms(sameTime), sameTime / 1_000 * 1e6))
    let single = JSONPatch(operations: [operations[0]])
    let one = medianSeconds(iterations: 101) { blackHole(try! single.apply(to: value)) }
    print("  JSONPatch.apply, 1 replace on the 10 MB document: \(ms(one))")
}
