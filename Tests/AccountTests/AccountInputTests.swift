import AccountDomain
import AccountInterface
import AuthInterface
import AuthTesting
import CommandKit
import DesignSystem
import Foundation
import GRDB
import Money
import Registry
import SharedKit
import Storage
import Testing
import TransferInterface
import TransferTesting

@testable import AccountData
@testable import AccountFeature

/// What a person types at the edge of Account (amounts, currencies, names, memos, account numbers)
/// is parsed once into a typed value, and a bad one is a typed error: one sentence, a documented exit
/// status, never 70, and nothing written.
@Suite("Account inputs")
struct AccountInputTests {
    /// Exactly one sentence: a capital letter first, one full stop at the end, no doubled one.
    static func expectOneSentence(_ error: any UserFacingError, sourceLocation: SourceLocation = #_sourceLocation) {
        let message = error.message
        #expect(message.first?.isUppercase == true || message.first == "“", "\(message)", sourceLocation: sourceLocation)
        #expect(message.hasSuffix("."), "\(message)", sourceLocation: sourceLocation)
        #expect(!message.hasSuffix(".."), "\(message)", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["1e6", "100.5", "5,000원", "NaN", "", "  ", "ten", "0x10", "1,00", "١٢٣"])
    func malformedAmountsAreBadDataWithTheirOwnSentence(text: String) async throws {
        let harness = try AccountHarness()
        let number = try await harness.service.open(kind: .checking, name: "Main").number.description
        for operation in ["deposit", "withdraw"] {
            let error = await #expect(throws: AmountError.self) {
                if operation == "deposit" {
                    _ = try await harness.service.deposit(text, to: number, memo: nil)
                } else {
                    _ = try await harness.service.withdraw(text, from: number, memo: nil)
                }
            }
            let refusal = try #require(error)
            guard case .malformed = refusal else {
                Issue.record("\(text): not malformed but \(refusal)")
                continue
            }
            #expect(refusal.exitStatus == .dataError)
            #expect(!refusal.message.contains("account operation failed"))
            Self.expectOneSentence(refusal)
        }
        #expect(try await harness.service.show(number).balance == .zero(.krw))
    }

    @Test(arguments: ["-5", "-0", "0", "-1,000"])
    func zeroAndNegativeAmountsAreRefusedAsNotPositive(text: String) async throws {
        let harness = try AccountHarness()
        let number = try await harness.service.open(kind: .checking, name: "Main").number.description
        let amount = try Money.parse(text, currency: .krw)
        await #expect(throws: AmountError.notPositive(amount)) { try await harness.service.deposit(text, to: number, memo: nil) }
        await #expect(throws: AmountError.notPositive(amount)) { try await harness.service.withdraw(text, from: number, memo: nil) }
        #expect(AmountError.notPositive(amount).exitStatus == .dataError)
        #expect(AmountError.notPositive(amount).message == "Amounts are positive: \(amount.formatted()) is not more than zero.")
    }

    /// Issue A: `moa account deposit <own account> 9000000000000000000` succeeded.
    @Test(arguments: ["9000000000000000000", "9,223,372,036,854,775,807", "99999999999999999999999", "100,000,000,001"])
    func anAmountAboveThePerOperationMaximumIsBadData(text: String) async throws {
        let harness = try AccountHarness()
        let number = try await harness.service.open(kind: .checking, name: "Main").number.description
        let error = await #expect(throws: AmountError.self) { try await harness.service.deposit(text, to: number, memo: nil) }
        guard case .aboveMaximum(_, let maximum)? = error else {
            Issue.record("not aboveMaximum: \(String(describing: error))")
            return
        }
        #expect(maximum == Money(minorUnits: 100_000_000_000, currency: .krw))
        #expect(error?.exitStatus == .dataError)
        #expect(error?.message.hasSuffix("which is at most 100,000,000,000 KRW.") == true)
        #expect(try await harness.service.show(number).balance == .zero(.krw))
        #expect(try await harness.audit().isEmpty)
    }

