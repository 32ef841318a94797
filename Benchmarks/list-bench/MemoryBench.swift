// `swift run -c release list-bench memory`: what a list of 1M rows holds in memory against its
// canonical JSON: the process's resident set grown by reading the list (parse, validate, index)
// from its JSON text, once the JSON tree is freed and malloc has returned what it could, per row;
// then the same for a list of small rows (`scripts/bench/server_memory.py --shape small`) read
// whole and grown by 100 inserts of 10,000 rows at the ends of its 10 sections, as a feed grows
// (each write's rows stamped with its version, as the server does), with the growth of the
// document alone and of the order keys and the row map on top.

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
    runAppendMemoryBenchmark(rows: rows)
}

/// The small-row list read whole from its JSON, then built by appends: resident bytes per row.
func runAppendMemoryBenchmark(rows: Int) {
    let columns = memoryBenchSmallColumns()
    var whole = ListDocument(title: "Memory", columns: columns)
    for section in 0..<10 {
        whole.sections.append(
            Section(
                key: "s\(section)", header: "Section \(section)",
                rows: (section * rows / 10..<(section + 1) * rows / 10).map(memoryBenchSmallRow)))
    }
    var bytes = whole.json.serialized()
    let jsonPerRow = Double(bytes.count) / Double(rows)
    whole = ListDocument(title: "")
    func report(_ name: String, _ before: Int) {
        trimMalloc()
        let perRow = Double(residentBytes() - before) / Double(rows)
        print(
            "  small rows, \(name): canonical JSON \(String(format: "%.1f", jsonPerRow)) B/row;"
                + " resident +\(String(format: "%.0f", perRow)) B/row = \(String(format: "%.2f", perRow / jsonPerRow))x")
    }
    trimMalloc()
    var before = residentBytes()
    var document: ListDocument? = try! ListDocument(json: try! JSONValue(parsing: bytes))
    report("read whole, the document alone", before)  // the JSON text is still held, as it was before
    var list: IndexedList? = IndexedList(document: document!)
    document = nil
    report("read whole, indexed", before)
    list = nil
    bytes = []
    trimMalloc()

    before = residentBytes()
    var empty = ListDocument(title: "Memory", columns: columns)
    empty.sections = (0..<10).map { Section(key: "s\($0)", header: "Section \($0)") }
    list = IndexedList(document: empty)
    let perWrite = rows / 100
    for write in 0..<100 {
        let section = write % 10
        let first = section * rows / 10 + (write / 10) * perWrite
        let edit = try! list!.insertingRows((first..<first + perWrite).map(memoryBenchSmallRow), inSection: "s\(section)")
        list = edit.list.stampingVersions(edit.writtenRowKeys, version: write + 2)
    }
    report("by 100 appends of \(perWrite) rows, indexed", before)
    blackHole(list!.rowCount)
    list = nil
    trimMalloc()
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
