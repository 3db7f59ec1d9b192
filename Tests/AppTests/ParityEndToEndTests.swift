import Foundation
import Testing

/// Issue 8's flows through the real `moa` binary and the real composition, where several features
/// meet: Transfer publishing to Inbox, Auth deleting through every feature's `UserDataOwner`, and
/// Account's interactive send offering Transfer's recipients.
@Suite("moa parity flows end to end")
struct ParityEndToEndTests {
    static let password = "a long passphrase nobody guesses"

    /// Ada (checking, 1,000,000 KRW) and Bo (checking, empty); Ada logged in at the end.
    struct TwoUsers {
        let ada: String
        let bo: String
    }

    static func twoUsers(_ moa: MoaProcess) throws -> TwoUsers {
        try moa.loggedIn("bo@example.com", password: password)
        let bo = try moa.openAccount(name: "보 통장")
        #expect(try moa.run(["auth", "logout"]).status == 0)
        try moa.loggedIn("ada@example.com", password: password)
        let ada = try moa.openAccount(name: "생활비")
        #expect(try moa.run(["account", "deposit", ada, "1,000,000"]).status == 0)
        return TwoUsers(ada: ada, bo: bo)
    }

    static func logIn(_ moa: MoaProcess, _ email: String) throws {
        #expect(try moa.run(["auth", "logout"]).status == 0)
        let login = try moa.run(["auth", "login", "--email", email, "--password-stdin"], stdin: password)
        #expect(login.status == 0, "stderr: \(login.err)")
    }

    @Test func aTransferToAnotherUserReachesTheirInboxAndBlocksTheirDeletionUntilTheMoneyIsGone() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let users = try Self.twoUsers(moa)
        #expect(try moa.run(["transfer", "recipients", "add", users.bo, "--alias", "bo"]).status == 0)
        let sent = try moa.run(["transfer", "send", "--from", users.ada, "--to", "@bo", "70,000", "--memo", "점심"])
        #expect(sent.status == 0, "stderr: \(sent.err)")

        // Bo's inbox has the money, from Ada's account into his.
        try Self.logIn(moa, "bo@example.com")
        let inbox = try moa.run(["inbox", "--unread", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(inbox.out.utf8)) as? [String: Any]
        let notices = object?["notices"] as? [[String: Any]] ?? []
        let received = try #require(notices.first { $0["kind"] as? String == "money-received" })
        #expect(received["title"] as? String == "Received 70,000 KRW")
        #expect(received["body"] as? String == "From \(users.ada) into \(users.bo): 점심")

        // Refused while his account holds the money: the message names it, nothing changes.
        let refused = try moa.run(["auth", "delete", "--confirm", "bo@example.com"])
        #expect(refused.status == 1)
        #expect(refused.err.contains("Account \(users.bo) (보 통장) holds 70,000 KRW."))
        #expect(try moa.run(["auth", "whoami"]).status == 0)

        // Emptied and closed, the deletion goes through every feature; the session is gone.
        #expect(try moa.run(["account", "withdraw", users.bo, "70,000"]).status == 0)
        let deleted = try moa.run(["auth", "delete", "--confirm", "bo@example.com", "--json"])
        #expect(deleted.status == 0, "stderr: \(deleted.err)")
        let erased = (try JSONSerialization.jsonObject(with: Data(deleted.out.utf8)) as? [String: Any])?["erased"] as? [String]
        #expect(Set(erased ?? []) == ["Transfer", "Account", "Inbox", "Archive", "Settings", "Auth"])
        #expect(try moa.run(["auth", "whoami"]).status == 77)

        // Ada's side of the history stays whole, and the ledger is sound.
        try Self.logIn(moa, "ada@example.com")
        let history = try moa.run(["account", "history", users.ada])
        #expect(ScreenText.line(in: history.out, containing: ["transfer-out \(users.bo)", "-70,000 KRW", "930,000 KRW", "점심"]))
        let doctor = try moa.run(["doctor"])
        #expect(doctor.status == 0, "stdout: \(doctor.out)")
        #expect(doctor.out.contains("Ledger OK: 2 accounts"))

        // Bo's address is free again.
        #expect(try moa.run(["auth", "logout"]).status == 0)
        try moa.loggedIn("bo@example.com", password: Self.password)
        let accounts = try JSONSerialization.jsonObject(with: Data(try moa.run(["account", "list", "--json"]).out.utf8)) as? [Any]
        #expect(accounts?.isEmpty == true, "a new user, with none of the old one's accounts")
    }

    @Test func theInteractiveSendOffersFavouritesFirst() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let users = try Self.twoUsers(moa)
        #expect(try moa.run(["transfer", "recipients", "add", users.bo, "--alias", "bo"]).status == 0)
        #expect(try moa.run(["auth", "logout"]).status == 0)

        let result = try moa.run(
            [],
            stdin: InteractiveEndToEndTests.typed([
                "1", "1", "ada@example.com", Self.password, // home → log in
                "1", // Accounts and transfers
                "1", // 생활비 (Ada's only account)
                "1", // Send money
                "1", // Send to: 1. @bo
                "20,000", "", // amount, no memo
                "y", "", // send it, back to the account
                "0", "0", "0", // back, back, quit
            ]))
        #expect(result.status == 0, "stderr: \(result.err)")
        let out = result.out
        #expect(out.contains("Send to\n  1. @bo · \(users.bo)\n  0. Back"))
        #expect(out.contains("To (a number from the list, an account number or @alias): "))
        let receipt = ScreenText.section(of: out, from: "┌─ Receipt ─", to: "Press Enter to go back to the account.")
        #expect(ScreenText.line(in: receipt, containing: ["│ To", users.bo]))
        #expect(ScreenText.line(in: receipt, containing: ["│ Balance after", "980,000 KRW"]))
        #expect(out.hasSuffix("Bye.\n"))
    }
}
