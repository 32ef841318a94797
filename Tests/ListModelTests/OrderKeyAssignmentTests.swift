import ListModelTesting
import Testing

@testable import ListModel

/// Row key → order key.
func keyMap(_ list: IndexedList) -> [String: OrderKey] {
    Dictionary(uniqueKeysWithValues: list.orderKeysByRow.dictionary.map { ($0.key.string, $0.value) })
}

/// Row key → position, through `position(ofRow:)`.
func positions(_ list: IndexedList) -> [String: Int] {
    var map: [String: Int] = [:]
    for key in list.orderKeysByRow.dictionary.keys { map[key.string] = list.position(ofRow: key.string) }
    return map
}

func isStrictlyIncreasing(_ keys: some Collection<OrderKey>) -> Bool { zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 } }

@Suite struct OrderKeyAssignmentTests {
    @Test func aFreshListHasSpacedKeysAndAMapOfPositions() {
        let list = IndexedList(document: makeDocument([("a", ["1", "2"]), ("e", []), ("b", ["3"])]))
        #expect(Array(list.orderKeys) == OrderKey.spaced(count: 3))
        #expect(positions(list) == ["1": 0, "2": 1, "3": 2])
        #expect(list.location(ofPosition: 2) == (2, 0))
        #expect(list.location(ofPosition: 1) == (0, 1))
        #expect(list.sectionKey(atPosition: 2) == "b")
        #expect(list.row(atPosition: 1).key == "2")
        #expect(list.orderKey(ofRow: "3") == list.orderKeys[2])
        #expect(list.position(ofRow: "nope") == nil)
    }

