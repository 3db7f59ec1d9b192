import AccountInterface
import Foundation
import Money
import SharedKit

/// The double-entry ledger's postings, written once for every engine: what each reads, checks and
/// writes through ``LedgerRows`` inside the caller's write transaction. The engine supplies only its
/// SQL; it never decides a balance or an entry.
public enum Ledger {
    /// A transfer between customer accounts (``AccountPosting``): the rules of
    /// ``PostingRules/checkTransfer(_:from:to:)``, both balances and two entries — a group of one.
    public static func transfer(_ request: PostingRequest, _ rows: some LedgerRows) throws -> PostingReceipt {
        let group = LedgerGroup(rows)
        let planned = try group.planned(request)
        let ids = try group.written()
        return PostingReceipt(from: planned.from, to: planned.to, debitEntryID: ids[planned.debit], creditEntryID: ids[planned.credit])
    }

    /// Money in from outside (cash): a credit of the customer's account, a debit of one of the
    /// currency's cash accounts (``cashAccount(_:taking:bound:at:_:)``). Returns the credit.
    public static func deposit(
        _ amount: Money, to number: AccountNumber, memo: String?, at: Date, cashBound: Int64 = PostingRules.cashBound,
        _ rows: some LedgerRows
    ) throws -> LedgerEntry {
        let account = try customerAccount(number, currency: amount.currency, rows)
        let cash = try cashAccount(amount.currency, taking: 0 - amount.minorUnits, bound: cashBound, at: at, rows)
        var plan = LedgerPlan()
        let (_, credit) = try plan.move(amount, from: cash, to: account, kinds: (.withdrawal, .deposit), memo: memo, reference: nil, at: at)
        return plan.entries[credit].written(id: try written(plan, rows)[credit])
    }

    /// Money out (cash): refused below zero. Returns the debit.
    public static func withdraw(
        _ amount: Money, from number: AccountNumber, memo: String?, at: Date, cashBound: Int64 = PostingRules.cashBound,
        _ rows: some LedgerRows
    ) throws -> LedgerEntry {
        let account = try customerAccount(number, currency: amount.currency, rows)
        let cash = try cashAccount(amount.currency, taking: amount.minorUnits, bound: cashBound, at: at, rows)
        var plan = LedgerPlan()
        let (debit, _) = try plan.move(amount, from: account, to: cash, kinds: (.withdrawal, .deposit), memo: memo, reference: nil, at: at)
        return plan.entries[debit].written(id: try written(plan, rows)[debit])
    }

    /// The open customer account of a deposit or withdrawal (``PostingRules/checkCashMovement(_:currency:account:)``).
    static func customerAccount(_ number: AccountNumber, currency: Currency, _ rows: some LedgerRows) throws -> LedgerAccount {
        let account = try rows.accounts(numbered: [number]).first
        _ = try PostingRules.checkCashMovement(number, currency: currency, account: account?.rules)
        guard let account else { throw PostingError.unknownAccount(number) }
        return account
    }

    /// The cash account of `currency` to post a change of `change` minor units against (negative for
    /// a deposit, positive for a withdrawal): the oldest whose balance stays within ±`bound`
    /// (``PostingRules/cashBound``), or a new one, opened here — `cash-KRW` for the first, `cash-KRW-2`
    /// for the second, …; its number ``PostingRules/cashAccountNumber(_:rank:)``, or the next free
    /// `000` number if that one is taken.
    static func cashAccount(
        _ currency: Currency, taking change: Int64, bound: Int64, at: Date, _ rows: some LedgerRows
    ) throws -> LedgerAccount {
        if let fitting = try rows.fittingCashAccount(currency, change: change, bound: bound) { return fitting }
        var rank = try rows.cashAccountCount(currency)
        var id: String
        repeat {
            rank += 1
            id = PostingRules.cashAccountID(currency, rank: rank)
        } while try rows.account(id: id) != nil
        var number = try PostingRules.cashAccountNumber(currency, rank: rank)
        if try number.map({ try !rows.accounts(numbered: [$0]).isEmpty }) ?? true {
            number = try PostingRules.cashNumber(try rows.highestCashNumberBody() + 1)
        }
        guard let number else { throw PostingError.unknownAccount(try PostingRules.cashNumber(0)) }
        let account = LedgerAccount(
            id: id, number: number, name: PostingRules.cashAccountName(currency), kind: "cash", ownerID: nil, currency: currency,
            balance: 0, openedAt: at, isClosed: false)
        try rows.insertCashAccount(account)
        return account
    }

