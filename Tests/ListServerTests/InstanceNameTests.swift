import HTMLRenderer
import ListModel
import ListModelTesting
import ListServerTesting
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService
@testable import list_server

/// `--instance NAME`: subscription ids start with `NAME.`, so that a load balancer in front of
/// several instances can send `…/more` to the one holding the stream (scripts/cluster does).
@Suite("Instance names in subscription ids")
struct InstanceNameTests {
    @Test func subscriptionIdsStartWithTheInstanceNameAndStillGrowTheirWindow() throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(subscriptionPrefix: "i2"))
        var edits = RandomListEdits(seed: 12)
        try harness.put("l", edits.document(sections: 2, rowsPerSection: 4...6))
        let client = harness.subscribe("l", view: .html, window: .limit(2))
        try harness.pump(client)
        let id = try #require(client.subscription)
        #expect(id.hasPrefix("i2."))
        #expect(id.count == 3 + 32)
        let (rows, _) = try harness.hub.extend(subscription: id, listID: "l", by: 3)
        try harness.pump(client)
        #expect(rows == 5)
    }

    @Test func theNameIsCheckedOnTheCommandLine() throws {
        for good in ["i1", "web-2", "A_b", String(repeating: "x", count: 32)] {
            #expect(throws: Never.self) { _ = try ListServerCommand.parse(["--instance", good]) }
        }
        for bad in ["", "a.b", "é", "a/b", String(repeating: "x", count: 33)] {
            #expect(throws: (any Error).self, "\(bad)") { _ = try ListServerCommand.parse(["--instance", bad]) }
        }
    }
}