    @Test func insertsAndDeletesNeverRenumberOtherRows() {
        let old = IndexedList(document: makeDocument([("a", ["1", "2", "3"]), ("b", ["4", "5"])]))
        let new = old.updated(to: makeDocument([("a", ["0", "1", "3", "x"]), ("b", ["4", "y", "z", "5"]), ("c", ["w"])]))
        let before = keyMap(old), after = keyMap(new)
        for key in ["1", "3", "4", "5"] { #expect(after[key] == before[key], "\(key)") }
        #expect(isStrictlyIncreasing(new.orderKeys))
        #expect(new.orderKeys.count == 9)
        #expect(new.orderKeys.allSatisfy { $0.isWellFormed })
    }

    @Test func aMovedRowIsTheOnlyOneReKeyed() {
        let rows = (0..<10).map { "r\($0)" }
        let old = IndexedList(document: makeDocument([("a", rows)]))
        var moved = rows
        moved.append(moved.removeFirst())
        let new = old.updated(to: makeDocument([("a", moved)]))
        let before = keyMap(old), after = keyMap(new)
        #expect(rows.filter { after[$0] != before[$0] } == ["r0"])
        #expect(after["r0"]! > before["r9"]!)
        #expect(isStrictlyIncreasing(new.orderKeys))
    }

    @Test func movesAcrossSectionsAndSectionReorders() {
        let old = IndexedList(
            document: makeDocument([
                ("s1", ["a", "b", "c", "d", "e"]), ("s2", ["f", "g", "h", "i", "j"]), ("s3", ["k", "l"]),
            ]))
        // s3 moves to the front: its two rows are the ones that moved.
        let reordered = old.updated(
            to: makeDocument([
                ("s3", ["k", "l"]), ("s1", ["a", "b", "c", "d", "e"]), ("s2", ["f", "g", "h", "i", "j"]),
            ]))
        let before = keyMap(old), after = keyMap(reordered)
        #expect(Set(before.keys.filter { after[$0] != before[$0] }) == ["k", "l"])
        #expect(isStrictlyIncreasing(reordered.orderKeys))
        // A row moving from s1 to the end of s2 keeps everyone else's keys.
        let crossed = old.updated(
            to: makeDocument([
                ("s1", ["a", "b", "d", "e"]), ("s2", ["f", "g", "h", "i", "j", "c"]), ("s3", ["k", "l"]),
            ]))
        let afterCross = keyMap(crossed)
        #expect(before.keys.filter { afterCross[$0] != before[$0] } == ["c"])
        #expect(afterCross["j"]! < afterCross["c"]! && afterCross["c"]! < afterCross["k"]!)
    }

    @Test func contentEditsKeepEveryKey() {
        let old = IndexedList(document: makeDocument([("a", ["1", "2"]), ("b", ["3"])]))
        var doc = old.document
        doc.sections[0].rows[1].cells["text"] = .text("changed")
        doc.title = "New title"
        #expect(old.updated(to: doc).orderKeys == old.orderKeys)
    }

    @Test func appendedRowsGetKeysAfterTheLastAndPositionsFollow() {
        let old = IndexedList(document: makeDocument([("a", ["1", "2"]), ("b", ["3"])]))
        let new = old.updated(to: makeDocument([("a", ["1", "2", "x"]), ("e", []), ("b", ["3", "y"]), ("c", ["z"])]))
        // x lands before 3: a real insert, so only x, y, z get new keys.
        #expect(Array(new.orderKeys[0...1]) == Array(old.orderKeys[0...1]) && new.orderKeys[3] == old.orderKeys[2])
        #expect(isStrictlyIncreasing(new.orderKeys))
        let appended = old.updated(to: makeDocument([("a", ["1", "2"]), ("b", ["3", "y"]), ("c", ["z"]), ("d", [])]))
        #expect(Array(appended.orderKeys.prefix(3)) == Array(old.orderKeys))
        #expect(isStrictlyIncreasing(appended.orderKeys))
        #expect(positions(appended) == ["1": 0, "2": 1, "3": 2, "y": 3, "z": 4])
        #expect(appended.location(ofPosition: 4) == (2, 0))
        #expect(appended.sectionKey(atPosition: 3) == "b")
    }

    @Test func rowsThatCrossedNoOtherRowKeepTheirKeysUnderRandomEdits() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<200 {
            var list = IndexedList(document: randomDocument(sections: 4, rowsPerSection: 8, using: &rng))
            for _ in 0..<5 {
                let newDoc = randomlyEdited(list.document, edits: Int.random(in: 1...6, using: &rng), using: &rng)
                let next = list.updated(to: newDoc)
                #expect(next.orderKeys.count == newDoc.rowCount)
                #expect(isStrictlyIncreasing(next.orderKeys))
                #expect(next.orderKeys.allSatisfy { $0.isWellFormed })
                #expect(next.orderKeysByRow.count == newDoc.rowCount)
                #expect(flattenedKeys(newDoc).enumerated().allSatisfy { next.position(ofRow: $1) == $0 })
                #expect(flattenedKeys(newDoc).enumerated().allSatisfy { next.orderKey(ofRow: $1) == next.orderKeys[$0] })
                let before = keyMap(list), after = keyMap(next)
                for key in rowsThatCrossedNone(from: list.document, to: newDoc) {
                    #expect(after[key] == before[key])
                }
                // Never more re-keyed rows than the minimal number of moves.
                let kept = flattenedKeys(newDoc).filter { before[$0] != nil }
                let stay = longestIncreasingSubsequence(kept.map { list.position(ofRow: $0)! }).count
                #expect(kept.filter { after[$0] != before[$0] }.count == kept.count - stay)
                list = next
            }
        }
    }

    @Test func keysThatGrowTooLongAreRespacedOnce() {
        // Insert right after "top", again and again: the new key halves the same gap each time.
        var list = IndexedList(document: makeDocument([("a", ["top", "bottom"])]))
        var rows = ["top", "bottom"]
        var respaced = 0
        for index in 0..<200 {
            rows.insert("n\(index)", at: 1)
            let next = list.updated(to: makeDocument([("a", rows)]), maxKeyLength: 12)
            #expect(isStrictlyIncreasing(next.orderKeys))
            #expect(next.orderKeys.allSatisfy { $0.rawValue.utf8.count <= 12 })
            if next.orderKey(ofRow: "top") != list.orderKey(ofRow: "top") { respaced += 1 }
            list = next
        }
        #expect(respaced >= 1)
    }

