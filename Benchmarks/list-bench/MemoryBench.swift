// `swift run -c release list-bench memory`: what a list of 1M rows holds in memory against its
// canonical JSON: the process's resident set grown by reading the list (parse, validate, index)
// from its JSON text, once the JSON tree is freed and malloc has returned what it could, per row.

import Foundation
import ListModel

func runMemoryBenchmarks() {
    let rows = 1_000_000
    for (name, make) in [
        ("4 text/number cells (list-bench writes)", { writeBenchDocument(sections: 10, rows: rows) }),
        ("text, number, link, text (scripts/bench)", { memoryBenchMixedDocument(sections: 10, rows: rows) }),
    ] {
        var bytes = make().json.serialized()
        let jsonBytes = bytes.count
        trimMalloc()
        let before = residentBytes()
        var list: IndexedList? = IndexedList(document: try! ListDocument(json: try! JSONValue(parsing: bytes)))
        trimMalloc()
        let after = residentBytes()  // the JSON text is still held, as it was before
        bytes = []
        let perRow = Double(after - before) / Double(rows)
        let jsonPerRow = Double(jsonBytes) / Double(rows)
        print(
            "  \(name): \(rows) rows, canonical JSON \(String(format: "%.1f", jsonPerRow)) B/row;"
                + " resident +\(String(format: "%.0f", perRow)) B/row = \(String(format: "%.2f", perRow / jsonPerRow))x")
        blackHole(list!.rowCount)
        list = nil
        trimMalloc()
    }
}

/// The process's resident set size, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Gives freed heap memory back to the system, so that the resident set counts live data.
func trimMalloc() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}