    @Test func theMaximumItselfIsAcceptedInEveryCurrency() async throws {
        let harness = try AccountHarness()
        let won = try await harness.service.open(kind: .checking, name: "Won").number.description
        let dollars = try await harness.service.open(kind: .checking, name: "Dollars", currency: "USD").number.description
        #expect(try await harness.service.deposit("100,000,000,000", to: won, memo: nil).balanceAfter.minorUnits == 100_000_000_000)
        #expect(try await harness.service.deposit("1,000,000,000.00", to: dollars, memo: nil).balanceAfter.minorUnits == 100_000_000_000)
        await #expect(throws: AmountError.aboveMaximum("1,000,000,000.01 USD", maximum: AmountBounds.maximumOperation(in: .usd))) {
            try await harness.service.deposit("1,000,000,000.01", to: dollars, memo: nil)
        }
        #expect(try await harness.audit().isEmpty)
    }

    @Test func aBalanceCannotGoAboveTheMaximumButCanStillBeSpent() async throws {
        let harness = try AccountHarness()
        let account = try await harness.service.open(kind: .checking, name: "Full")
        let number = account.number.description
        // 10,000 deposits of the per-operation maximum would take long: seed the ledger as they would
        // leave it, 10 short of the maximum, balanced against the cash account.
        _ = try await harness.service.deposit("1", to: number, memo: nil)
        let seeded = AmountBounds.maximumBalanceMinorUnits - 10
        try await harness.database.write { db in
            try db.execute(sql: "UPDATE account_accounts SET balance = ? WHERE number = ?", arguments: [seeded, account.number.digits])
            try db.execute(sql: "UPDATE account_accounts SET balance = ? WHERE id = 'cash-KRW'", arguments: [-seeded])
            try db.execute(sql: "UPDATE account_entries SET amount = ?, balance_after = ? WHERE amount = 1", arguments: [seeded, seeded])
            try db.execute(
                sql: "UPDATE account_entries SET amount = ?, balance_after = ? WHERE amount = -1", arguments: [-seeded, -seeded])
        }
        #expect(try await harness.audit().isEmpty)
        #expect(try await harness.service.deposit("10", to: number, memo: nil).balanceAfter == AmountBounds.maximumBalance(in: .krw))
        let refusal = PostingError.balanceAboveMaximum(
            account.number, amount: Money(minorUnits: 1, currency: .krw), maximum: AmountBounds.maximumBalance(in: .krw))
        await #expect(throws: refusal) { try await harness.service.deposit("1", to: number, memo: nil) }
        #expect(refusal.exitStatus == .refused)
        #expect(refusal.message == "Account \(account.number) cannot take 1 KRW more: an account holds at most 1,000,000,000,000,000 KRW.")
        #expect(try await harness.service.withdraw("1,000", from: number, memo: nil).balanceAfter.minorUnits == seeded + 10 - 1_000)
        #expect(try await harness.audit().isEmpty)
    }

    @Test func aTransferCannotFillAnAccountPastItsMaximum() async throws {
        let harness = try AccountHarness()
        let from = try await harness.service.open(kind: .checking, name: "From")
        let to = try await harness.service.open(kind: .checking, name: "To")
        _ = try await harness.service.deposit("100", to: from.number.description, memo: nil)
        try await harness.database.write { db in
            try db.execute(
                sql: "UPDATE account_accounts SET balance = ? WHERE number = ?",
                arguments: [AmountBounds.maximumBalanceMinorUnits, to.number.digits])
        }
        let posting = try harness.posting()
        let request = PostingRequest(
            from: from.number, to: to.number, amount: Money(minorUnits: 1, currency: .krw), memo: nil, reference: "t",
            initiatedBy: FakeSessionProvider.ada.id, at: Date())
        await #expect(
            throws: PostingError.balanceAboveMaximum(
                to.number, amount: Money(minorUnits: 1, currency: .krw), maximum: AmountBounds.maximumBalance(in: .krw))
        ) {
            try await harness.database.perform { try posting.post(request, in: $0) }
        }
        #expect(try await harness.service.show(from.number.description).balance.minorUnits == 100)
    }

    @Test func aCurrencyIsParsedBeforeAnythingIsWritten() async throws {
        let harness = try AccountHarness()
        for code in ["XYZ", "", "won", "US", "ＫＲＷ"] {
            let error = await #expect(throws: AccountError.self) {
                try await harness.service.open(kind: .checking, name: "X", currency: code)
            }
            #expect(error?.exitStatus == .dataError)
            if let error { Self.expectOneSentence(error) }
        }
        #expect(try await harness.service.open(kind: .checking, name: "X", currency: " usd ").currency == .usd)
    }
}

