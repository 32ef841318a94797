/// A store shared by several instances that also shares how many streams each instance has
/// open per list, so that every instance can show the sum (docs/SCALE-OUT.md, "Presence").
/// PostgreSQL is one; SQLite, with a single instance, is not.
public protocol PresenceStore: Sendable {
    /// Marks `instance` alive now (by the database's clock); when `counts` is not nil, replaces
    /// its viewer counts with them (lists with no viewer left out). Answers, for each of
    /// `lists`, the viewers of the other instances heard of within `expiry` (lists without any
    /// are left out). Every call is one short transaction.
    func exchangePresence(instance: String, counts: [String: Int]?, lists: [String], expiry: Duration) throws -> [String: Int]

    /// Removes `instance` and its counts (a clean shutdown), so the others' sums drop at once.
    func leavePresence(instance: String) throws
}
