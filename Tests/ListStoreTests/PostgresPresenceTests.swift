import Foundation
import Testing

@testable import ListStore

/// Presence shared through PostgreSQL (`PresenceStore`): each instance's counts, summed by the others.
@Suite struct PostgresPresenceTests {
    func stores(_ count: Int) throws -> [PostgresStore] {
        let database = try TestDatabase(.postgres)
        return try (0..<count).map { _ in try #require(try database.open() as? PostgresStore) }
    }

    @Test func eachInstanceSeesTheOthersViewersOfItsLists() throws {
        let stores = try stores(3)
        let long = Duration.seconds(60)
        _ = try stores[0].exchangePresence(instance: "i0", counts: ["a": 2, "b": 1], lists: ["a", "b"], expiry: long)
        _ = try stores[1].exchangePresence(instance: "i1", counts: ["a": 3], lists: ["a"], expiry: long)
        let seen = try stores[2].exchangePresence(instance: "i2", counts: ["a": 1], lists: ["a", "c"], expiry: long)
        #expect(seen == ["a": 5], "i0's and i1's viewers of a; none of c; b is not asked for")
        #expect(try stores[0].exchangePresence(instance: "i0", counts: nil, lists: ["a", "b"], expiry: long) == ["a": 4])
        // New counts replace the old ones: b is no longer watched on i0.
        _ = try stores[0].exchangePresence(instance: "i0", counts: ["a": 1], lists: ["a"], expiry: long)
        #expect(try stores[1].exchangePresence(instance: "i1", counts: nil, lists: ["a", "b"], expiry: long) == ["a": 2])
    }

    @Test func anInstanceNotHeardOfWithinTheExpiryCountsForNothing() throws {
        let stores = try stores(2)
        _ = try stores[0].exchangePresence(instance: "gone", counts: ["a": 4], lists: ["a"], expiry: .seconds(60))
        usleep(300_000)
        #expect(try stores[1].exchangePresence(instance: "alive", counts: nil, lists: ["a"], expiry: .milliseconds(200)) == [:])
        #expect(try stores[1].exchangePresence(instance: "alive", counts: nil, lists: ["a"], expiry: .seconds(60)) == ["a": 4])
        // A heartbeat without new counts keeps the old counts alive.
        _ = try stores[0].exchangePresence(instance: "gone", counts: nil, lists: ["a"], expiry: .seconds(60))
        #expect(try stores[1].exchangePresence(instance: "alive", counts: nil, lists: ["a"], expiry: .milliseconds(200)) == ["a": 4])
    }

    @Test func anInstanceThatLeavesTakesItsViewersAlong() throws {
        let stores = try stores(2)
        _ = try stores[0].exchangePresence(instance: "i0", counts: ["a": 2], lists: ["a"], expiry: .seconds(60))
        try stores[0].leavePresence(instance: "i0")
        #expect(try stores[1].exchangePresence(instance: "i1", counts: nil, lists: ["a"], expiry: .seconds(60)) == [:])
    }
}