    /// Writes `plan` and checks the engine gave an id for every entry.
    static func written(_ plan: LedgerPlan, _ rows: some LedgerRows) throws -> [Int64] {
        let ids = try rows.write(plan)
        guard ids.count == plan.entries.count else { throw LedgerWriteMismatch(planned: plan.entries.count, written: ids.count) }
        return ids
    }
}

/// An engine wrote another number of entries than planned: a bug of ours.
public struct LedgerWriteMismatch: Error, CustomStringConvertible {
    public let planned: Int
    public let written: Int
    public var description: String { "The ledger planned \(planned) entries and the engine wrote \(written)." }
}

/// Transfers between customer accounts planned on one ``LedgerPlan`` and written by one
/// ``LedgerRows/write(_:)`` (``PostingGroup``): every account is read once — those named up front in
/// one read, any other when first needed — and each transfer is checked on the balances the earlier
/// ones leave. A refused transfer plans nothing.
public final class LedgerGroup<Rows: LedgerRows>: PostingGroup {
    private let rows: Rows
    private var read: [AccountNumber: LedgerAccount] = [:]
    private var missing: Set<AccountNumber> = []
    private var plan = LedgerPlan()

    public init(_ rows: Rows) {
        self.rows = rows
    }

    /// A group whose accounts `numbers` are read at once (one statement).
    public convenience init(_ rows: Rows, touching numbers: [AccountNumber]) throws {
        self.init(rows)
        try fetch(numbers)
    }

    private func fetch(_ numbers: [AccountNumber]) throws {
        let wanted = Array(Set(numbers).subtracting(read.keys).subtracting(missing)).sorted { $0.digits < $1.digits }
        guard !wanted.isEmpty else { return }
        for account in try rows.customerAccounts(numbered: wanted) { read[account.number] = account }
        missing.formUnion(wanted.filter { read[$0] == nil })
    }

    public func plan(_ request: PostingRequest) throws -> (from: AccountSummary, to: AccountSummary) {
        let planned = try planned(request)
        return (planned.from, planned.to)
    }

    /// Writes the plan; the entries' ids are not asked for, so an engine may send it without
    /// waiting (checked when the transaction is flushed).
    public func write() throws { try rows.writeWithoutIDs(plan) }

    /// Nothing is written before ``write()``.
    public var refusalsLeaveNothing: Bool { true }

    /// Plans `request`; the accounts after it, and its entries' indexes in the plan.
    func planned(_ request: PostingRequest) throws -> (from: AccountSummary, to: AccountSummary, debit: Int, credit: Int) {
        // The same account and a non-positive amount are refused before anything is read.
        if request.from == request.to || !request.amount.isPositive {
            _ = try PostingRules.checkTransfer(request, from: nil, to: nil)
        }
        try fetch([request.from, request.to])
        let from = read[request.from].map(plan.current)
        let to = read[request.to].map(plan.current)
        let memo = try PostingRules.checkTransfer(request, from: from?.rules, to: to?.rules)
        guard let from, let to else { throw PostingError.unknownAccount(request.to) }
        let (debit, credit) = try plan.move(
            request.amount, from: from, to: to, kinds: (.transferOut, .transferIn), memo: memo, reference: request.reference,
            at: request.at)
        // The balances after are those the entries record: no need to read the accounts again.
        guard let fromAfter = plan.current(from).summary, let toAfter = plan.current(to).summary else {
            throw PostingError.unknownAccount(request.to)
        }
        return (fromAfter, toAfter, debit, credit)
    }

    /// Writes the plan: the entries' ids, in the plan's order.
    func written() throws -> [Int64] { try Ledger.written(plan, rows) }
}
