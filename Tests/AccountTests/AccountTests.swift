import AccountData
import AccountDomain
import AccountInterface
import AuthInterface
import AuthTesting
import CommandKit
import DesignSystem
import Foundation
import GRDB
import Money
import Persistence
import Registry
import SharedKit
import Storage
import Testing
import TransferInterface
import TransferTesting
import ViewModelKit

@testable import AccountFeature

/// Account's real Domain and Data on an in-memory database, with a fake session.
struct AccountHarness {
    let database: AppDatabase
    let session = FakeSessionProvider(user: FakeSessionProvider.ada)
    let clock = ManualWallClock()
    let registry: ValidatedRegistry<AccountServiceKey>
    var service: any AccountUseCases { registry.resolve() }

    static let bo = AuthenticatedUser(id: "user-bo", email: "bo@example.com")

    /// Account's modules as the App composes them, on `database`, with fakes of what other features give
    /// (the session, Transfer's starter and recipients).
    static func modules(database: AppDatabase, clock: ManualWallClock, session: FakeSessionProvider) -> [any FeatureModule] {
        [
            ModuleOf.core(database: database, clock: clock),
            ModuleOf(
                "Fakes",
                [
                    .instance(SessionProviderKey.self, session), .instance(TransferStarterKey.self, FakeTransferStarter()),
                    .instance(RecipientsReadingKey.self, FakeRecipientsReading()),
                ]),
            AccountDataModule(),
            AccountFeatureModule(),
        ]
    }

    /// - Parameter store: Account's store on the database, instead of the real one (e.g. with other bounds).
    init(digits: [String] = [], store makeStore: (@Sendable (AppDatabase) -> any AccountStore)? = nil) throws {
        database = try AppDatabase.inMemory(migrations: [AccountMigrations.all])
        let draws = Locked(digits)
        registry = try RegistryBuilder(modules: AccountHarness.modules(database: database, clock: clock, session: session)).validate(
            root: AccountServiceKey.self
        )
        .overriding { [session, clock, database] overrides in
            if let makeStore {
                overrides.replace(.singleton(AccountStoreKey.self) { makeStore(database) })
            }
            overrides.replace(
                .singleton(AccountServiceKey.self, requires: AccountStoreKey.self) { store in
                    AccountService(
                        store: store, session: session, clock: clock,
                        drawDigits: {
                            draws.withLock { $0.isEmpty ? String(format: "%08d", Int.random(in: 0..<100_000_000)) : $0.removeFirst() }
                        })
                })
        }
    }

    func posting() throws -> any AccountPosting {
        try RegistryBuilder(modules: [
            AccountDataModule(), ModuleOf.core(database: database, clock: clock, extra: [.instance(SessionProviderKey.self, session)]),
        ]).validate(root: AccountPostingKey.self).resolve()
    }

    func audit() async throws -> [String] {
        try await RegistryBuilder(modules: [
            AccountDataModule(), ModuleOf.core(database: database, clock: clock, extra: [.instance(SessionProviderKey.self, session)]),
        ]).validate(root: LedgerCheckKey.self).resolve().run().problems
    }
}

@Suite("Account numbers")
struct AccountNumberTests {
    @Test func aNumberHasAProductCodeEightDigitsAndALuhnCheckDigit() throws {
        let number = try AccountNumber(prefix: "11012345678")
        #expect(number.description == "110-1234-5678-\(number.digits.last.map(String.init) ?? "")")
        #expect(try AccountNumber(number.description) == number)
        #expect(try AccountNumber(number.digits) == number)
        #expect(try AccountNumber(" " + number.description.replacingOccurrences(of: "-", with: " ") + " ") == number)
    }

    @Test func everySingleMistypedDigitIsCaught() throws {
        let number = try AccountNumber(prefix: "22087654321")
        for index in number.digits.indices {
            for replacement in "0123456789" where replacement != number.digits[index] {
                var typo = number.digits
                typo.replaceSubrange(index...index, with: String(replacement))
                #expect(throws: AccountNumberError.self) { try AccountNumber(typo) }
            }
        }
    }

    @Test(arguments: ["", "110-1234", "110-1234-5678-90", "abc-defg-hijk-l", "１１０１２３４５６７８９"])
    func malformedNumbersAreRefused(text: String) {
        #expect(throws: AccountNumberError.malformed(text)) { try AccountNumber(text) }
    }
}

