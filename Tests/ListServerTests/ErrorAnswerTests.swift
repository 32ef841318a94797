import HTTPServer
import ListModel
import ListServerTesting
import ListStore
import Testing

@testable import ListServerHTTP
@testable import ListService

/// Each error type carries its own answer (`HTTPResponseError`); these pin the ones whose status,
/// title or headers are not simply the status's defaults, and that a store's own message stays
/// out of the body.
@Suite("Error answers")
struct ErrorAnswerTests {
    private func body(_ error: some HTTPResponseError) -> String {
        String(decoding: error.response.bodyBytes ?? [], as: UTF8.self)
    }

    @Test func aContendedListAsksToRetryInOneSecond() {
        let error = RegistryError.contended(id: "groceries")
        #expect(error.status == .serviceUnavailable)
        #expect(error.response.headers["Retry-After"] == "1")
        #expect(body(error).contains(#""detail":"Other writers kept changing list \"groceries\" first; try again.""#))
    }

    @Test func tooManyListsIsInsufficientStorage() {
        let error = RegistryError.tooManyLists(limit: 3)
        #expect(error.status.code == 507)
        #expect(
            body(error) == #"{"type":"about:blank","title":"Insufficient Storage","status":507,"#
                + #""detail":"The server holds its limit of 3 lists; delete one first."}"# + "\n")
    }

    @Test func storeErrorsKeepTheStoresMessageForTheLog() {
        let unavailable = StoreError(.unavailable, "could not connect to db.internal:5432")
        #expect(unavailable.status == .serviceUnavailable)
        #expect(unavailable.response.headers["Retry-After"] == "2")
        #expect(!body(unavailable).contains("db.internal"))
        #expect(unavailable.logMessage?.contains("db.internal") == true)
        let full = StoreError(.full, "/var/lib/lists.db: disk full")
        #expect(full.status.code == 507 && !body(full).contains("/var/lib"))
        let failed = StoreError(.failed, "constraint failed in /var/lib/lists.db")
        #expect(failed.status == .internalServerError && !body(failed).contains("/var/lib"))
    }

    @Test func modelErrorsMapAsAPIMdSays() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue(parsing: Array("{".utf8)) }
        #expect(error.status == .badRequest && body(error).contains("The body is not valid JSON"))
        #expect(SubscriptionError.unknown(id: "s1", listID: "a").status == .notFound)
        #expect(SubscriptionError.noWindow.status == .conflict)
    }
}
