import AccountInterface
import AccountTesting
import AuthInterface
import AuthTesting
import Foundation
import Money
import SettingsInterface
import SharedKit
import Testing
import TransferDomain
import TransferInterface

@Suite("SendMoney: sending and every refusal, on fakes")
struct SendMoneyTests {
    // MARK: Sending

    @Test func aTransferMovesTheMoneyAndIsRecordedWithTheSendersNewBalance() async throws {
        let h = try Harness()
        let receipt = try await h.send(h.checking, to: h.bobs, "50,000", memo: "  dinner ", key: "k-1")
        let transfer = receipt.transfer
        #expect(!receipt.replayed)
        #expect(transfer.from == h.checking.description && transfer.to == h.bobs.description)
        #expect(transfer.amount == krw(50_000))
        #expect(transfer.memo == "dinner")
        #expect(transfer.idempotencyKey == "k-1")
        #expect(transfer.initiatedBy == FakeSessionProvider.ada.id)
        #expect(transfer.createdAt == h.clock.now())
        #expect(transfer.fromBalanceAfter == krw(49_950_000))
        #expect(h.accounts.balance(of: h.bobs) == krw(1_050_000))
        #expect(h.store.all == [transfer])
        let posting = try #require(h.accounts.postings.first)
        #expect(posting.reference == transfer.id.rawValue)
        #expect(posting.initiatedBy == FakeSessionProvider.ada.id)
    }

    @Test func theSourceMayBeNamedByItsID() async throws {
        let h = try Harness()
        let mine = AccountSummary(
            id: "acc-ada-1", number: try AccountNumber(prefix: "33000000008"), name: "Invest", kind: .investment,
            ownerID: FakeSessionProvider.ada.id, balance: krw(5_000), isClosed: false, openedAt: Date(timeIntervalSince1970: 0))
        let accounts = FakeAccounts([mine])
        try accounts.add(owner: Harness.bob.id, number: h.bobs.digits, balance: krw(0))
        let sendMoney = SendMoney(
            session: h.session, directory: accounts, posting: accounts, settings: h.settings, unitOfWork: NoDatabaseUnitOfWork(),
            store: h.store, recipients: h.book(), inbox: h.inbox, clock: h.clock, calendar: h.calendar)
        let receipt = try await sendMoney.send(TransferDraft(from: "acc-ada-1", to: h.bobs.description, amount: "5,000"))
        #expect(receipt.transfer.from == mine.number.description)
        #expect(accounts.balance(of: h.bobs) == krw(5_000))
    }

    @Test func anAmountIsReadInTheSourceAccountsCurrency() async throws {
        let h = try Harness()
        let receipt = try await h.send(h.dollars, to: h.bobsDollars, "12.50")
        #expect(receipt.transfer.amount == Money(minorUnits: 1_250, currency: .usd))
    }

    @Test func withoutAKeyEachSendIsANewTransferWithAGeneratedKey() async throws {
        let h = try Harness()
        let first = try await h.send(h.checking, to: h.bobs, "1,000")
        let second = try await h.send(h.checking, to: h.bobs, "1,000")
        #expect(first.transfer.id != second.transfer.id)
        #expect(!first.transfer.idempotencyKey.isEmpty && first.transfer.idempotencyKey != second.transfer.idempotencyKey)
        #expect(h.accounts.postings.count == 2)
    }

    @Test func nobodyLoggedInIsRefusedWithExitStatus77() async throws {
        let h = try Harness()
        h.session.set(nil)
        await #expect(throws: NotLoggedInError()) { try await h.send(h.checking, to: h.bobs, "1,000") }
        #expect(h.accounts.postings.isEmpty)
    }

    // MARK: Input