@Suite("Account names and memos")
struct AccountTextTests {
    static let hostile = "b\u{1B}[31mred"

    /// Each text and the character that makes it refused.
    static let refused: [(String, Unicode.Scalar)] = [
        ("b\u{1B}[31mred", "\u{1B}"), ("bell\u{07}", "\u{07}"), ("tab\there", "\t"), ("del\u{7F}", "\u{7F}"),
        ("csi\u{9B}2J", "\u{9B}"), ("\u{202E}evil", "\u{202E}"), ("mark\u{200F}x", "\u{200F}"), ("iso\u{2066}late", "\u{2066}"),
        ("arabic\u{061C}x", "\u{061C}"), ("line\u{2028}sep", "\u{2028}"),
        // Invisible: two memos or names that look the same (issue 24, item 10).
        ("zero\u{200B}width", "\u{200B}"), ("bom\u{FEFF}x", "\u{FEFF}"), ("soft\u{00AD}hyphen", "\u{00AD}"),
        ("word\u{2060}joiner", "\u{2060}"),
    ]

    @Test func joinersThatWordsAndEmojiNeedStay() async throws {
        let harness = try AccountHarness()
        let account = try await harness.service.open(kind: .checking, name: "می\u{200C}خواهم")
        _ = try await harness.service.deposit("1,000", to: account.number.description, memo: "👩\u{200D}💻 pay")
        #expect(try await harness.service.history(of: account.number.description).entries.first?.memo == "👩\u{200D}💻 pay")
    }

