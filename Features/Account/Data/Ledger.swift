import AccountDomain
import AccountInterface
import Foundation
import GRDB
import Money
import SharedKit

/// The double-entry core, used inside an open write transaction (`BEGIN IMMEDIATE`: no other writer
/// can interleave, so a balance read here is still true when it is written).
enum Ledger {
    struct Row {
        let id: String
        let number: AccountNumber
        let name: String
        let kind: String
        let ownerID: String?
        let currency: Currency
        let balance: Int64
        let openedAt: Date
        let closedAt: Date?

        var isCash: Bool { ownerID == nil }

        var summary: AccountSummary? {
            guard let kind = AccountKind(rawValue: kind), let ownerID else { return nil }
            return AccountSummary(
                id: AccountID(id), number: number, name: name, kind: kind, ownerID: UserID(ownerID),
                balance: Money(minorUnits: balance, currency: currency), isClosed: closedAt != nil, openedAt: openedAt)
        }
    }

    static let columns = "id, number, name, kind, owner_id, currency, balance, opened_at, closed_at"

    static func row(_ row: GRDB.Row) throws -> Row {
        let currency = try Currency(code: row["currency"])
        return Row(
            id: row["id"], number: try AccountNumber(row["number"] as String), name: row["name"], kind: row["kind"],
            ownerID: row["owner_id"], currency: currency, balance: row["balance"], openedAt: row["opened_at"], closedAt: row["closed_at"])
    }

    // Hot paths (every posting) use cached statements: prepared once per connection.

    static func account(number: AccountNumber, _ db: Database) throws -> Row? {
        try GRDB.Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(columns) FROM account_accounts WHERE number = ?"),
            arguments: [number.digits]
        ).map(row)
    }

    static func account(id: String, _ db: Database) throws -> Row? {
        try GRDB.Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM account_accounts WHERE id = ?"), arguments: [id]).map(row)
    }

    /// The hidden cash account of `currency`, created on first use.
    static func cashAccount(_ currency: Currency, _ db: Database, at: Date) throws -> Row {
        let id = "cash-\(currency.code)"
        if let existing = try account(id: id, db) { return existing }
        let index = (Currency.supported.firstIndex(of: currency) ?? 0) + 1
        let number = try AccountNumber(prefix: "000" + String(format: "%08d", index))
        try db.execute(
            sql: """
                INSERT INTO account_accounts (id, number, name, kind, owner_id, currency, balance, opened_at)
                VALUES (?, ?, ?, 'cash', NULL, ?, 0, ?)
                """, arguments: [id, number.digits, "Cash (\(currency.code))", currency.code, at])
        return Row(
            id: id, number: number, name: "Cash (\(currency.code))", kind: "cash", ownerID: nil, currency: currency,
            balance: 0, openedAt: at, closedAt: nil)
    }

    /// Moves `amount` from `from` to `to`: both balances and two entries, or a thrown error (and the
    /// caller's transaction rolls back). Cash accounts may go negative; customer accounts may not.
    static func move(
        _ amount: Money, from: Row, to: Row, kinds: (out: LedgerEntry.Kind, in: LedgerEntry.Kind),
        memo: String?, reference: String?, at: Date, _ db: Database
    ) throws -> (debit: LedgerEntry, credit: LedgerEntry) {
        let fromBalance = try Money(minorUnits: from.balance, currency: from.currency).subtracting(amount)
        if !from.isCash, fromBalance.isNegative {
            throw PostingError.insufficientFunds(
                from.number, balance: Money(minorUnits: from.balance, currency: from.currency), requested: amount)
        }
        let toBalance = try Money(minorUnits: to.balance, currency: to.currency).adding(amount)
        try setBalance(of: from, expected: from.balance, to: fromBalance.minorUnits, db)
        try setBalance(of: to, expected: to.balance, to: toBalance.minorUnits, db)
        let debit = try insertEntry(
            account: from, amount: try amount.negated(), balanceAfter: fromBalance, kind: kinds.out,
            counterparty: to, memo: memo, reference: reference, at: at, db)
        let credit = try insertEntry(
            account: to, amount: amount, balanceAfter: toBalance, kind: kinds.in,
            counterparty: from, memo: memo, reference: reference, at: at, db)
        return (debit, credit)
    }

    private static func setBalance(of account: Row, expected: Int64, to balance: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE account_accounts SET balance = ? WHERE id = ? AND balance = ?")
            .execute(arguments: [balance, account.id, expected])
        guard db.changesCount == 1 else { throw LedgerConflict(account: account.number) }
    }

    private static func insertEntry(
        account: Row, amount: Money, balanceAfter: Money, kind: LedgerEntry.Kind, counterparty: Row,
        memo: String?, reference: String?, at: Date, _ db: Database
    ) throws -> LedgerEntry {
        try db.cachedStatement(
            sql: """
                INSERT INTO account_entries (account_id, amount, currency, balance_after, kind, counterparty_id, reference, memo, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            account.id, amount.minorUnits, amount.currency.code, balanceAfter.minorUnits, kind.rawValue,
            counterparty.id, reference, memo, at,
        ])
        return LedgerEntry(
            id: db.lastInsertedRowID, account: account.number, amount: amount, balanceAfter: balanceAfter, kind: kind,
            counterparty: counterparty.isCash ? nil : counterparty.number, memo: memo, reference: reference, at: at)
    }
}

/// A balance changed under the ledger's feet: impossible inside one IMMEDIATE transaction, so a bug.
struct LedgerConflict: Error, CustomStringConvertible {
    let account: AccountNumber
    var description: String { "The balance of \(account) changed during the posting." }
}

extension Ledger.Row {
    /// The row with another balance (after a posting), without reading it again.
    func with(balance: Int64) -> Ledger.Row {
        Ledger.Row(
            id: id, number: number, name: name, kind: kind, ownerID: ownerID, currency: currency, balance: balance,
            openedAt: openedAt, closedAt: closedAt)
    }
}
