import HTTPServer
import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Events query")
struct EventRoutesTests {
    func request(_ target: String, lastEventID: String? = nil) throws -> LiveHub.SubscribeRequest {
        var headers = HTTPHeaders()
        if let lastEventID { headers["Last-Event-ID"] = lastEventID }
        return try EventRoutes.subscribeRequest(try Request(method: .get, target: target, headers: headers), listID: "l")
    }

    @Test func lastEventIDWinsOverTheURLsSince() throws {
        #expect(
            try request("/lists/l/events?since=3", lastEventID: "9").since == 9,
            "a browser's own reconnect repeats the page's since but names the event it got last")
        #expect(try request("/lists/l/events?since=3").since == 3)
        #expect(try request("/lists/l/events", lastEventID: "").since == nil)
    }

    @Test func aPaddedLastEventIDIsTrimmed() throws {
        #expect(try request("/lists/l/events", lastEventID: "1 ").since == 1, "RFC 9110 section 5.5")
        #expect(try request("/lists/l/events", lastEventID: "\t7\t").since == 7)
    }

    @Test func badQueriesAre400() {
        #expect(throws: HTTPError.self) { try request("/lists/l/events?view=xml") }
        #expect(throws: HTTPError.self) { try request("/lists/l/events?limit=5&until=x") }
        #expect(throws: HTTPError.self) { try request("/lists/l/events?since=-1") }
        #expect(throws: HTTPError.self) { try request("/lists/l/events?limit=100001") }
    }
}
