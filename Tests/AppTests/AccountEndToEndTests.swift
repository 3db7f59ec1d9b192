import Foundation
import Testing

extension MoaProcess {
    /// Signs up, verifies (reading the code from the outbox) and logs in `email`.
    func loggedIn(_ email: String = "ada@example.com", password: String = "a long passphrase nobody guesses") throws {
        try run(["auth", "signup", "--email", email, "--password-stdin"], stdin: password)
        let code = try mailedCode(to: email)
        try run(["auth", "verify", "--email", email, "--code", code, "--password-stdin"], stdin: password)
        let login = try run(["auth", "login", "--email", email, "--password-stdin"], stdin: password)
        guard login.status == 0 else { throw LoginFailed(message: login.err) }
    }

    /// Opens an account and returns its number.
    func openAccount(_ type: String = "checking", name: String, currency: String = "KRW") throws -> String {
        let result = try run(["account", "open", "--type", type, "--name", name, "--currency", currency, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        return object?["number"] as? String ?? ""
    }

    struct LoginFailed: Error { let message: String }
}

@Suite("moa account end to end")
struct AccountEndToEndTests {
    @Test func accountsNeedALogin() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let result = try moa.run(["account", "list"])
        #expect(result.status == 77)
        #expect(result.err.contains("Not logged in — run `moa auth login`."))
    }

    @Test func openDepositWithdrawHistoryCloseAndTheLedgerStaysSound() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        let number = try moa.openAccount(name: "생활비 통장")
        #expect(number.count == 15)

        #expect(
            try moa.run(["account", "deposit", number, "1,000,000", "--memo", "월급"]).out.contains("balance of \(number): 1,000,000 KRW"))
        let overdraft = try moa.run(["account", "withdraw", number, "1,000,001"])
        #expect(overdraft.status == 1)
        #expect(overdraft.err.contains("Insufficient funds"))
        #expect(try moa.run(["account", "withdraw", number, "400,000"]).status == 0)

        let history = try moa.run(["account", "history", number, "--limit", "1", "--json"])
        let page = try JSONSerialization.jsonObject(with: Data(history.out.utf8)) as? [String: Any]
        let entries = page?["entries"] as? [[String: Any]] ?? []
        #expect((entries.first?["amount"] as? [String: Any])?["minor_units"] as? Int == -400_000)
        let cursor = try #require(page?["next_cursor"] as? String)
        let older = try moa.run(["account", "history", number, "--after", cursor])
        #expect(older.out.contains("월급"))
        #expect(!older.out.contains("-400,000"))
        // The last page says so as every page of moa does: `next_cursor` null, not a missing key.
        let last = try moa.run(["account", "history", number, "--limit", "50", "--json"])
        let lastPage = try JSONSerialization.jsonObject(with: Data(last.out.utf8)) as? [String: Any]
        #expect(lastPage?.keys.contains("next_cursor") == true && lastPage?["next_cursor"] is NSNull)

        let close = try moa.run(["account", "close", number])
        #expect(close.status == 1)
        #expect(close.err.contains("still holds 600,000 KRW"))

        let doctor = try moa.run(["doctor"])
        #expect(doctor.status == 0)
        #expect(doctor.out.contains("Ledger OK: 1 accounts, 4 entries"))
    }

    @Test func theDoctorFindsATamperedBalanceAndExits65() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        let number = try moa.openAccount(name: "Main")
        try moa.run(["account", "deposit", number, "5,000"])
        try moa.sql("UPDATE account_accounts SET balance = balance + 1 WHERE number = '\(number.replacingOccurrences(of: "-", with: ""))'")
        let doctor = try moa.run(["doctor"])
        #expect(doctor.status == 65)
        #expect(doctor.out.contains("Ledger broken"))
        #expect(doctor.out.contains("has balance 5001 but its entries sum to 5000"))
    }
}