@Suite("Account use cases")
struct AccountServiceTests {
    @Test func openingGivesAValidNumberOfTheKindsProductAndRetriesATakenOne() async throws {
        let harness = try AccountHarness(digits: ["12345678", "12345678", "87654321"])
        let first = try await harness.service.open(kind: .savings, name: "  Rainy day  ")
        let second = try await harness.service.open(kind: .savings, name: "Second")
        #expect(first.number.digits.hasPrefix("22012345678"))
        #expect(second.number.digits.hasPrefix("22087654321"))
        #expect(first.name == "Rainy day")
        #expect(first.balance == .zero(.krw))
        #expect(try await harness.service.list().map(\.number) == [first.number, second.number])
    }

    @Test(arguments: [
        ("", TextProblem.empty), ("   ", .empty), (String(repeating: "x", count: 41), .tooLong(41)),
        ("two\nlines", .forbiddenCharacter("\n")),
    ])
    func badNamesAreRefused(name: String, problem: TextProblem) async throws {
        let harness = try AccountHarness()
        await #expect(throws: AccountError.invalidName(problem)) { try await harness.service.open(kind: .checking, name: name) }
        #expect(AccountError.invalidName(problem).exitStatus == .dataError)
    }

    @Test func anUnknownCurrencyIsBadDataNamingTheCode() async throws {
        let harness = try AccountHarness()
        await #expect(throws: AccountError.unknownCurrency("XYZ")) {
            try await harness.service.open(kind: .checking, name: "X", currency: " XYZ ")
        }
        #expect(AccountError.unknownCurrency("XYZ").exitStatus == .dataError)
        #expect(
            AccountError.unknownCurrency("XYZ").message == "“XYZ” is not a currency Moa supports: use an ISO 4217 code such as KRW or USD.")
        #expect(AccountError.unknownCurrency("XYZ").hint?.contains("KRW, KWD") == true)
        #expect(try await harness.service.list().isEmpty)
    }

    @Test func withoutASessionEveryUseCaseSaysNotLoggedIn() async throws {
        let harness = try AccountHarness()
        harness.session.set(nil)
        await #expect(throws: NotLoggedInError()) { try await harness.service.list() }
        await #expect(throws: NotLoggedInError()) { try await harness.service.open(kind: .checking, name: "X") }
    }

    @Test func someoneElsesAccountIsNotFoundNotForbidden() async throws {
        let harness = try AccountHarness()
        let mine = try await harness.service.open(kind: .checking, name: "Mine")
        harness.session.set(AccountHarness.bo)
        await #expect(throws: AccountError.notFound(mine.number.description)) { try await harness.service.show(mine.number.description) }
        await #expect(throws: AccountError.notFound(mine.number.description)) {
            try await harness.service.deposit("1", to: mine.number.description, memo: nil)
        }
    }

    @Test func depositsAndWithdrawalsMoveExactAmountsAndRefuseOverdrafts() async throws {
        let harness = try AccountHarness()
        let account = try await harness.service.open(kind: .checking, name: "Main", currency: "USD")
        let number = account.number.description
        #expect(
            try await harness.service.deposit("1,234.56", to: number, memo: "pay").balanceAfter
                == Money(minorUnits: 123_456, currency: .usd))
        #expect(
            try await harness.service.withdraw("0.56", from: number, memo: nil).balanceAfter == Money(minorUnits: 123_400, currency: .usd))
        await #expect(
            throws: PostingError.insufficientFunds(
                account.number, balance: Money(minorUnits: 123_400, currency: .usd),
                requested: Money(minorUnits: 123_401, currency: .usd))
        ) {
            try await harness.service.withdraw("1,234.01", from: number, memo: nil)
        }
        await #expect(throws: AmountError.malformed(.tooManyFractionDigits("1.001", allowed: 2))) {
            try await harness.service.deposit("1.001", to: number, memo: nil)
        }
        await #expect(throws: AmountError.notPositive(.zero(.usd))) { try await harness.service.deposit("0", to: number, memo: nil) }
        #expect(try await harness.service.show(number).balance == Money(minorUnits: 123_400, currency: .usd))
        #expect(try await harness.audit().isEmpty)
    }

    @Test func closingNeedsAZeroBalanceAndAClosedAccountTakesNoMoney() async throws {
        let harness = try AccountHarness()
        let number = try await harness.service.open(kind: .checking, name: "Main").number.description
        _ = try await harness.service.deposit("10,000", to: number, memo: nil)
        await #expect {
            try await harness.service.close(number)
        } throws: { error in
            guard case .closeWithBalance(_, let balance)? = error as? AccountError else { return false }
            return balance == Money(minorUnits: 10_000, currency: .krw) && (error as? AccountError)?.exitStatus == .refused
        }
        _ = try await harness.service.withdraw("10,000", from: number, memo: nil)
        #expect(try await harness.service.close(number).isClosed)
        await #expect(throws: PostingError.closedAccount(try AccountNumber(number))) {
            try await harness.service.deposit("1", to: number, memo: nil)
        }
        await #expect(throws: AccountError.alreadyClosed(try AccountNumber(number))) { try await harness.service.close(number) }
    }

    @Test func historyPagesNewestFirstWithAnOpaqueCursorStableUnderNewEntries() async throws {
        let harness = try AccountHarness()
        let number = try await harness.service.open(kind: .checking, name: "Main").number.description
        for amount in 1...7 { _ = try await harness.service.deposit("\(amount)", to: number, memo: "#\(amount)") }
        let first = try await harness.service.history(of: number, limit: 3)
        #expect(first.entries.map(\.memo) == ["#7", "#6", "#5"])
        let cursor = try #require(first.nextCursor)
        #expect(!cursor.contains(where: \.isNumber) || cursor != String(first.entries.last?.id ?? 0))
        _ = try await harness.service.deposit("100", to: number, memo: "new") // arrives between the pages
        let second = try await harness.service.history(of: number, limit: 3, after: cursor)
        #expect(second.entries.map(\.memo) == ["#4", "#3", "#2"])
        let last = try await harness.service.history(of: number, limit: 3, after: second.nextCursor)
        #expect(last.entries.map(\.memo) == ["#1"])
        #expect(last.nextCursor == nil)
        await #expect(throws: AccountError.invalidCursor) { try await harness.service.history(of: number, after: "not-a-cursor") }
        await #expect(throws: AccountError.invalidLimit(0)) { try await harness.service.history(of: number, limit: 0) }
    }
}