    @Test func storedKeysAreCheckedAgainstTheirDocument() throws {
        let doc = makeDocument([("a", ["1", "2"])])
        let keys = OrderKey.spaced(count: 2)
        #expect(try Array(IndexedList(document: doc, orderKeys: keys).orderKeys) == keys)
        #expect(throws: IndexedListError.self) { try IndexedList(document: doc, orderKeys: [keys[0]]) }
        #expect(throws: IndexedListError.self) { try IndexedList(document: doc, orderKeys: keys.reversed()) }
        #expect(throws: IndexedListError.self) {
            try IndexedList(document: doc, orderKeys: [keys[0], OrderKey(rawValue: "b?")])
        }
        let tooLong = OrderKey(rawValue: "zzzzzzzzzzzzzzzzzzzzzzzzzzz" + String(repeating: "V", count: 1_000))
        #expect(throws: IndexedListError.self) { try IndexedList(document: doc, orderKeys: [keys[0], tooLong]) }
    }
}

// MARK: - Edit generators shared with the paging walk

func flattenedKeys(_ doc: ListDocument) -> [String] { doc.sections.flatMap { $0.rows.map(\.key) } }

/// Rows present in both documents whose order relative to every other such row is unchanged.
func rowsThatCrossedNone(from old: ListDocument, to new: ListDocument) -> Set<String> {
    let newKeys = flattenedKeys(new)
    let newSet = Set(newKeys)
    let common = flattenedKeys(old).filter { newSet.contains($0) }
    var newRank: [String: Int] = [:]
    for (index, key) in newKeys.filter({ Set(common).contains($0) }).enumerated() { newRank[key] = index }
    var stable = Set<String>()
    for (i, key) in common.enumerated() {
        let crossed = common.indices.contains { j in j != i && ((j < i) != (newRank[common[j]]! < newRank[key]!)) }
        if !crossed { stable.insert(key) }
    }
    return stable
}

/// `doc` after `edits` random inserts, deletes, row moves (within and across sections),
/// and unless `sectionEdits` is false, section moves and new empty sections; `moves: false`
/// leaves only row inserts and deletes.
func randomlyEdited(
    _ doc: ListDocument, edits: Int, sectionEdits: Bool = true, moves: Bool = true,
    using rng: inout SplitMix64
) -> ListDocument {
    var doc = doc
    for _ in 0..<edits {
        let rowSections = doc.sections.indices.filter { !doc.sections[$0].rows.isEmpty }
        switch Int.random(in: 0..<(!moves ? 5 : sectionEdits ? 10 : 8), using: &rng) {
        case 0...2 where !doc.sections.isEmpty:
            let s = Int.random(in: doc.sections.indices, using: &rng)
            let r = Int.random(in: 0...doc.sections[s].rows.count, using: &rng)
            doc.sections[s].rows.insert(Row(key: "n\(rng.next() % 1_000_000_000)"), at: r)
        case 3...4 where !rowSections.isEmpty:
            let s = rowSections.randomElement(using: &rng)!
            doc.sections[s].rows.remove(at: Int.random(in: doc.sections[s].rows.indices, using: &rng))
        case 5...7 where !rowSections.isEmpty:
            let s = rowSections.randomElement(using: &rng)!
            let row = doc.sections[s].rows.remove(at: Int.random(in: doc.sections[s].rows.indices, using: &rng))
            let t = Int.random(in: doc.sections.indices, using: &rng)
            doc.sections[t].rows.insert(row, at: Int.random(in: 0...doc.sections[t].rows.count, using: &rng))
        case 8 where doc.sections.count > 1:
            let section = doc.sections.remove(at: Int.random(in: doc.sections.indices, using: &rng))
            doc.sections.insert(section, at: Int.random(in: 0...doc.sections.count, using: &rng))
        default:
            let key = "e\(rng.next() % 1_000_000_000)"
            doc.sections.insert(Section(key: key), at: Int.random(in: 0...doc.sections.count, using: &rng))
        }
    }
    return doc
}
