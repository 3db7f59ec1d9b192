import AccountInterface
import Foundation
import Money

/// What one ledger engine does inside the caller's write transaction: its SQL, and nothing else.
///
/// Every decision — which accounts a posting reads, the rules it checks, the balances after, which
/// cash account takes a deposit, the entries written — is ``Ledger``'s, written once for every
/// engine (AccountData's on SQLite, AccountPostgres' on PostgreSQL). An engine reads the rows it is
/// asked for and writes the ``LedgerPlan`` it is given.
public protocol LedgerRows {
    /// The accounts numbered `numbers` (those that exist), as they stand in this transaction.
    func accounts(numbered numbers: [AccountNumber]) throws -> [LedgerAccount]
    /// The customer accounts (no cash account) numbered `numbers`: what a transfer reads. A cash
    /// account's number is unknown to a transfer (``PostingRules/checkTransfer(_:from:to:)``), so an
    /// engine that locks what it reads must not lock a cash account here — a transfer to one
    /// would make every deposit and withdrawal in that currency wait. By default, `accounts(numbered:)`
    /// without the cash accounts.
    func customerAccounts(numbered numbers: [AccountNumber]) throws -> [LedgerAccount]
    func account(id: String) throws -> LedgerAccount?
    /// The oldest cash account of `currency` (by opening, then id) whose balance plus `change` stays
    /// within ±`bound`, if any.
    func fittingCashAccount(_ currency: Currency, change: Int64, bound: Int64) throws -> LedgerAccount?
    /// How many cash accounts `currency` has.
    func cashAccountCount(_ currency: Currency) throws -> Int
    /// The largest 8-digit body of a `000…` account number, 0 when there is none.
    func highestCashNumberBody() throws -> Int
    /// Inserts a new cash account (balance 0). An engine with more than one writer throws its retry
    /// error when another transaction took the id or number meanwhile.
    func insertCashAccount(_ account: LedgerAccount) throws
    /// Writes `plan`: every balance it changes — only where the balance is still the one read, else
    /// it throws — then every entry, in order; returns the entries' ids in that order.
    func write(_ plan: LedgerPlan) throws -> [Int64]
    /// Writes `plan` where nobody needs its entries' ids (a group of transfers): an engine may send
    /// it without waiting for the answer and check it when the transaction is flushed
    /// (`Transaction.flush()`, at the latest before it commits). By default, ``write(_:)``.
    func writeWithoutIDs(_ plan: LedgerPlan) throws
}

extension LedgerRows {
    public func writeWithoutIDs(_ plan: LedgerPlan) throws {
        _ = try Ledger.written(plan, self)
    }

    public func customerAccounts(numbered numbers: [AccountNumber]) throws -> [LedgerAccount] {
        try accounts(numbered: numbers).filter { !$0.isCash }
    }
}
