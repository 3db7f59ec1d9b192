import Foundation
import GRDB
import Money
import Persistence
import Registry
import SharedKit
import Storage
import TransferDomain
import TransferInterface

/// Transfers in SQLite. The in-transaction methods open the unit of work's token
/// (`SQLiteTransaction.open`): they write in the same transaction as Account's posting.
struct SQLiteTransferStore: TransferStore {
    let database: AppDatabase

    private static let columns = """
        position, id, initiated_by, idempotency_key, from_number, to_number, amount, currency, memo, from_balance_after, created_at
        """

    func transfer(initiatedBy user: UserID, idempotencyKey: String, in transaction: any Transaction) throws -> TransferSummary? {
        let db = try SQLiteTransaction.open(transaction)
        let statement = try db.cachedStatement(
            sql: "SELECT \(Self.columns) FROM transfer_transfers WHERE initiated_by = ? AND idempotency_key = ?")
        return try Row.fetchOne(statement, arguments: [user.rawValue, idempotencyKey]).map { try Self.decode($0).transfer }
    }

    /// Whole quarters of an hour inside the window come from `transfer_totals` (``TransferTotals``);
    /// the uneven edges, if any (a window not starting or ending on a quarter), from the transfers themselves.
    func sentTotal(
        initiatedBy user: UserID, currency: Currency, from start: Date, until end: Date,
        in transaction: any Transaction
    ) throws -> Money {
        let db = try SQLiteTransaction.open(transaction)
        let total = try TransferTotals.sent(
            from: start, until: end,
            quarters: { first, last in
                try Self.sum(
                    db,
                    sql: """
                        SELECT COALESCE(SUM(total), 0) FROM transfer_totals
                        WHERE initiated_by = ? AND currency = ? AND quarter >= ? AND quarter < ?
                        """, [user.rawValue, currency.code, first, last])
            },
            exact: { from, until in
                try Self.sum(
                    db,
                    sql: """
                        SELECT COALESCE(SUM(amount), 0) FROM transfer_transfers
                        WHERE initiated_by = ? AND currency = ? AND created_at >= ? AND created_at < ?
                        """, [user.rawValue, currency.code, StoredDate(from), StoredDate(until)])
            })
        return Money(minorUnits: total, currency: currency)
    }

    private static func sum(_ db: Database, sql: String, _ arguments: StatementArguments) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) ?? 0
    }

    func insert(_ transfer: TransferSummary, in transaction: any Transaction) throws {
        let db = try SQLiteTransaction.open(transaction)
        do {
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO transfer_transfers
                        (id, initiated_by, idempotency_key, from_number, to_number, amount, currency, memo, from_balance_after, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            try statement.execute(arguments: [
                transfer.id.rawValue, transfer.initiatedBy.rawValue, transfer.idempotencyKey, transfer.from, transfer.to,
                transfer.amount.minorUnits, transfer.amount.currency.code, transfer.memo,
                transfer.fromBalanceAfter.minorUnits, StoredDate(transfer.createdAt),
            ])
            let position = db.lastInsertedRowID
            let totals = try db.cachedStatement(
                sql: """
                    INSERT INTO transfer_totals (initiated_by, currency, quarter, total) VALUES (?, ?, ?, ?)
                    ON CONFLICT (initiated_by, currency, quarter) DO UPDATE SET total = total + excluded.total
                    """)
            try totals.execute(arguments: [
                transfer.initiatedBy.rawValue, transfer.amount.currency.code,
                TransferTotals.quarter(containing: transfer.createdAt, roundingUp: false), transfer.amount.minorUnits,
            ])
            let recents = try db.cachedStatement(
                sql: """
                    INSERT INTO transfer_recent_recipients (user_id, account_number, last_position, last_sent_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id, account_number) DO UPDATE SET last_position = excluded.last_position, last_sent_at = excluded.last_sent_at
                    """)
            try recents.execute(arguments: [transfer.initiatedBy.rawValue, transfer.to, position, StoredDate(transfer.createdAt)])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            // Not reachable through SendMoney (it looks the key up first, in the same IMMEDIATE
            // transaction), but the table is the last line of defence.
            throw TransferError.idempotencyKeyReused(transfer.idempotencyKey)
        }
    }

    func transfers(initiatedBy user: UserID, before position: Int64?, limit: Int) async throws -> [PositionedTransfer] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.columns) FROM transfer_transfers
                    WHERE initiated_by = ? AND position < ?
                    ORDER BY position DESC LIMIT ?
                    """, arguments: [user.rawValue, position ?? Int64.max, limit]
            ).map(Self.decode)
        }
    }

    func transfer(id: TransferID, initiatedBy user: UserID) async throws -> TransferSummary? {
        try database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.columns) FROM transfer_transfers WHERE id = ? AND initiated_by = ?",
                arguments: [id.rawValue, user.rawValue]
            ).map { try Self.decode($0).transfer }
        }
    }

    private static func decode(_ row: Row) throws -> PositionedTransfer {
        let currency = try Currency(code: row["currency"] as String)
        let transfer = TransferSummary(
            id: TransferID(row["id"] as String), from: row["from_number"], to: row["to_number"],
            amount: Money(minorUnits: row["amount"], currency: currency), memo: row["memo"],
            idempotencyKey: row["idempotency_key"], createdAt: row["created_at"], initiatedBy: UserID(row["initiated_by"] as String),
            fromBalanceAfter: Money(minorUnits: row["from_balance_after"], currency: currency))
        return PositionedTransfer(position: row["position"], transfer: transfer)
    }
}
