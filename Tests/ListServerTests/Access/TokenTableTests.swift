import Crypto
import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Token table")
struct TokenTableTests {
    private static let key = SymmetricKey(size: .bits256)

    private static func entry(_ token: String, _ rights: Rights) -> TokenFile.Entry {
        TokenFile.Entry(token: token, rights: rights, line: 1)
    }

    @Test func findsEachTokensRightsAndNothingElse() {
        let entries = try! TokenFile.parse("reader read:a\nwriter write:a\n")
        let table = TokenTable(master: "master", file: entries, key: SymmetricKey(size: .bits256))
        #expect(table.count == 3)
        #expect(table.rights(of: "reader".utf8)?.mayRead("a") == true)
        #expect(table.rights(of: "reader".utf8)?.mayWrite("a") == false)
        #expect(table.rights(of: "writer".utf8)?.mayWrite("a") == true)
        #expect(table.rights(of: "master".utf8) == .all)
        for guess in ["", "reade", "readers", "Reader", "master ", "writer\u{0}"] {
            #expect(table.rights(of: guess.utf8) == nil, "\(guess)")
        }
    }

    @Test func eachOfManyTokensHasItsOwnRights() {
        let file = (0..<1_000).map { Self.entry("token-\($0)", Rights(scopes: [.read(ListPattern("list-\($0)")!)])) }
        let table = TokenTable(master: nil, file: file, key: Self.key)
        #expect(table.count == 1_000)
        for n in [0, 1, 499, 999] {
            let rights = table.rights(of: "token-\(n)".utf8)
            #expect(rights?.mayRead("list-\(n)") == true)
            #expect(rights?.mayRead("list-\(n + 1)") == false)
        }
    }

    @Test func tokensThatAreNotInTheTableHaveNoRights() {
        let table = TokenTable(master: "master-secret", file: [Self.entry("feed-Zq3", .all)], key: Self.key)
        for token in ["", "feed-Zq", "feed-Zq4", "feed-Zq3 ", "FEED-ZQ3", "master-secreT", "master-secret-"] {
            #expect(table.rights(of: token.utf8) == nil, "\(token)")
        }
    }

    @Test func theMasterTokenHasEveryRightEvenWhenTheFileListsIt() {
        let table = TokenTable(
            master: "shared", file: [Self.entry("shared", Rights(scopes: [.read(ListPattern("a")!)]))],
            key: Self.key)
        #expect(table.count == 1)
        #expect(table.rights(of: "shared".utf8) == .all)
    }

    @Test func tablesMadeWithOtherKeysStillFindTheSameTokens() {
        let file = [Self.entry("feed", Rights(scopes: [.write(ListPattern("orders")!)]))]
        let first = TokenTable(master: nil, file: file, key: SymmetricKey(size: .bits256))
        let second = TokenTable(master: nil, file: file, key: SymmetricKey(size: .bits256))
        #expect(first.rights(of: "feed".utf8) == second.rights(of: "feed".utf8))
        #expect(first.rights(of: "feed".utf8)?.mayWrite("orders") == true)
    }
}
