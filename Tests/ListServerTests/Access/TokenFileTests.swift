import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("--tokens file")
struct TokenFileTests {
    @Test func readsTokensScopesAndComments() throws {
        let entries = try TokenFile.parse(
            """
            # the team's tokens

            feed-Zq3  write:orders   # the order feed
            \tdash+/9=  read:team-*, read:status
            ops.~_   admin,read:*
            """)
        #expect(entries.map(\.token) == ["feed-Zq3", "dash+/9=", "ops.~_"])
        #expect(entries.map(\.line) == [3, 4, 5])
        #expect(entries[0].rights.scopes == [.write(ListPattern("orders")!)])
        #expect(entries[1].rights.scopes == [.read(ListPattern("team-*")!), .read(ListPattern("status")!)])
        #expect(entries[2].rights.scopes == [.admin, .read(ListPattern("*")!)])
    }

    @Test func blanksMayFollowACommaAndEndALine() throws {
        let entries = try TokenFile.parse("t1 write:a,\t admin  \r\nt2\tread:b, read:c\t# note\n")
        #expect(entries.map(\.token) == ["t1", "t2"])
        #expect(entries[0].rights.mayWrite("a") && entries[0].rights.isAdmin)
        #expect(entries[1].rights.mayRead("c") && !entries[1].rights.mayWrite("b"))
    }

    @Test func anEmptyFileHoldsNoToken() throws {
        #expect(try TokenFile.parse("").isEmpty)
        #expect(try TokenFile.parse("# nobody yet\n\n").isEmpty)
    }

    @Test(arguments: [
        ("good read:a\nbad", 2, "no scopes"),
        ("good read:a\n\nbad  read:a,", 3, "scope 2"),
        ("bad  read", 1, "scope 1"),
        ("bad  delete:a", 1, "scope 1"),
        ("bad  read:-a", 1, "scope 1"),
        ("bad  read:a*b", 1, "scope 1"),
        ("bad  read:" + String(repeating: "a", count: 65), 1, "scope 1"),
        ("bad  admin:x", 1, "scope 1"),
        ("read:a  sEcReT-token", 1, "first field"),
        ("to=ken  read:a", 1, "first field"),
        ("tökén  read:a", 1, "first field"),
        ("same read:a\nother read:b\nsame write:c", 3, "line 1"),
        // A blank inside the scopes (not after a comma) was joined away: "write:x admin" granted write:xadmin.
        ("good read:a\nbad write:x admin", 2, "scope 1 holds a space or tab"),
        ("bad read:team a", 1, "scope 1 holds a space or tab"),
        ("bad read:a\tadmin", 1, "scope 1 holds a space or tab"),
        ("bad read:a, read:b admin", 1, "scope 2 holds a space or tab"),
    ])
    func refusesBadLinesByNumberWithoutRepeatingThem(text: String, line: Int, says: String) {
        #expect {
            try TokenFile.parse(text)
        } throws: { error in
            guard let error = error as? TokenFileError else { return false }
            let message = error.description
            return error.line == line && message.contains(says) && !message.contains("sEcReT") && !message.contains("bad ")
        }
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: TokenFileError.self) { try TokenFile.load(path: "/nonexistent/tokens") }
    }
}

@Suite("Scopes and rights")
struct ScopeTests {
    @Test func patternsMatchIdsOrPrefixes() {
        #expect(ListPattern("team-a")!.matches("team-a"))
        #expect(!ListPattern("team-a")!.matches("team-ab"))
        #expect(ListPattern("team-*")!.matches("team-"))
        #expect(ListPattern("team-*")!.matches("team-alpha"))
        #expect(!ListPattern("team-*")!.matches("team"))
        #expect(!ListPattern("team-*")!.matches("other"))
        #expect(ListPattern("*")!.matches("anything"))
        #expect(ListPattern("a*b") == nil)
        #expect(ListPattern("") == nil)
        #expect(ListPattern("**") == nil)
        #expect(ListPattern("a/b") == nil)
    }

    @Test func writeImpliesReadAndAdminGrantsNoList() {
        let rights = Rights(scopes: [.write(ListPattern("w-*")!), .read(ListPattern("r")!)])
        #expect(rights.mayWrite("w-1") && rights.mayRead("w-1"))
        #expect(rights.mayRead("r") && !rights.mayWrite("r"))
        #expect(!rights.mayRead("x") && !rights.isAdmin)
        let admin = Rights(scopes: [.admin])
        #expect(admin.isAdmin && !admin.mayRead("r") && !admin.mayWrite("r"))
        #expect(Rights.all.isAdmin && Rights.all.mayWrite("any") && Rights.all.mayRead("any"))
    }
}
