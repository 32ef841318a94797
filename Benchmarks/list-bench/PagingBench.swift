import Foundation
import ListModel
import ListModelTesting

/// Pages, order keys and validation on a 1,000,000-row list (1,000 sections × 1,000 rows).
func runPagingBenchmarks() {
    let sectionCount = 1_000
    let rowsPerSection = 1_000
    var doc = ListDocument(title: "Big", columns: [Column(key: "name"), Column(key: "n", kind: .number)])
    for s in 0..<sectionCount {
        var section = Section(key: "s\(s)", header: "Section \(s)")
        section.rows.reserveCapacity(rowsPerSection)
        for r in 0..<rowsPerSection {
            let index = s * rowsPerSection + r
            section.rows.append(Row(key: "r\(index)", cells: ["name": .text("Row \(index)"), "n": .number(Double(index))]))
        }
        doc.sections.append(section)
    }
    let rowCount = doc.rowCount

    var list = IndexedList(document: doc)
    print("  IndexedList(document:), \(rowCount) rows:", timed(iterations: 3) { list = IndexedList(document: doc) }.text)

    let nearEnd = list.cursor(atPosition: rowCount - 1_000)
    let first = timed(iterations: 1_001) { blackHole(list.page(after: nil, limit: 50)) }
    let deep = timed(iterations: 1_001) { blackHole(list.page(after: nearEnd, limit: 50)) }
    let text = nearEnd.encoded
    let decoded = timed(iterations: 1_001) { blackHole(list.page(after: try! Cursor(decoding: text), limit: 50)) }
    print(
        "  page limit 50: first", first.text, "| after a cursor near the end", deep.text,
        "| same, cursor decoded from text", decoded.text)
    let windowEnd = list.cursor(atPosition: 999)
    print("  window(through:) of 1,000 rows:", timed(iterations: 101) { blackHole(list.window(through: windowEnd)) }.text)

    // A 1% edit: 5,000 inserts, 2,500 deletes, 2,500 moves at random places.
    var rng = SplitMix64(seed: 1)  // the same edits on every run
    var edited = doc
    for i in 0..<10_000 {
        let s = Int(rng.next() % UInt64(sectionCount))
        let count = edited.sections[s].rows.count
        switch i % 4 {
        case 0, 1:
            let at = Int(rng.next() % UInt64(count + 1))
            edited.sections[s].rows.insert(Row(key: "new\(i)", cells: ["name": .text("New")]), at: at)
        case 2:
            if count > 0 { edited.sections[s].rows.remove(at: Int(rng.next() % UInt64(count))) }
        default:
            guard count > 0 else { continue }
            let row = edited.sections[s].rows.remove(at: Int(rng.next() % UInt64(count)))
            let t = Int(rng.next() % UInt64(sectionCount))
            let at = Int(rng.next() % UInt64(edited.sections[t].rows.count + 1))
            edited.sections[t].rows.insert(row, at: at)
        }
    }
    var updated = list
    let update = timed(iterations: 5) { updated = list.updated(to: edited) }
    let reKeyed = updated.orderKeys.indices.filter { list.orderKey(ofRow: updated.row(atPosition: $0).key) != updated.orderKeys[$0] }.count
    let longest = updated.orderKeys.map { $0.rawValue.utf8.count }.max() ?? 0
    print(
        "  updated(to:) after a 1% edit (10,000 edits):", update.text,
        "| \(reKeyed) rows got new keys, longest key \(longest) bytes")

    var oneChanged = doc
    oneChanged.sections[500].rows[500].cells["name"] = .text("Changed")
    let replace = timed(iterations: 5) { blackHole(list.updated(to: oneChanged)) }
    var appended = doc
    for i in 0..<100 { appended.sections[sectionCount - 1].rows.append(Row(key: "tail\(i)")) }
    let append = timed(iterations: 5) { blackHole(list.updated(to: appended)) }
    print("  updated(to:) after one row's content changed:", replace.text, "| after 100 rows appended:", append.text)
    var inserted = doc
    inserted.sections[10].rows.insert(Row(key: "inserted"), at: 10)
    var movedRow = doc
    movedRow.sections[900].rows.append(movedRow.sections[20].rows.remove(at: 3))
    print(
        "  updated(to:) after one insert near the top:", timed(iterations: 5) { blackHole(list.updated(to: inserted)) }.text,
        "| after one row moved:", timed(iterations: 5) { blackHole(list.updated(to: movedRow)) }.text)

    let json = doc.json
    let bytes = json.serialized().count
    var parsed: ListDocument?
    let validate = timed(iterations: 3) { parsed = try? ListDocument(json: json) }
    precondition(parsed == doc)
    print(
        "  ListDocument(json:), \(rowCount) rows (\(bytes / 1_000_000) MB as JSON):", validate.text,
        "|", mbps(bytes: bytes, seconds: validate.wall), "|",
        String(format: "%.1f M rows/s", Double(rowCount) / validate.wall / 1e6))
    print("  ListDocument.json, \(rowCount) rows:", timed(iterations: 3) { blackHole(doc.json) }.text)
}

/// Wall and CPU medians side by side, e.g. `1.20 ms (CPU 0.95 ms)`.
private func timed(iterations: Int, _ body: () -> Void) -> (wall: Double, text: String) {
    let wall = medianSeconds(iterations: iterations, body)
    let cpu = medianThreadCPUSeconds(iterations: iterations, body)
    return (wall, "\(short(wall)) (CPU \(short(cpu)))")
}

/// Microseconds below a millisecond, else milliseconds.
private func short(_ seconds: Double) -> String {
    seconds < 1e-3 ? String(format: "%.1f µs", seconds * 1e6) : String(format: "%.1f ms", seconds * 1e3)
}