@Suite("Account posting (the seam Transfer uses)")
struct AccountPostingTests {
    private func twoAccounts(_ harness: AccountHarness) async throws -> (AccountSummary, AccountSummary) {
        let a = try await harness.service.open(kind: .checking, name: "A")
        let b = try await harness.service.open(kind: .savings, name: "B")
        _ = try await harness.service.deposit("50,000", to: a.number.description, memo: nil)
        return (a, b)
    }

    private func request(
        _ from: AccountSummary, _ to: AccountSummary, _ minor: Int64, currency: Currency = .krw,
        by user: UserID = FakeSessionProvider.ada.id
    ) -> PostingRequest {
        PostingRequest(
            from: from.number, to: to.number, amount: Money(minorUnits: minor, currency: currency), memo: "rent",
            reference: "transfer-1", initiatedBy: user, at: Date())
    }

    @Test func aPostingWritesTwoEntriesThatCancelAndBothBalances() async throws {
        let harness = try AccountHarness()
        let (a, b) = try await twoAccounts(harness)
        let posting = try harness.posting()
        let receipt = try await harness.database.perform { try posting.post(request(a, b, 20_000), in: $0) }
        #expect(receipt.from.balance.minorUnits == 30_000)
        #expect(receipt.to.balance.minorUnits == 20_000)
        let entries = try harness.database.read { db in
            try Int64.fetchAll(db, sql: "SELECT amount FROM account_entries WHERE reference = 'transfer-1' ORDER BY id")
        }
        #expect(entries == [-20_000, 20_000])
        #expect(try await harness.audit().isEmpty)
    }