    @Test(arguments: refused)
    func controlAndBidiCharactersAreRefusedInNamesAndMemos(text: String, scalar: Unicode.Scalar) async throws {
        let harness = try AccountHarness()
        let account = try await harness.service.open(kind: .checking, name: "Main")
        let number = account.number.description
        await #expect(throws: AccountError.invalidName(.forbiddenCharacter(scalar))) {
            try await harness.service.open(kind: .checking, name: text)
        }
        await #expect(throws: AccountError.invalidName(.forbiddenCharacter(scalar))) { try await harness.service.rename(number, to: text) }
        await #expect(throws: MemoError(problem: .forbiddenCharacter(scalar))) {
            try await harness.service.deposit("1,000", to: number, memo: text)
        }
        await #expect(throws: MemoError(problem: .forbiddenCharacter(scalar))) {
            try await harness.service.withdraw("1,000", from: number, memo: text)
        }
        #expect(AccountError.invalidName(.forbiddenCharacter(scalar)).exitStatus == .dataError)
        #expect(MemoError(problem: .forbiddenCharacter(scalar)).exitStatus == .dataError)
        AccountInputTests.expectOneSentence(AccountError.invalidName(.forbiddenCharacter(scalar)))
        AccountInputTests.expectOneSentence(MemoError(problem: .forbiddenCharacter(scalar)))
        #expect(try await harness.service.list().map(\.name) == ["Main"])
        #expect(try await harness.service.history(of: number).entries.isEmpty)
    }

    @Test func theMessagesNameTheCharacter() {
        #expect(
            AccountError.invalidName(.forbiddenCharacter("\u{1B}")).message
                == "An account name cannot hold control or bidirectional formatting characters, and this one has U+001B.")
        #expect(
            MemoError(problem: .forbiddenCharacter("\n")).message
                == "A memo is one line without control or bidirectional formatting characters, and this one has a line break (U+000A).")
        #expect(MemoError(problem: .tooLong(141)).message == "A memo has at most 140 characters, and this one has 141.")
        #expect(AccountError.invalidName(.tooLong(41)).message == "An account name has at most 40 characters, and this one has 41.")
    }

    @Test func aMemoIsTrimmedNormalisedAndRefusedPast140CharactersInsteadOfCut() async throws {
        let harness = try AccountHarness()
        let number = try await harness.service.open(kind: .checking, name: "Main").number.description
        await #expect(throws: MemoError(problem: .tooLong(141))) {
            try await harness.service.deposit("1", to: number, memo: String(repeating: "가", count: 141))
        }
        let long = String(repeating: "가", count: 140)
        #expect(try await harness.service.deposit("1", to: number, memo: "  \(long)  ").memo == long)
        #expect(try await harness.service.deposit("1", to: number, memo: "   ").memo == nil)
        // "e" + a combining acute accent is stored as the one precomposed "é" (NFC).
        let entry = try await harness.service.deposit("1", to: number, memo: "Cafe\u{301}")
        #expect(entry.memo?.unicodeScalars.map(\.value) == [0x43, 0x61, 0x66, 0xE9])
    }

    @Test func namesAreNormalisedToNFCAndCountedInCharacters() async throws {
        let harness = try AccountHarness()
        let decomposed = "\u{1100}\u{1161}\u{11A8}" // 각 as three jamo
        let account = try await harness.service.open(kind: .checking, name: decomposed)
        #expect(account.name == "각" && account.name.unicodeScalars.count == 1)
        let forty = String(repeating: "통", count: 40)
        #expect(try await harness.service.rename(account.number.description, to: forty).name == forty)
        await #expect(throws: AccountError.invalidName(.tooLong(41))) {
            try await harness.service.rename(account.number.description, to: forty + "장")
        }
        await #expect(throws: AccountError.invalidName(.empty)) { try await harness.service.rename(account.number.description, to: " \t ") }
    }

    @Test func thePostingSeamRefusesAnUnsafeMemoToo() async throws {
        let harness = try AccountHarness()
        let a = try await harness.service.open(kind: .checking, name: "A")
        let b = try await harness.service.open(kind: .checking, name: "B")
        _ = try await harness.service.deposit("100", to: a.number.description, memo: nil)
        let posting = try harness.posting()
        let request = PostingRequest(
            from: a.number, to: b.number, amount: Money(minorUnits: 1, currency: .krw), memo: Self.hostile, reference: "t",
            initiatedBy: FakeSessionProvider.ada.id, at: Date())
        await #expect(throws: MemoError(problem: .forbiddenCharacter("\u{1B}"))) {
            try await harness.database.perform { try posting.post(request, in: $0) }
        }
    }
}

@Suite("Account number messages")
struct AccountNumberMessageTests {
    @Test(arguments: [
        ("12-34", "“12-34” is not an account number: it has 4 digits and an account number has 12, like 110-1234-5678-9."),
        ("1", "“1” is not an account number: it has 1 digit and an account number has 12, like 110-1234-5678-9."),
        (
            "110-1234-5678-90",
            "“110-1234-5678-90” is not an account number: it has 13 digits and an account number has 12, like 110-1234-5678-9."
        ),
        ("", "No account number was given: one has 12 digits, like 110-1234-5678-9."),
        (
            "abc-defg-hijk-l",
            "“abc-defg-hijk-l” is not an account number: write only its 12 digits, with dashes or spaces if you like, as in 110-1234-5678-9."
        ),
        (
            "１１０１２３４５６７８９",
            "“１１０１２３４５６７８９” is not an account number: write only its 12 digits, with dashes or spaces if you like, as in 110-1234-5678-9."
        ),
    ])
    func aWrongLengthSaysHowManyDigitsItHad(text: String, message: String) {
        #expect(throws: AccountNumberError.malformed(text)) { try AccountNumber(text) }
        #expect(AccountNumberError.malformed(text).message == message)
        #expect(AccountNumberError.malformed(text).exitStatus == .dataError)
    }