    @Test func aMistypedDestinationIsRefusedBeforeAnyLookup() async throws {
        let h = try Harness()
        var typo = Array(h.bobs.digits)
        typo[5] = typo[5] == "9" ? "8" : "9"
        let mistyped = String(typo)
        await #expect(throws: AccountNumberError.checkDigitMismatch(mistyped)) {
            try await h.sendMoney().send(TransferDraft(from: h.checking.description, to: mistyped, amount: "1,000"))
        }
        await #expect(throws: AccountNumberError.malformed("12-34")) {
            try await h.sendMoney().send(TransferDraft(from: h.checking.description, to: "12-34", amount: "1,000"))
        }
        #expect(h.directory.lookups == 0)
        #expect(AccountNumberError.checkDigitMismatch(mistyped).exitStatus == .dataError)
    }

    @Test(arguments: ["ten", "1e5", "12.5", "", "10 USD", "NaN", "5,000원"])
    func anAmountThatIsNotOneInTheAccountsCurrencyIsBadData(_ text: String) async throws {
        let h = try Harness()
        let error = await #expect(throws: AmountError.self) { try await h.send(h.checking, to: h.bobs, text) }
        guard case .malformed? = error else {
            Issue.record("not malformed: \(String(describing: error))")
            return
        }
        let message = error?.message ?? ""
        #expect(!message.isEmpty && message.hasSuffix(".") && !message.hasSuffix(".."))
        #expect(error?.exitStatus == .dataError)
        #expect(h.accounts.postings.isEmpty)
    }

    @Test(arguments: ["0", "-5,000"])
    func anAmountOfZeroOrLessIsBadData(_ text: String) async throws {
        let h = try Harness()
        let amount = try Money.parse(text, currency: .krw)
        await #expect(throws: AmountError.notPositive(amount)) { try await h.send(h.checking, to: h.bobs, text) }
        #expect(AmountError.notPositive(amount).exitStatus == .dataError)
        #expect(AmountError.notPositive(amount).message == "Amounts are positive: \(amount.formatted()) is not more than zero.")
        #expect(h.accounts.postings.isEmpty && h.store.all.isEmpty)
    }

    @Test(arguments: ["100,000,000,001", "9000000000000000000", "99999999999999999999999"])
    func anAmountAboveThePerOperationMaximumIsBadDataWhateverTheLimits(_ text: String) async throws {
        let h = try Harness()
        h.limits(perTransfer: 1_000_000_000_000, daily: 1_000_000_000_000)
        let error = await #expect(throws: AmountError.self) { try await h.send(h.checking, to: h.bobs, text) }
        guard case .aboveMaximum(_, let maximum)? = error else {
            Issue.record("not aboveMaximum: \(String(describing: error))")
            return
        }
        #expect(maximum == krw(100_000_000_000))
        #expect(error?.exitStatus == .dataError)
        #expect(h.accounts.postings.isEmpty)
    }

    @Test func aMemoOrAKeyThatCannotBeStoredIsBadData() async throws {
        let h = try Harness()
        await #expect(throws: MemoError(problem: .tooLong(141))) {
            try await h.send(h.checking, to: h.bobs, "1", memo: String(repeating: "가", count: 141))
        }
        await #expect(throws: MemoError(problem: .forbiddenCharacter("\n"))) {
            try await h.send(h.checking, to: h.bobs, "1", memo: "two\nlines")
        }
        let refused: [(String, Unicode.Scalar)] = [("b\u{1B}[31mred", "\u{1B}"), ("\u{202E}evil", "\u{202E}"), ("c1\u{9B}", "\u{9B}")]
        for (memo, scalar) in refused {
            await #expect(throws: MemoError(problem: .forbiddenCharacter(scalar))) {
                try await h.send(h.checking, to: h.bobs, "1", memo: memo)
            }
        }
        #expect(MemoError(problem: .tooLong(141)).exitStatus == .dataError)
        await #expect(throws: TransferError.invalidIdempotencyKey("a\u{202E}b")) {
            try await h.send(h.checking, to: h.bobs, "1", key: "a\u{202E}b")
        }
        await #expect(throws: TransferError.invalidIdempotencyKey("a\u{7}b")) {
            try await h.send(h.checking, to: h.bobs, "1", key: "a\u{7}b")
        }
        let long = String(repeating: "k", count: 129)
        await #expect(throws: TransferError.invalidIdempotencyKey(long)) { try await h.send(h.checking, to: h.bobs, "1", key: long) }
        #expect(h.accounts.postings.isEmpty)
    }

    // MARK: Limits

    @Test func theAmountMayEqualButNotExceedThePerTransferLimit() async throws {
        let h = try Harness()
        h.limits(perTransfer: 100_000, daily: 1_000_000)
        _ = try await h.send(h.checking, to: h.bobs, "100,000")
        let refusal = TransferError.overPerTransferLimit(amount: krw(100_001), limit: krw(100_000))
        await #expect(throws: refusal) { try await h.send(h.checking, to: h.bobs, "100,001") }
        #expect(refusal.message == "100,001 KRW is above the per-transfer limit of 100,000 KRW.")
        #expect(refusal.exitStatus == .refused)
        #expect(h.accounts.postings.count == 1)
    }

    @Test func theDefaultLimitsAreFiveAndTenMillionWon() async throws {
        let h = try Harness()
        await #expect(throws: TransferError.overPerTransferLimit(amount: krw(5_000_001), limit: krw(5_000_000))) {
            try await h.send(h.checking, to: h.bobs, "5,000,001")
        }
        _ = try await h.send(h.checking, to: h.bobs, "5,000,000")
        _ = try await h.send(h.checking, to: h.bobs, "5,000,000")
        await #expect(throws: TransferError.dailyLimitExceeded(amount: krw(1), limit: krw(10_000_000), remaining: krw(0))) {
            try await h.send(h.checking, to: h.bobs, "1")
        }
    }

    @Test func goingOverTheDailyLimitSaysHowMuchIsLeftToday() async throws {
        let h = try Harness()
        h.limits(perTransfer: 300_000, daily: 500_000)
        _ = try await h.send(h.checking, to: h.bobs, "300,000")
        _ = try await h.send(h.checking, to: h.savings, "150,000") // to one's own account counts too
        let refusal = TransferError.dailyLimitExceeded(amount: krw(60_000), limit: krw(500_000), remaining: krw(50_000))
        await #expect(throws: refusal) { try await h.send(h.checking, to: h.bobs, "60,000") }
        #expect(refusal.message == "Sending 60,000 KRW would go over today's limit of 500,000 KRW: 50,000 KRW is left today.")
        #expect(refusal.exitStatus == .refused)
        _ = try await h.send(h.checking, to: h.bobs, "50,000") // exactly what is left
        #expect(h.accounts.postings.count == 3)
    }

    @Test func theDayIsTheUsersCalendarDayNotUTCs() async throws {
        let h = try Harness()
        h.limits(perTransfer: 1_000_000, daily: 1_000_000)
        h.clock.set(seoul(day: 1, 0, 30)) // 2025-12-31T15:30Z: still "yesterday" in UTC
        _ = try await h.send(h.checking, to: h.bobs, "600,000")
        h.clock.set(seoul(day: 1, 23, 59)) // 2026-01-01T14:59Z: the same Seoul day
        await #expect(throws: TransferError.dailyLimitExceeded(amount: krw(600_000), limit: krw(1_000_000), remaining: krw(400_000))) {
            try await h.send(h.checking, to: h.bobs, "600,000")
        }
        _ = try await h.send(h.checking, to: h.bobs, "400,000")
        h.clock.advance(by: 60) // midnight in Seoul: a new day, a new allowance
        _ = try await h.send(h.checking, to: h.bobs, "1,000,000")
        await #expect(throws: TransferError.dailyLimitExceeded(amount: krw(1), limit: krw(1_000_000), remaining: krw(0))) {
            try await h.send(h.checking, to: h.bobs, "1")
        }
    }

    @Test func eachUsersDayIsTheirOwn() async throws {
        let h = try Harness()
        h.limits(perTransfer: 500_000, daily: 500_000)
        _ = try await h.send(h.checking, to: h.bobs, "500,000")
        h.session.set(Harness.bob)
        _ = try await h.send(h.bobs, to: h.checking, "500,000")
    }

    /// Issue B: with default settings a USD account sent 6,000,000.00 USD, twice in a day.
    @Test func everyCurrencyHasItsOwnLimitsNotJustWon() async throws {
        let h = try Harness()
        h.limits(perTransfer: 100, daily: 100) // won: no conversion, so they say nothing about dollars
        let usd = { (cents: Int64) in Money(minorUnits: cents, currency: .usd) }
        await #expect(throws: TransferError.overPerTransferLimit(amount: usd(600_000_000), limit: usd(350_000))) {
            try await h.send(h.dollars, to: h.bobsDollars, "6,000,000.00")
        }
        _ = try await h.send(h.dollars, to: h.bobsDollars, "3,500.00")
        _ = try await h.send(h.dollars, to: h.bobsDollars, "3,000.00")
        let refusal = TransferError.dailyLimitExceeded(amount: usd(50_001), limit: usd(700_000), remaining: usd(50_000))
        await #expect(throws: refusal) { try await h.send(h.dollars, to: h.bobsDollars, "500.01") }
        #expect(refusal.exitStatus == .refused)
        #expect(refusal.hint == "Send the rest tomorrow: the limits of USD are fixed (see `moa transfer send --help`).")
        #expect(
            TransferError.overPerTransferLimit(amount: krw(101), limit: krw(100)).hint
                == "Split it, or raise transfer.per-transfer-limit with `moa settings set`.")
        #expect(h.accounts.postings.count == 2)
    }

    @Test func everySupportedCurrencyHasDefaultLimitsAndOneWithoutLimitsIsRefused() async throws {
        for currency in Currency.supported {
            let limits = try #require(SettingsSnapshot.defaults.transferLimits.limits(in: currency), "\(currency) has no limits")
            #expect(limits.perTransfer.currency == currency && limits.daily.currency == currency)
            #expect(limits.perTransfer.isPositive && limits.daily.minorUnits >= limits.perTransfer.minorUnits)
            #expect(limits.daily.minorUnits <= 100_000_000_000)
        }
        let h = try Harness()
        h.settings.update { $0.transferLimits = TransferLimits(perTransfer: krw(1_000), daily: krw(1_000), others: [:]) }
        await #expect(throws: TransferError.noLimits(.usd)) { try await h.send(h.dollars, to: h.bobsDollars, "1.00") }
        #expect(TransferError.noLimits(.usd).exitStatus == .refused)
        #expect(TransferError.noLimits(.usd).message == "Transfers in USD have no limits set, so none can be sent.")
        #expect(h.accounts.postings.isEmpty)
    }

    // MARK: Account's refusals, passed through

    @Test func insufficientFundsComesFromTheLedger() async throws {
        let h = try Harness(balance: 10_000)
        await #expect(throws: PostingError.insufficientFunds(h.checking, balance: krw(10_000), requested: krw(10_001))) {
            try await h.send(h.checking, to: h.bobs, "10,001")
        }
        #expect(h.store.all.isEmpty)
        #expect(PostingError.insufficientFunds(h.checking, balance: krw(10_000), requested: krw(10_001)).exitStatus == .refused)
    }

    @Test func theSameAccountOnBothSidesIsRefused() async throws {
        let h = try Harness()
        await #expect(throws: PostingError.sameAccount(h.checking)) { try await h.send(h.checking, to: h.checking, "1,000") }
        #expect(h.store.all.isEmpty)
    }

    @Test func accountsInDifferentCurrenciesAreRefused() async throws {
        let h = try Harness()
        await #expect(throws: PostingError.self) { try await h.send(h.checking, to: h.bobsDollars, "1,000") }
        do {
            _ = try await h.send(h.checking, to: h.bobsDollars, "1,000")
        } catch let error as PostingError {
            guard case .currencyMismatch = error else {
                Issue.record("not a currency mismatch: \(error)")
                return
            }
            #expect(error.exitStatus == .refused)
        }
        #expect(h.store.all.isEmpty)
    }

    @Test func closedAccountsAreRefused() async throws {
        let h = try Harness()
        await #expect(throws: PostingError.closedAccount(h.closed)) { try await h.send(h.checking, to: h.closed, "1,000") }
        await #expect(throws: PostingError.closedAccount(h.closed)) { try await h.send(h.closed, to: h.checking, "1,000") }
        #expect(h.store.all.isEmpty)
    }

    @Test func unknownAccountsAreRefused() async throws {
        let h = try Harness()
        await #expect(throws: PostingError.unknownAccount(h.nobodys)) { try await h.send(h.checking, to: h.nobodys, "1,000") }
        await #expect(throws: TransferError.unknownSourceAccount(h.nobodys.description)) {
            try await h.send(h.nobodys, to: h.checking, "1,000")
        }
        await #expect(throws: TransferError.unknownSourceAccount("my-wallet")) {
            try await h.sendMoney().send(TransferDraft(from: "my-wallet", to: h.bobs.description, amount: "1"))
        }
        #expect(TransferError.unknownSourceAccount("my-wallet").exitStatus == .unavailable)
        // Issue E: a well-formed number that no account has is "not found", 69 — not a refusal.
        #expect(PostingError.unknownAccount(h.nobodys).exitStatus == .unavailable)
        #expect(h.store.all.isEmpty)
    }

    @Test func someoneElsesAccountIsNotFoundAsASource() async throws {
        let h = try Harness()
        // Exactly what a number nobody has gets: the sender learns nothing of Bo's account.
        await #expect(throws: TransferError.unknownSourceAccount(h.bobs.description)) { try await h.send(h.bobs, to: h.checking, "1,000") }
        await #expect(throws: TransferError.unknownSourceAccount(h.nobodys.description)) {
            try await h.send(h.nobodys, to: h.checking, "1,000")
        }
        #expect(h.accounts.postings.isEmpty && h.store.all.isEmpty)
        #expect(TransferError.unknownSourceAccount(h.bobs.description).exitStatus == .unavailable)
    }

    // MARK: Idempotency

    @Test func theSameKeyAndRequestReturnTheOriginalTransferWithoutPostingAgain() async throws {
        let h = try Harness()
        let first = try await h.send(h.checking, to: h.bobs, "70,000", memo: "rent", key: "rent-2026-01")
        h.clock.advance(by: 3600)
        let again = try await h.send(h.checking, to: h.bobs, "70,000", memo: " rent ", key: " rent-2026-01 ")
        #expect(again.replayed)
        #expect(again.transfer == first.transfer)
        #expect(h.accounts.postings.count == 1)
        #expect(h.accounts.balance(of: h.checking) == krw(49_930_000))
        #expect(h.store.all.count == 1)
    }

    @Test func theSameKeyForADifferentRequestIsRefused() async throws {
        let h = try Harness()
        _ = try await h.send(h.checking, to: h.bobs, "70,000", memo: "rent", key: "k")
        for (to, amount, memo) in [
            (h.bobs, "70,001", "rent"), (h.savings, "70,000", "rent"), (h.bobs, "70,000", "other"), (h.bobs, "70,000", nil),
        ] {
            await #expect(throws: TransferError.idempotencyKeyReused("k")) {
                try await h.send(h.checking, to: to, amount, memo: memo, key: "k")
            }
        }
        #expect(TransferError.idempotencyKeyReused("k").exitStatus == .refused)
        #expect(
            TransferError.idempotencyKeyReused("k").message
                == "The idempotency key “k” was already used for a different transfer, so this one was not sent.")
        #expect(h.accounts.postings.count == 1)
    }

    @Test func aReplayIsAnsweredEvenWhenTheLimitsWouldNowRefuseIt() async throws {
        let h = try Harness()
        h.limits(perTransfer: 100_000, daily: 100_000)
        let first = try await h.send(h.checking, to: h.bobs, "100,000", key: "once")
        h.limits(perTransfer: 10, daily: 10)
        let again = try await h.send(h.checking, to: h.bobs, "100,000", key: "once")
        #expect(again.replayed && again.transfer.id == first.transfer.id)
    }

    @Test func keysAreKeptAcrossDaysAndScopedPerUser() async throws {
        let h = try Harness()
        let adas = try await h.send(h.checking, to: h.bobs, "1,000", key: "shared-key")
        h.clock.advance(by: 90 * 86_400)
        #expect(try await h.send(h.checking, to: h.bobs, "1,000", key: "shared-key").replayed)
        h.session.set(Harness.bob)
        let bobs = try await h.send(h.bobs, to: h.checking, "1,000", key: "shared-key")
        #expect(!bobs.replayed && bobs.transfer.id != adas.transfer.id)
        #expect(h.accounts.postings.count == 2)
    }
}
