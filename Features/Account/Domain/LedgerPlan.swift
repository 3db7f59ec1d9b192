import AccountInterface
import Foundation
import Money

/// Postings planned in memory, to be written by one ``LedgerRows/write(_:)``: the balances they
/// change (each account once, from the balance read to the last one planned) and their entries.
///
/// Several postings may share a plan, and an account moved twice sees its first move's balance in
/// the second (``current(_:)``): a batch is checked as if written one by one, and written in a few
/// statements.
public struct LedgerPlan: Sendable {
    /// One account's balance: as read in the transaction, and after the moves planned.
    public struct Balance: Sendable, Equatable {
        public let account: LedgerAccount
        public fileprivate(set) var after: Int64
        /// The balance read, which the write expects to find.
        public var expected: Int64 { account.balance }
    }

    /// One entry to insert.
    public struct Entry: Sendable, Equatable {
        public let account: LedgerAccount
        public let amount: Money
        public let balanceAfter: Money
        public let kind: LedgerEntry.Kind
        public let counterparty: LedgerAccount
        public let memo: String?
        public let reference: String?
        public let at: Date

        /// The entry as the use cases show it, once written with `id`.
        public func written(id: Int64) -> LedgerEntry {
            LedgerEntry(
                id: id, account: account.number, amount: amount, balanceAfter: balanceAfter, kind: kind,
                counterparty: counterparty.isCash ? nil : counterparty.number, memo: memo, reference: reference, at: at)
        }
    }

    /// Every account the plan changes, in the order first moved.
    public private(set) var balances: [Balance] = []
    public private(set) var entries: [Entry] = []

    public init() {}

    /// `account` as it stands after the moves planned so far.
    public func current(_ account: LedgerAccount) -> LedgerAccount {
        balances.first { $0.account.id == account.id }.map { account.with(balance: $0.after) } ?? account
    }

    /// Plans moving `amount` from `from` to `to`: both balances (by
    /// ``PostingRules/balancesAfter(moving:from:to:)``, on the balances planned so far) and two
    /// entries, the debit then the credit; returns their indexes in ``entries``.
    @discardableResult
    public mutating func move(
        _ amount: Money, from: LedgerAccount, to: LedgerAccount, kinds: (out: LedgerEntry.Kind, in: LedgerEntry.Kind),
        memo: String?, reference: String?, at: Date
    ) throws -> (debit: Int, credit: Int) {
        let (from, to) = (current(from), current(to))
        let (fromBalance, toBalance) = try PostingRules.balancesAfter(moving: amount, from: from.rules, to: to.rules)
        set(from, to: fromBalance.minorUnits)
        set(to, to: toBalance.minorUnits)
        entries.append(
            Entry(
                account: from, amount: try amount.negated(), balanceAfter: fromBalance, kind: kinds.out, counterparty: to, memo: memo,
                reference: reference, at: at))
        entries.append(
            Entry(
                account: to, amount: amount, balanceAfter: toBalance, kind: kinds.in, counterparty: from, memo: memo, reference: reference,
                at: at))
        return (entries.count - 2, entries.count - 1)
    }

    private mutating func set(_ account: LedgerAccount, to balance: Int64) {
        if let index = balances.firstIndex(where: { $0.account.id == account.id }) {
            balances[index].after = balance
        } else {
            balances.append(Balance(account: account, after: balance))
        }
    }
}