    @Test func aLongInputIsQuotedCut() {
        let long = String(repeating: "1", count: 5_000)
        let message = AccountNumberError.malformed(long).message
        #expect(message.count < 200)
        #expect(message.contains("it has 5000 digits"))
    }
}

/// Issue A: every KRW deposit drew on one shared cash account, so one user who drove it near the
/// 64-bit limit made every other user's deposit fail.
@Suite("Cash accounts cannot overflow")
struct CashAccountTests {
    /// The harness with a store whose cash accounts are bounded by `bound` instead of 9 × 10^18.
    static func harness(cashBound bound: Int64) throws -> AccountHarness {
        try AccountHarness(store: { SQLiteAccountStore(database: $0, cashBound: bound) })
    }

    @Test func whenACashAccountIsFullANewOneTakesTheNextDepositAndTheLedgerStaysSound() async throws {
        let harness = try Self.harness(cashBound: 250)
        let ada = try await harness.service.open(kind: .checking, name: "Ada")
        for _ in 0..<5 { _ = try await harness.service.deposit("100", to: ada.number.description, memo: nil) }
        harness.session.set(AccountHarness.bo)
        let bo = try await harness.service.open(kind: .checking, name: "Bo")
        #expect(try await harness.service.deposit("100", to: bo.number.description, memo: nil).balanceAfter.minorUnits == 100)
        let cash = try harness.database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, balance FROM account_accounts WHERE owner_id IS NULL ORDER BY opened_at, id")
                .map { ($0["id"] as String, $0["balance"] as Int64) }
        }
        #expect(cash.map(\.0) == ["cash-KRW", "cash-KRW-2", "cash-KRW-3"])
        #expect(cash.allSatisfy { abs($0.1) <= 250 })
        #expect(cash.map(\.1).reduce(0, +) == -600)
        // Withdrawals fill the cash accounts back, each within its bound.
        _ = try await harness.service.withdraw("100", from: bo.number.description, memo: nil)
        harness.session.set(FakeSessionProvider.ada)
        for _ in 0..<5 { _ = try await harness.service.withdraw("100", from: ada.number.description, memo: nil) }
        let after = try harness.database.read { db in
            try Int64.fetchAll(db, sql: "SELECT balance FROM account_accounts WHERE owner_id IS NULL")
        }
        #expect(after.allSatisfy { abs($0) <= 250 } && after.reduce(0, +) == 0)
        #expect(try await harness.audit().isEmpty)
    }

    @Test func aCashAccountDrivenToTheEdgeByAnOldVersionBreaksNobodysDeposit() async throws {
        let harness = try AccountHarness()
        let ada = try await harness.service.open(kind: .checking, name: "Ada")
        _ = try await harness.service.deposit("1", to: ada.number.description, memo: nil)
        // What the shared account looked like after one user's deposits of 9,000,000,000,000,000,000 KRW.
        try await harness.database.write { db in
            try db.execute(sql: "UPDATE account_accounts SET balance = ? WHERE id = 'cash-KRW'", arguments: [Int64.min + 5])
        }
        harness.session.set(AccountHarness.bo)
        let bo = try await harness.service.open(kind: .checking, name: "Bo")
        #expect(
            try await harness.service.deposit("100,000,000,000", to: bo.number.description, memo: nil).balanceAfter.minorUnits
                == 100_000_000_000)
        #expect(
            try await harness.service.withdraw("1,000", from: bo.number.description, memo: nil).balanceAfter.minorUnits == 99_999_999_000)
    }

    @Test func theAuditAddsUpPastTheSixtyFourBitRange() async throws {
        // Two cash accounts of -9 × 10^18 each: the currency's total is outside Int64, which SQLite's
        // SUM would refuse ("integer overflow"); the audit adds it up and names it instead.
        let harness = try AccountHarness()
        let ada = try await harness.service.open(kind: .checking, name: "Ada")
        _ = try await harness.service.deposit("1", to: ada.number.description, memo: nil)
        let big: Int64 = 9_000_000_000_000_000_000
        try await harness.database.write { db in
            for (id, number) in [("cash-KRW-9", "00000000901"), ("cash-KRW-10", "00000001001")] {
                let full = try AccountNumber(prefix: number).digits
                try db.execute(
                    sql: """
                        INSERT INTO account_accounts (id, number, name, kind, owner_id, currency, balance, opened_at)
                        VALUES (?, ?, 'Cash (KRW)', 'cash', NULL, 'KRW', ?, '2026-01-01 00:00:00.000')
                        """, arguments: [id, full, -big])
                try db.execute(
                    sql: """
                        INSERT INTO account_entries (account_id, amount, currency, balance_after, kind, created_at)
                        VALUES (?, ?, 'KRW', ?, 'withdrawal', '2026-01-01 00:00:00.000')
                        """, arguments: [id, -big, -big])
            }
        }
        let problems = try await harness.audit()
        #expect(problems == ["the entries in KRW sum to -18000000000000000000, not 0: money was created or lost"])
    }
}

