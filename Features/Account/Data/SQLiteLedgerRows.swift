import AccountDomain
import AccountInterface
import Foundation
import GRDB
import Money
import SharedKit
import Storage

/// The ledger's SQL on SQLite (``LedgerRows``), inside an open write transaction (`BEGIN IMMEDIATE`:
/// no other writer can interleave, so a balance read here is still true when it is written). Every
/// decision is AccountDomain's ``Ledger``.
struct SQLiteLedgerRows: LedgerRows {
    let db: Database

    static let columns = "id, number, name, kind, owner_id, currency, balance, opened_at, closed_at"

    static func account(_ row: GRDB.Row) throws -> LedgerAccount {
        let closedAt: Date? = row["closed_at"]
        return LedgerAccount(
            id: row["id"], number: try AccountNumber(row["number"] as String), name: row["name"], kind: row["kind"],
            ownerID: row["owner_id"], currency: try Currency(code: row["currency"]), balance: row["balance"], openedAt: row["opened_at"],
            isClosed: closedAt != nil)
    }

    // Hot paths (every posting) use cached statements: prepared once per connection.

    static func account(number: AccountNumber, _ db: Database) throws -> LedgerAccount? {
        try GRDB.Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(columns) FROM account_accounts WHERE number = ?"), arguments: [number.digits]
        ).map(account)
    }

    func accounts(numbered numbers: [AccountNumber]) throws -> [LedgerAccount] {
        try numbers.compactMap { try Self.account(number: $0, db) }
    }

    func account(id: String) throws -> LedgerAccount? {
        try GRDB.Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.columns) FROM account_accounts WHERE id = ?"), arguments: [id])
            .map(Self.account)
    }

    func fittingCashAccount(_ currency: Currency, change: Int64, bound: Int64) throws -> LedgerAccount? {
        try GRDB.Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT \(Self.columns) FROM account_accounts
                    WHERE owner_id IS NULL AND kind = 'cash' AND currency = ? AND balance + ? BETWEEN ? AND ?
                    ORDER BY opened_at, id LIMIT 1
                    """),
            arguments: [currency.code, change, -bound, bound]
        ).map(Self.account)
    }

    func cashAccountCount(_ currency: Currency) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM account_accounts WHERE owner_id IS NULL AND kind = 'cash' AND currency = ?",
            arguments: [currency.code]) ?? 0
    }

    func highestCashNumberBody() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT MAX(CAST(substr(number, 4, 8) AS INTEGER)) FROM account_accounts WHERE number LIKE '000%'")
            ?? 0
    }

    func insertCashAccount(_ account: LedgerAccount) throws {
        try db.execute(
            sql: """
                INSERT INTO account_accounts (id, number, name, kind, owner_id, currency, balance, opened_at)
                VALUES (?, ?, ?, 'cash', NULL, ?, 0, ?)
                """, arguments: [account.id, account.number.digits, account.name, account.currency.code, account.openedAt])
    }

    func write(_ plan: LedgerPlan) throws -> [Int64] {
        for balance in plan.balances {
            try db.cachedStatement(sql: "UPDATE account_accounts SET balance = ? WHERE id = ? AND balance = ?")
                .execute(arguments: [balance.after, balance.account.id, balance.expected])
            guard db.changesCount == 1 else { throw LedgerConflict(account: balance.account.number) }
        }
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO account_entries (account_id, amount, currency, balance_after, kind, counterparty_id, reference, memo, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        return try plan.entries.map { entry in
            try insert.execute(arguments: [
                entry.account.id, entry.amount.minorUnits, entry.amount.currency.code, entry.balanceAfter.minorUnits, entry.kind.rawValue,
                entry.counterparty.id, entry.reference, entry.memo, StoredDate(entry.at),
            ])
            return db.lastInsertedRowID
        }
    }
}

/// A balance changed under the ledger's feet: impossible inside one IMMEDIATE transaction, so a bug.
struct LedgerConflict: Error, CustomStringConvertible {
    let account: AccountNumber
    var description: String { "The balance of \(account) changed during the posting." }
}