    @Test func everyRefusalIsTypedAndLeavesNothingBehind() async throws {
        let harness = try AccountHarness()
        let (a, b) = try await twoAccounts(harness)
        let usd = try await harness.service.open(kind: .checking, name: "Dollars", currency: "USD")
        let posting = try harness.posting()
        let cases: [(PostingRequest, PostingError)] = [
            (request(a, a, 1), .sameAccount(a.number)),
            (request(a, b, 0), .amountNotPositive(.zero(.krw))),
            (
                request(a, b, 50_001),
                .insufficientFunds(
                    a.number, balance: Money(minorUnits: 50_000, currency: .krw), requested: Money(minorUnits: 50_001, currency: .krw))
            ),
            (request(a, usd, 1), .currencyMismatch(from: .krw, to: .usd)),
            (request(a, b, 1, by: AccountHarness.bo.id), .notOwner(a.number)),
            (
                PostingRequest(
                    from: a.number, to: try AccountNumber(prefix: "11099999999"), amount: Money(minorUnits: 1, currency: .krw), memo: nil,
                    reference: "x", initiatedBy: FakeSessionProvider.ada.id, at: Date()),
                .unknownAccount(try AccountNumber(prefix: "11099999999"))
            ),
        ]
        for (request, refusal) in cases {
            await #expect(throws: refusal) { try await harness.database.perform { try posting.post(request, in: $0) } }
            switch refusal {
            case .unknownAccount: #expect(refusal.exitStatus == .unavailable)
            case .amountNotPositive: #expect(refusal.exitStatus == .dataError)
            default: #expect(refusal.exitStatus == .refused)
            }
        }
        _ = try await harness.service.close(b.number.description)
        await #expect(throws: PostingError.closedAccount(b.number)) {
            try await harness.database.perform { try posting.post(request(a, b, 1), in: $0) }
        }
        #expect(try await harness.service.show(a.number.description).balance.minorUnits == 50_000)
        #expect(try await harness.audit().isEmpty)
    }

    @Test func whenTheCallersWorkFailsAfterThePostingEverythingRollsBack() async throws {
        struct TransferRecordFailed: Error {}
        let harness = try AccountHarness()
        let (a, b) = try await twoAccounts(harness)
        let posting = try harness.posting()
        await #expect(throws: TransferRecordFailed.self) {
            try await harness.database.perform { transaction in
                _ = try posting.post(request(a, b, 20_000), in: transaction)
                throw TransferRecordFailed()
            }
        }
        #expect(try await harness.service.show(a.number.description).balance.minorUnits == 50_000)
        #expect(
            try harness.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM account_entries WHERE reference IS NOT NULL") } == 0
        )
    }

    @Test func theAuditFindsABalanceThatDoesNotMatchItsEntries() async throws {
        let harness = try AccountHarness()
        let (a, _) = try await twoAccounts(harness)
        try await harness.database.write { db in
            try db.execute(sql: "UPDATE account_accounts SET balance = balance + 1 WHERE number = ?", arguments: [a.number.digits])
        }
        let problems = try await harness.audit()
        #expect(problems.count == 1)
        #expect(problems.first?.contains("has balance 50001 but its entries sum to 50000") == true)
    }
}

@Suite("Account commands")
struct AccountCommandTests {
    @Test func listPrintsATableAndJSONWithStableFields() async throws {
        let harness = try AccountHarness(digits: ["00000001"])
        _ = try await harness.service.open(kind: .checking, name: "생활비 통장")
        let group = try RegistryBuilder(
            modules: AccountHarness.modules(database: harness.database, clock: harness.clock, session: harness.session)
        ).validate(root: AccountCommandsKey.self).resolve()
        let out = CapturingOutput()
        #expect(try await group.run(try AccountCommand.parseAsRoot(["list"]), context: CommandContext(out: out, err: CapturingOutput())))
        #expect(out.text.contains("110-0000-0001-"))
        #expect(out.text.contains("생활비 통장"))
        let json = CapturingOutput()
        _ = try await group.run(
            try AccountCommand.parseAsRoot(["list", "--json"]), context: CommandContext(json: true, out: json, err: CapturingOutput()))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [[String: Any]]
        #expect(decoded?.first?["type"] as? String == "checking")
        #expect((decoded?.first?["balance"] as? [String: Any])?["minor_units"] as? Int == 0)
        #expect(decoded?.first?["opened_at"] != nil)
    }
}

