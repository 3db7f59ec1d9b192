import Foundation
import Testing

/// Money and account input through the real binary ("Close the trust boundary", items A, B, E and the
/// names and memos of item 1): every bad value exits with its documented status and one sentence,
/// never 70, and nothing one user does breaks another user's deposit.
@Suite("moa money input end to end")
struct MoneyInputEndToEndTests {
    /// The first line of standard error, without its `error: ` label.
    static func sentence(_ result: MoaProcess.Result) -> String {
        let first = result.err.split(separator: "\n").first.map(String.init) ?? ""
        return first.hasPrefix("error: ") ? String(first.dropFirst(7)) : first
    }

    static func expectOneSentence(_ result: MoaProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        let sentence = sentence(result)
        #expect(sentence.hasSuffix(".") && !sentence.hasSuffix(".."), "\(result.err)", sourceLocation: sourceLocation)
        #expect(!result.err.contains("failed unexpectedly") && !result.err.contains("operation failed"), sourceLocation: sourceLocation)
    }

    @Test func badAmountsAndCurrenciesExit65WithTheirOwnSentence() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        let number = try moa.openAccount(name: "Main")
        for command in ["deposit", "withdraw"] {
            for amount in ["1e6", "100.5", "5,000원", "NaN", "", "-5", "0", "9000000000000000000"] {
                let result = try moa.run(["account", command, number, amount])
                #expect(result.status == 65, "\(command) \(amount): \(result.err)")
                Self.expectOneSentence(result)
            }
        }
        #expect(Self.sentence(try moa.run(["account", "deposit", number, "-5"])) == "Amounts are positive: -5 KRW is not more than zero.")
        let currency = try moa.run(["account", "open", "--type", "checking", "--name", "X", "--currency", "XYZ"])
        #expect(currency.status == 65)
        #expect(Self.sentence(currency) == "“XYZ” is not a currency Moa supports: use an ISO 4217 code such as KRW or USD.")
        let short = try moa.run(["account", "show", "110-1234-5678-90"])
        #expect(short.status == 65)
        #expect(Self.sentence(short).contains("it has 13 digits"))
        #expect(try moa.run(["doctor"]).status == 0)
    }

    @Test func nobodysDepositBreaksAnotherUsersDeposit() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        let ada = try moa.openAccount(name: "Ada")
        let huge = try moa.run(["account", "deposit", ada, "9000000000000000000"])
        #expect(huge.status == 65)
        #expect(Self.sentence(huge).hasSuffix("which is at most 100,000,000,000 KRW."))
        #expect(try moa.run(["account", "deposit", ada, "100,000,000,000"]).status == 0)
        // The shared cash account as an older version could leave it: at the edge of the 64-bit range.
        try moa.sql("UPDATE account_accounts SET balance = -9223372036854775800 WHERE id = 'cash-KRW'")
        try moa.loggedIn("bo@example.com")
        let bo = try moa.openAccount(name: "Bo")
        let deposit = try moa.run(["account", "deposit", bo, "100,000,000,000"])
        #expect(deposit.status == 0, "\(deposit.err)")
        #expect(deposit.out.contains("100,000,000,000 KRW"))
        #expect(try moa.run(["account", "withdraw", bo, "1,000"]).status == 0)
    }

    @Test func limitsBindDollarsToo() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        let from = try moa.openAccount(name: "Dollars", currency: "USD")
        let to = try moa.openAccount("savings", name: "More dollars", currency: "USD")
        #expect(try moa.run(["account", "deposit", from, "20,000,000.00"]).status == 0)
        let big = try moa.run(["transfer", "send", "--from", from, "--to", to, "6,000,000.00"])
        #expect(big.status == 1)
        #expect(Self.sentence(big) == "6,000,000.00 USD is above the per-transfer limit of 3,500.00 USD.")
        #expect(try moa.run(["transfer", "send", "--from", from, "--to", to, "3,500.00"]).status == 0)
        #expect(try moa.run(["transfer", "send", "--from", from, "--to", to, "3,500.00"]).status == 0)
        #expect(try moa.run(["transfer", "send", "--from", from, "--to", to, "0.01"]).status == 1)
        let help = try moa.run(["transfer", "send", "--help"])
        #expect(help.out.contains("USD 3,500.00 / 7,000.00"))
    }

    @Test func aNumberNobodyHasIsNotFoundAndANegativeAmountIsBadData() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        let from = try moa.openAccount(name: "Main")
        #expect(try moa.run(["account", "deposit", from, "10,000"]).status == 0)
        let nobody = try moa.run(["transfer", "send", "--from", from, "--to", "110-0000-0000-7", "1,000"])
        #expect(nobody.status == 69, "\(nobody.err)")
        let negative = try moa.run(["transfer", "send", "--from", from, "--to", "110-0000-0000-7", "-5"])
        #expect(negative.status == 65)
        #expect(Self.sentence(negative) == "Amounts are positive: -5 KRW is not more than zero.")
    }

    @Test func namesAndMemosWithControlCharactersAreRefused() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        let number = try moa.openAccount(name: "생활비")
        let rename = try moa.run(["account", "rename", number, "b\u{1B}[31mred"])
        #expect(rename.status == 65)
        #expect(Self.sentence(rename).hasSuffix("and this one has U+001B."))
        let memo = try moa.run(["account", "deposit", number, "1,000", "--memo", "\u{202E}evil"])
        #expect(memo.status == 65)
        #expect(Self.sentence(memo).hasSuffix("and this one has U+202E."))
        let open = try moa.run(["account", "open", "--type", "checking", "--name", "bell\u{07}"])
        #expect(open.status == 65)
        #expect(try moa.run(["account", "list"]).out.contains("생활비"))
    }
}
