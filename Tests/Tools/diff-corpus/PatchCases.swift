import Foundation
import ListModel
import ListModelTesting

/// Writes `count` random patch cases as JSON lines (see main.swift).
func emitPatchCases(seed: UInt64, count: Int) {
    var out: [UInt8] = []
    out.reserveCapacity(1 << 20)
    for index in 0..<count {
        let caseSeed = seed &+ UInt64(index)
        var random = RandomListEdits(seed: caseSeed)
        let old = random.document(sections: Int.random(in: 1...4, using: &random.random), rowsPerSection: 0...6)
        let list = IndexedList(document: old)
        let patch = random.patch(of: old, maxOperations: caseSeed % 4 == 0 ? 8 : 3)
        var line: [(String, JSONValue)] = [("seed", .number(Double(caseSeed))), ("old", old.json), ("patch", patch.json)]
        do {
            let edit = try list.applying(patch)
            line += [("outcome", "applied"), ("published", edit.patch.json), ("new", edit.list.document.json)]
        } catch is JSONPatchError {
            line.append(("outcome", "failed"))
        } catch {
            line.append(("outcome", "invalid"))
        }
        JSONValue.object(JSONObject(line)).serialize(into: &out)
        out.append(UInt8(ascii: "\n"))
        if out.count > 1 << 20 {
            FileHandle.standardOutput.write(Data(out))
            out.removeAll(keepingCapacity: true)
        }
    }
    FileHandle.standardOutput.write(Data(out))
}