@Suite("Accounts coordinator (interactive mode)")
@MainActor
struct AccountsCoordinatorTests {
    @Test func listDetailSendConfirmReceiptAndBackToTheDetail() async throws {
        let harness = try AccountHarness(digits: ["00000001"])
        let account = try await harness.service.open(kind: .checking, name: "Everyday")
        _ = try await harness.service.deposit("100,000", to: account.number.description, memo: nil)
        let transfers = FakeTransferStarter(balanceAfter: Money(minorUnits: 70_000, currency: .krw))
        let out = CapturingOutput()
        let screen = Screen(
            context: CommandContext(out: out, err: CapturingOutput()),
            input: ScriptedLineInput([
                "1", // the first account
                "1", // send money
                "220-8765-4321-0", "30,000", "rent",
                "y", // confirm
                "", // leave the receipt
                "0", // back from the detail
                "0", // back from the list: done
            ]))
        let coordinator = AccountsCoordinator(screen: screen, service: harness.service, transfers: transfers)
        await coordinator.run()

        let routes = coordinator.router.history.map { route -> String in
            switch route {
            case .list: "list"
            case .detail: "detail"
            case .send: "send"
            case .receipt: "receipt"
            }
        }
        #expect(routes == ["list", "detail", "send", "receipt", "detail", "list"])
        #expect(
            transfers.drafts == [TransferDraft(from: account.number.description, to: "220-8765-4321-0", amount: "30,000", memo: "rent")])
        #expect(out.text.contains("70,000 KRW")) // the receipt's balance after
    }

    @Test func decliningTheConfirmationSendsNothing() async throws {
        let harness = try AccountHarness()
        _ = try await harness.service.open(kind: .checking, name: "Everyday")
        let transfers = FakeTransferStarter()
        let screen = Screen(
            context: CommandContext(out: CapturingOutput(), err: CapturingOutput()),
            input: ScriptedLineInput(["1", "1", "220-8765-4321-0", "10", "", "n", "0", "0"]))
        let coordinator = AccountsCoordinator(screen: screen, service: harness.service, transfers: transfers)
        await coordinator.run()
        #expect(transfers.drafts.isEmpty)
    }

    /// Ada's favourites and recents as Transfer would list them: @mom, @Rent; then the newest recent
    /// first (one of them @mom's number, one the source account itself — neither offered twice).
    static func recipients(source: AccountNumber) -> FakeRecipientsReading {
        let date = Date(timeIntervalSince1970: 1_767_225_600)
        return FakeRecipientsReading(
            favourites: [
                FavouriteRecipient(alias: "mom", accountNumber: "220-8765-4321-0", addedAt: date),
                FavouriteRecipient(alias: "Rent", accountNumber: "110-0000-0003-1", addedAt: date),
            ],
            recents: [
                RecentRecipient(accountNumber: "330-0000-0001-2", lastSentAt: date),
                RecentRecipient(accountNumber: "220-8765-4321-0", lastSentAt: date),
                RecentRecipient(accountNumber: source.description, lastSentAt: date),
                RecentRecipient(accountNumber: "110-0000-0009-9", lastSentAt: date),
            ])
    }

    /// Runs the flow list → detail → send with `destination` typed at the destination prompt, then
    /// amount 10, no memo, confirm, leave the receipt, back, back.
    func sendTyping(_ destination: String, recipients: (any RecipientsReading)?) async throws -> (drafts: [TransferDraft], out: String) {
        let harness = try AccountHarness(digits: ["00000001"])
        let account = try await harness.service.open(kind: .checking, name: "Everyday")
        _ = try await harness.service.deposit("100", to: account.number.description, memo: nil)
        let transfers = FakeTransferStarter()
        let out = CapturingOutput()
        let screen = Screen(
            context: CommandContext(out: out, err: CapturingOutput()),
            input: ScriptedLineInput(["1", "1", destination, "10", "", "y", "", "0", "0"]))
        let offered = recipients ?? Self.recipients(source: account.number)
        let coordinator = AccountsCoordinator(screen: screen, service: harness.service, transfers: transfers, recipients: offered)
        await coordinator.run()
        return (transfers.drafts, out.text)
    }

    @Test func theDestinationPromptListsFavouritesThenRecentsNumbered() async throws {
        let (drafts, out) = try await sendTyping("1", recipients: nil)
        #expect(
            out.contains(
                """
                Send to
                  1. @mom · 220-8765-4321-0
                  2. @Rent · 110-0000-0003-1
                  3. 330-0000-0001-2 · recent
                  4. 110-0000-0009-9 · recent
                  0. Back
                """))
        #expect(out.contains("To (a number from the list, an account number or @alias): Amount:"))
        #expect(drafts.map(\.to) == ["@mom"])
        #expect(out.contains("@mom · 220-8765-4321-0"))
    }

    @Test(arguments: [
        ("2", "@Rent"), ("3", "330-0000-0001-2"), ("4", "110-0000-0009-9"), ("220-8765-4321-0", "220-8765-4321-0"),
        ("@MOM", "@mom"),
    ])
    func aNumberPicksFromTheListAnythingElseGoesToTransferAsTyped(typed: String, expected: String) async throws {
        let (drafts, _) = try await sendTyping(typed, recipients: nil)
        #expect(drafts.map(\.to) == [expected])
    }

    @Test("each wrong answer is said and asked again at once: the destination before the amount, the amount before the memo")
    func wrongAnswersAreAskedAgainBeforeTheNextQuestion() async throws {
        let harness = try AccountHarness(digits: ["00000001"])
        let account = try await harness.service.open(kind: .checking, name: "Everyday")
        _ = try await harness.service.deposit("100", to: account.number.description, memo: nil)
        let transfers = FakeTransferStarter()
        let out = CapturingOutput()
        let screen = Screen(
            context: CommandContext(out: out, err: CapturingOutput()),
            input: ScriptedLineInput([
                "1", "1",
                "220-1111-2222-3", // a wrong check digit
                "@carol", // no such favourite
                account.number.description, // the source itself
                "110-0000-0003-1", // fine
                "1e6", // not an amount
                "1,000", // more than the balance of 100
                "10", // fine
                "a\u{1B}[31mb", // a memo with a control character
                "rent", // fine
                "y", "", "0", "0",
            ]))
        let coordinator = AccountsCoordinator(
            screen: screen, service: harness.service, transfers: transfers, recipients: Self.recipients(source: account.number))
        await coordinator.run()
        #expect(transfers.drafts == [TransferDraft(from: account.number.description, to: "110-0000-0003-1", amount: "10", memo: "rent")])
        let text = out.text
        let carol = try #require(text.range(of: "You have no favourite recipient called @carol."))
        let firstAmount = try #require(text.range(of: "Amount:"))
        #expect(carol.upperBound < firstAmount.lowerBound, "the destination is checked before the amount is asked")
        #expect(text.components(separatedBy: "To (a number from the list, an account number or @alias):").count - 1 == 4)
        #expect(text.components(separatedBy: "Amount:").count - 1 == 3)
        #expect(text.components(separatedBy: "Memo (optional):").count - 1 == 2)
        #expect(text.components(separatedBy: "Send it?").count - 1 == 1)
    }

    @Test func zeroAtTheDestinationGoesBackWithoutSending() async throws {
        let harness = try AccountHarness()
        let account = try await harness.service.open(kind: .checking, name: "Everyday")
        let transfers = FakeTransferStarter()
        let screen = Screen(
            context: CommandContext(out: CapturingOutput(), err: CapturingOutput()),
            input: ScriptedLineInput(["1", "1", "0", "0", "0"]))
        let coordinator = AccountsCoordinator(
            screen: screen, service: harness.service, transfers: transfers,
            recipients: Self.recipients(source: account.number))
        await coordinator.run()
        #expect(transfers.drafts.isEmpty)
    }

    @Test func withNoRecipientsOrWhenTheyCannotBeReadTheFlowAsksForTheNumberAlone() async throws {
        let failing = FakeRecipientsReading()
        failing.fail(with: UnexpectedError(sentence: AccountsViewModel.unexpectedErrorSentence, reason: "disk"))
        for recipients: any RecipientsReading in [FakeRecipientsReading(), failing] {
            let (drafts, out) = try await sendTyping("220-8765-4321-0", recipients: recipients)
            #expect(out.contains("To account number: Amount: Memo (optional): ┌─ Send money ─"))
            #expect(!out.contains("Send to\n"))
            #expect(drafts.map(\.to) == ["220-8765-4321-0"])
        }
    }
}
