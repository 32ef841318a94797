/// What the hub knows about presence (docs/LIVE.md, "Presence"): the viewers other instances
/// report, and what each list's subscribers were last told. A viewer is an open `/events`
/// stream of the list, of any kind. Pure bookkeeping, so the hub's locking stays elsewhere.
package struct PresenceBook: Sendable {
    /// Other instances' viewers per list (only lists this instance has subscribers of).
    package private(set) var remote: [String: Int] = [:]
    /// The total every subscriber of a list has been told.
    package private(set) var announced: [String: Int] = [:]
    /// Lists some of whose subscribers are still owed the total (told too recently, or their
    /// stream was full).
    package private(set) var owed: Set<String> = []

    package init() {}

    /// The count a list's subscribers should see: this instance's and the others'.
    package func total(of listID: String, local: Int) -> Int { local + (remote[listID] ?? 0) }

    /// Replaces the other instances' counts.
    package mutating func setRemote(_ counts: [String: Int]) { remote = counts.filter { $0.value > 0 } }

    /// The lists whose subscribers must be told a new total, with it, given this instance's
    /// viewers per list (lists without any are forgotten).
    package mutating func due(local: [String: Int]) -> [(listID: String, total: Int)] {
        announced = announced.filter { local[$0.key] != nil }
        owed = owed.filter { local[$0] != nil }
        var due: [(listID: String, total: Int)] = []
        for (listID, count) in local where count > 0 {
            let total = total(of: listID, local: count)
            if announced[listID] != total || owed.contains(listID) { due.append((listID, total)) }
        }
        return due
    }

    /// A stream of `listID` was told the count on its own (its first events, a reset): the next
    /// pass checks the list's streams even if the total is what was announced, since the count
    /// may have moved back before it (a stream joined as another left: told one too many).
    package mutating func toldOne(_ listID: String) { owed.insert(listID) }

    /// Records what a list's subscribers were told: all of them (`complete`), or only some.
    package mutating func told(_ listID: String, total: Int, complete: Bool) {
        announced[listID] = total
        if complete { owed.remove(listID) } else { owed.insert(listID) }
    }
}
