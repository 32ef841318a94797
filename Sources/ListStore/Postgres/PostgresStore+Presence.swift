extension PostgresStore: PresenceStore {
    public func exchangePresence(
        instance: String, counts: [String: Int]?, lists: [String], expiry: Duration
    ) throws -> [String: Int] {
        try pool.withConnection { db in
            try db.transaction {
                try db.run(PresenceStatements.heartbeat, [.text(instance)])
                if let counts {
                    let ids = Array(counts.keys)
                    try db.run(PresenceStatements.dropOtherCounts, [.text(instance), .textArray(ids)])
                    if !ids.isEmpty {
                        try db.run(
                            PresenceStatements.upsertCounts,
                            [.text(instance), .textArray(ids), .textArray(ids.map { String(counts[$0] ?? 0) })])
                    }
                }
                try db.run(PresenceStatements.forgetSilent)
                let result = try db.run(
                    PresenceStatements.othersViewers,
                    [.text(instance), .textArray(lists), .int(Int(expiry.seconds * 1000))])
                var sums: [String: Int] = [:]
                for index in 0..<result.rowCount { sums[result.text(index, 0)] = result.int(index, 1) }
                return sums
            }
        }
    }

    public func leavePresence(instance: String) throws {
        try pool.withConnection { try $0.run(PresenceStatements.leave, [.text(instance)]) }
    }
}

/// The statements of presence (`PresenceStore`), on the tables of schema version 3.
enum PresenceStatements {
    /// Parameter: the instance.
    static let heartbeat = PGStatement(
        name: "presence_heartbeat",
        sql: """
            INSERT INTO presence_instances (instance, seen) VALUES ($1, now())
            ON CONFLICT (instance) DO UPDATE SET seen = excluded.seen
            """)

    /// The instance's counts of lists no longer in `$2` go.
    static let dropOtherCounts = PGStatement(
        name: "presence_drop_other_counts",
        sql: "DELETE FROM presence WHERE instance = $1 AND NOT (list_id = ANY($2::text[]))")

    /// Parameters: the instance, the list ids, their counts (as text, one array per column).
    static let upsertCounts = PGStatement(
        name: "presence_upsert_counts",
        sql: """
            INSERT INTO presence (instance, list_id, viewers)
            SELECT $1, c.list_id, c.viewers::bigint FROM unnest($2::text[], $3::text[]) AS c (list_id, viewers)
            ON CONFLICT (instance, list_id) DO UPDATE SET viewers = excluded.viewers
            """)

    /// Instances not heard of for an hour (killed, never to come back under that name) go,
    /// with their counts, so the tables stay as small as the live instances' lists.
    static let forgetSilent = PGStatement(
        name: "presence_forget_silent",
        sql: "DELETE FROM presence_instances WHERE seen < now() - interval '1 hour'")

    /// The viewers of lists `$2` on instances other than `$1` heard of within `$3` milliseconds.
    static let othersViewers = PGStatement(
        name: "presence_others_viewers",
        sql: """
            SELECT p.list_id, sum(p.viewers)::bigint FROM presence p
            JOIN presence_instances i ON i.instance = p.instance
            WHERE p.instance <> $1 AND p.list_id = ANY($2::text[]) AND i.seen > now() - $3::bigint * interval '1 millisecond'
            GROUP BY p.list_id
            """)

    static let leave = PGStatement(name: "presence_leave", sql: "DELETE FROM presence_instances WHERE instance = $1")
}