@Suite("Account migrations")
struct AccountMigrationTests {
    @Test func controlCharactersAlreadyStoredInNamesAndMemosAreNeutralized() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-account-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("moa.sqlite")
        let v1 = MigrationSet(feature: "Account", steps: [try #require(AccountMigrations.all.steps.first)])
        let number = try AccountNumber(prefix: "11000000001").digits
        do {
            let old = try AppDatabase.open(at: url, migrations: [v1])
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO account_accounts (id, number, name, kind, owner_id, currency, balance, opened_at)
                        VALUES ('a', ?, ?, 'checking', 'user-ada', 'KRW', 2, '2026-01-01 00:00:00.000'),
                               ('cash-KRW', '000000000011', 'Cash (KRW)', 'cash', NULL, 'KRW', -2, '2026-01-01 00:00:00.000')
                        """, arguments: [number, "b\u{1B}[31mred\u{07}"])
                for memo in ["line\none\ttab\u{1B}]0;pwned\u{07}", "del\u{7F} csi\u{9B}2J \u{202E}evil \u{2066}x\u{2069}", "월급"] {
                    try db.execute(
                        sql: """
                            INSERT INTO account_entries (account_id, amount, currency, balance_after, kind, memo, created_at)
                            VALUES ('a', 1, 'KRW', 1, 'deposit', ?, '2026-01-01 00:00:00.000')
                            """, arguments: [memo])
                }
            }
        }
        let upgraded = try AppDatabase.open(at: url, migrations: [AccountMigrations.all])
        let (name, memos) = try upgraded.read { db in
            (
                try String.fetchOne(db, sql: "SELECT name FROM account_accounts WHERE id = 'a'"),
                try String.fetchAll(db, sql: "SELECT memo FROM account_entries ORDER BY id")
            )
        }
        #expect(name == "b␛[31mred␇")
        #expect(memos == ["line\none\ttab␛]0;pwned␇", "del␡ csi\u{FFFD}2J \u{FFFD}evil \u{FFFD}x\u{FFFD}", "월급"])
    }

    @Test func theMappingIsTheDesignSystems() {
        #expect(AccountStoredText.neutralized("\u{0}\u{1F}") == "\u{2400}\u{241F}")
        #expect(AccountStoredText.neutralized("a\nb\tc") == "a\nb\tc")
        #expect(
            AccountStoredText.neutralized("\u{80}\u{9F}\u{061C}\u{200E}\u{200F}\u{202A}\u{202E}\u{2066}\u{2069}")
                == String(repeating: "\u{FFFD}", count: 9))
        #expect(AccountStoredText.neutralized("안녕 👋🏽") == "안녕 👋🏽")
    }
}

@Suite("Account commands: the amount argument")
struct AccountAmountArgumentTests {
    @Test func aNegativeAmountIsTakenForAnAmountNotAnOption() throws {
        let parsed = try AccountCommand.parseAsRoot(["deposit", "110-0000-0001-5", "-5", "--memo", "x"])
        let deposit = try #require(parsed as? AccountCommand.Deposit)
        #expect(deposit.amount == ["-5"] && deposit.memo == "x")
        let withdraw = try #require(try AccountCommand.parseAsRoot(["withdraw", "A", "-1,000"]) as? AccountCommand.Withdraw)
        #expect(withdraw.amount == ["-1,000"])
        #expect(try (AccountCommand.parseAsRoot(["deposit", "A", "1,000"]) as? AccountCommand.Deposit)?.amount == ["1,000"])
    }

    @Test(arguments: [["deposit", "A"], ["deposit", "A", "1", "2"], ["deposit", "A", "1", "--frobnicate"], ["withdraw", "A", "-x"]])
    func noAmountSeveralOrAnUnknownOptionIsAUsageError(arguments: [String]) {
        #expect(throws: (any Error).self) { try AccountCommand.parseAsRoot(arguments) }
        do {
            _ = try AccountCommand.parseAsRoot(arguments)
        } catch {
            #expect(AccountCommand.exitCode(for: error).rawValue == 64)
        }
    }

    @Test func theHelpDocumentsTheBoundsAndKeepsTheUsageLine() {
        let help = AccountCommand.helpMessage(for: AccountCommand.Deposit.self, columns: 1_000)
        #expect(help.contains("<account> <amount> [--memo <memo>]"))
        #expect(help.contains("100,000,000,000 minor units"))
        #expect(help.contains("1,000,000,000,000,000 minor units"))
    }

    @Test func aNegativeAmountTypedOnTheCommandLineIsRefusedAsBadData() async throws {
        let harness = try AccountHarness()
        let number = try await harness.service.open(kind: .checking, name: "Main").number.description
        let group = try harness.commands()
        await #expect(throws: AmountError.notPositive(Money(minorUnits: -5, currency: .krw))) {
            _ = try await group.run(
                try AccountCommand.parseAsRoot(["deposit", number, "-5"]),
                context: CommandContext(out: CapturingOutput(), err: CapturingOutput()))
        }
        await #expect(throws: AccountError.unknownCurrency("XYZ")) {
            _ = try await group.run(
                try AccountCommand.parseAsRoot(["open", "--type", "checking", "--name", "X", "--currency", "XYZ"]),
                context: CommandContext(out: CapturingOutput(), err: CapturingOutput()))
        }
    }
}

@Suite("Accounts coordinator: bad input in the interactive mode")
@MainActor
struct AccountsCoordinatorInputTests {
    @Test func theInteractiveDepositRefusesWhatTheCommandRefusesWithTheSameSentences() async throws {
        let harness = try AccountHarness()
        let account = try await harness.service.open(kind: .checking, name: "Everyday")
        let out = CapturingOutput()
        let screen = Screen(
            context: CommandContext(out: out, err: CapturingOutput()),
            input: ScriptedLineInput([
                "1", // the account
                "2", "-5", "", // deposit -5
                "2", "1e6", "", // deposit 1e6
                "2", "1,000", "b\u{1B}[31mred", // a memo with an escape sequence
                "0", "0",
            ]))
        await AccountsCoordinator(screen: screen, service: harness.service, transfers: FakeTransferStarter()).run()
        #expect(out.text.contains(AmountError.notPositive(Money(minorUnits: -5, currency: .krw)).message))
        #expect(out.text.contains("“1e6” is not a valid amount"))
        #expect(out.text.contains(MemoError(problem: .forbiddenCharacter("\u{1B}")).message))
        #expect(try await harness.service.show(account.number.description).balance == .zero(.krw))
    }
}

extension AccountHarness {
    /// Account's command group on this harness's database and session.
    func commands() throws -> FeatureCommands {
        try RegistryBuilder(modules: AccountHarness.modules(database: database, clock: clock, session: session)).validate(
            root: AccountCommandsKey.self
        ).resolve()
    }
}
