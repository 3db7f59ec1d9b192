import Foundation
import Testing

/// `moa` with no arguments, driven through piped standard input like a person at the keyboard:
/// home → log in → accounts → detail → send money (Transfer's flow, started through
/// TransferInterface) → receipt → the detail's new balance → back → quit.
@Suite("moa interactive mode end to end")
struct InteractiveEndToEndTests {
    static let email = "ada@example.com"
    static let password = "a long passphrase nobody guesses"

    /// A user with two funded accounts, logged out again (so the home screen logs them in).
    struct Prepared {
        let main: String
        let savings: String
        /// The 1-based position of `main` in the accounts menu (the order of `account list`).
        let mainChoice: Int
    }

    static func prepare(_ moa: MoaProcess) throws -> Prepared {
        try moa.loggedIn(email, password: password)
        let main = try moa.openAccount(name: "생활비 통장")
        let savings = try moa.openAccount("savings", name: "비상금")
        #expect(try moa.run(["account", "deposit", main, "1,000,000", "--memo", "월급"]).status == 0)
        #expect(try moa.run(["account", "deposit", savings, "200,000"]).status == 0)
        let numbers = try balances(moa).map(\.number)
        let position = try #require(numbers.firstIndex(of: main))
        #expect(try moa.run(["auth", "logout"]).status == 0)
        return Prepared(main: main, savings: savings, mainChoice: position + 1)
    }

    /// `moa account list --json`: number and balance (minor units) of each account, in list order.
    static func balances(_ moa: MoaProcess) throws -> [(number: String, minorUnits: Int)] {
        let result = try moa.run(["account", "list", "--json"])
        #expect(result.status == 0, "stderr: \(result.err)")
        let accounts = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]] ?? []
        return accounts.map { account in
            (account["number"] as? String ?? "", (account["balance"] as? [String: Any])?["minor_units"] as? Int ?? -1)
        }
    }

    /// The answers, one a line, as typed.
    static func typed(_ answers: [String]) -> String {
        answers.joined(separator: "\n") + "\n"
    }

    @Test func logInSendMoneyFromAnAccountSeeTheReceiptAndTheNewBalanceThenQuit() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let prepared = try Self.prepare(moa)

        let result = try moa.run(
            [],
            stdin: Self.typed([
                "1", // home: Log in or sign up
                "1", // Welcome to Moa: Log in
                Self.email, Self.password,
                "1", // home: Accounts and transfers
                String(prepared.mainChoice), // Accounts: 생활비 통장
                "1", // What next?: Send money
                prepared.savings, "250,000", "점심값", // to, amount, memo
                "y", // Send it?
                "", // Press Enter to go back to the account
                "0", // What next?: Back
                "0", // Accounts: Back
                "0", // home: Quit
            ]))
        let out = result.out
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err.isEmpty)
        #expect(!out.contains(Self.password), "the password is never echoed")

        // The home, logged out, then the login.
        #expect(ScreenText.line(in: out, containing: ["│ Not logged in"]))
        #expect(out.contains("What would you like to do?\n  1. Log in or sign up\n"))
        #expect(out.contains("Welcome to Moa\n  1. Log in\n  2. Sign up\n  0. Back"))
        #expect(out.contains("E-mail: Password: Logged in as ada@example.com."))

        // The home, logged in: the features' entries.
        #expect(ScreenText.line(in: out, containing: ["│ Logged in as ada@example.com"]))
        #expect(out.contains("  1. Accounts and transfers\n"))
        #expect(out.contains("  0. Quit"))

        // The accounts screen: both accounts, their balances, the menu.
        #expect(out.contains("Accounts\n"))
        #expect(out.contains("\(prepared.mainChoice). 생활비 통장 · \(prepared.main) · 1,000,000 KRW"))
        #expect(out.contains("비상금 · \(prepared.savings) · 200,000 KRW"))
        #expect(out.contains("Open an account"))

        // The detail, the send-money card, the confirmation, the receipt.
        #expect(out.contains("What next?\n  1. Send money\n  2. Deposit\n  3. Withdraw\n  0. Back"))
        #expect(out.contains("To account number: Amount: Memo (optional): ┌─ Send money ─"))
        #expect(ScreenText.line(in: out, containing: ["│ To", prepared.savings]))
        #expect(out.contains("Send it? [y/N] ┌─ Receipt ─"))
        let receipt = ScreenText.section(of: out, from: "┌─ Receipt ─", to: "Press Enter to go back to the account.")
        #expect(ScreenText.line(in: receipt, containing: ["│ Sent", "250,000 KRW"]))
        #expect(ScreenText.line(in: receipt, containing: ["│ From", prepared.main]))
        #expect(ScreenText.line(in: receipt, containing: ["│ To", prepared.savings]))
        #expect(ScreenText.line(in: receipt, containing: ["│ Memo", "점심값"]))
        #expect(ScreenText.line(in: receipt, containing: ["│ Balance after", "750,000 KRW"]))
        #expect(ScreenText.line(in: receipt, containing: ["│ Transfer "]))

        // Back on the detail: the new balance and the movement; then the list with both new balances.
        let afterReceipt = ScreenText.section(of: out, from: "Press Enter to go back to the account.", to: "Bye.")
        let detail = ScreenText.section(of: afterReceipt, from: "┌─ 생활비 통장 ─", to: "What next?")
        #expect(ScreenText.line(in: detail, containing: ["│ Balance", "750,000 KRW"]))
        #expect(ScreenText.line(in: detail, containing: ["transfer-out \(prepared.savings)", "-250,000 KRW", "750,000 KRW", "점심값"]))
        #expect(afterReceipt.contains("생활비 통장 · \(prepared.main) · 750,000 KRW"))
        #expect(afterReceipt.contains("비상금 · \(prepared.savings) · 450,000 KRW"))

        // Quit.
        #expect(out.hasSuffix("Bye.\n"))

        // The money moved, and only once.
        let after = Dictionary(uniqueKeysWithValues: try Self.balances(moa).map { ($0.number, $0.minorUnits) })
        #expect(after[prepared.main] == 750_000)
        #expect(after[prepared.savings] == 450_000)
        let doctor = try moa.run(["doctor"])
        #expect(doctor.status == 0)
        #expect(doctor.out.contains("Ledger OK: 2 accounts"))
    }

    @Test func decliningTheConfirmationSendsNothingAndAWrongPasswordLogsNobodyIn() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let prepared = try Self.prepare(moa)

        let result = try moa.run(
            [],
            stdin: Self.typed([
                "1", "1", Self.email, "not the passphrase at all", // refused: the home stays logged out
                "1", "1", Self.email, Self.password, // then the right one
                "1", String(prepared.mainChoice), "1",
                prepared.savings, "250,000", "",
                "n", // Send it? no
                "0", "0", "0",
            ]))
        #expect(result.status == 0, "stderr: \(result.err)")
        let out = result.out
        #expect(out.contains("E-mail: Password: error: The e-mail address or the password is wrong, or the address is not verified yet."))
        #expect(out.components(separatedBy: "│ Not logged in").count - 1 == 2, "the home shows logged out again after the refusal")
        #expect(out.contains("Logged in as ada@example.com."))
        #expect(ScreenText.line(in: out, containing: ["│ Memo", "—"]))
        #expect(out.contains("Send it? [y/N] Not sent."))
        #expect(!out.contains("┌─ Receipt ─"))
        #expect(out.hasSuffix("Bye.\n"))

        let after = Dictionary(uniqueKeysWithValues: try Self.balances(moa).map { ($0.number, $0.minorUnits) })
        #expect(after[prepared.main] == 1_000_000)
        #expect(after[prepared.savings] == 200_000)
    }

    /// A logged-in user with the sample catalogue and one archived event (rated 5).
    static func archiving(_ moa: MoaProcess) throws -> String {
        try moa.loggedIn(email, password: password)
        #expect(try moa.run(["archive", "import", "--sample"]).status == 0)
        let events = try JSONSerialization.jsonObject(with: Data(moa.run(["archive", "events", "--json"]).out.utf8)) as? [String: Any]
        let first = try #require((events?["events"] as? [[String: Any]])?.first)
        let id = try #require(first["id"] as? String)
        #expect(try moa.run(["archive", "add", id, "--rating", "5"]).status == 0)
        return try #require(first["title"] as? String)
    }

    @Test func homeReachesTheArchivesTasteCardAndTheSettings() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        _ = try Self.archiving(moa)
        let result = try moa.run(
            [],
            stdin: Self.typed([
                "3", // home: My archive
                "2", // My archive: Taste card
                "", // Press Enter to go back.
                "0", // My archive: Back
                "5", // home: Settings
                "3", // Which setting to change?: display.page-size
                "30", // New value
                "0", // Settings: Back
                "0", // home: Quit
            ]))
        #expect(result.status == 0, "stderr: \(result.err)")
        let out = result.out
        let taste = try #require(out.range(of: "Your taste · 1 ticket"), "no taste card:\n\(out)")
        let settings = try #require(out.range(of: "Which setting to change?"))
        #expect(taste.lowerBound < settings.lowerBound)
        #expect(out.contains("display.page-size = 30 (saved for \(Self.email))"))
        #expect(out.hasSuffix("Bye.\n"))
        // Saved for real, as the command sees it.
        let get = try moa.run(["settings", "get", "display.page-size", "--json"])
        #expect(get.out.contains("\"value\":30") || get.out.contains("\"value\" : 30"), "\(get.out)")
    }

    @Test func archivingAnEventFromTheSearchLeadsIntoTheSameArchive() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        _ = try Self.archiving(moa)
        let result = try moa.run(
            [],
            stdin: Self.typed([
                "2", // home: Search users and events
                "2", // Search: Cultural events
                "", "", "", // words, district, free only
                "2", // Show an event: the second
                "1", // What next?: Archive this event as attended
                "4", "", // rating, memo
                "1", // What next?: Open my archive
                "1", // My archive: Tickets
                "", // Press Enter to go back.
                "0", // My archive: Back
                "0", // events: Back
                "0", // Search: Back
                "0", // home: Quit
            ]))
        #expect(result.status == 0, "stderr: \(result.err)")
        let archived = try #require(result.out.range(of: "What next?\n  1. Open my archive"), "\(result.out)")
        let tickets = try #require(result.out.range(of: "My archive\n  1. Tickets", range: archived.upperBound..<result.out.endIndex))
        // The archive the home opens lists both tickets: the one from before and the one just archived.
        let list = try moa.run(["archive", "list", "--json"])
        let count = (try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [Any])?.count
        #expect(count == 2)
        // The tickets table of that archive shows the new ticket's rating.
        #expect(result.out[tickets.upperBound...].contains("4/5"))
    }
}
