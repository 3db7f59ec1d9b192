import Foundation
import GRDB
import InboxDomain
import InboxInterface
import Persistence
import Registry
import SharedKit
import Storage

/// Notices in SQLite.
struct SQLiteInboxStore: InboxStore {
    let database: AppDatabase

    private static let columns = "id, kind, title, body, created_at, read_at, transfer"

    func notices(for recipient: UserID, unreadOnly: Bool, before: Int64?, limit: Int) async throws -> [InboxItem] {
        try database.readSingleStatement { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(Self.columns) FROM inbox_notices
                    WHERE recipient_id = ? AND id < ? AND (? = 0 OR read_at IS NULL)
                    ORDER BY id DESC LIMIT ?
                    """)
            return try Row.fetchAll(statement, arguments: [recipient.rawValue, before ?? Int64.max, unreadOnly, limit])
                .compactMap(Self.item)
        }
    }

    func unreadCount(for recipient: UserID) async throws -> Int {
        try database.readSingleStatement { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM inbox_notices WHERE recipient_id = ? AND read_at IS NULL",
                arguments: [recipient.rawValue]) ?? 0
        }
    }

    func markRead(_ id: Int64, for recipient: UserID, at: Date) async throws -> InboxReadResult? {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE inbox_notices SET read_at = ? WHERE id = ? AND recipient_id = ? AND read_at IS NULL",
                arguments: [at, id, recipient.rawValue])
            let changed = db.changesCount == 1
            let row = try Row.fetchOne(
                db, sql: "SELECT \(Self.columns) FROM inbox_notices WHERE id = ? AND recipient_id = ?",
                arguments: [id, recipient.rawValue])
            return row.flatMap(Self.item).map { InboxReadResult(notice: $0, wasUnread: changed) }
        }
    }

    func markAllRead(for recipient: UserID, at: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE inbox_notices SET read_at = ? WHERE recipient_id = ? AND read_at IS NULL",
                arguments: [at, recipient.rawValue])
            return db.changesCount
        }
    }

    func eraseNotices(of recipient: UserID, in transaction: any Transaction) throws {
        let db = try SQLiteTransaction.open(transaction)
        try db.execute(sql: "DELETE FROM inbox_notices WHERE recipient_id = ?", arguments: [recipient.rawValue])
    }

    /// A row as an item; `nil` for a kind this build does not know (written by a newer moa).
    private static func item(_ row: Row) -> InboxItem? {
        guard let kind = InboxNoticeKind(rawValue: row["kind"]) else { return nil }
        return InboxItem(
            id: row["id"], kind: kind, title: row["title"], body: row["body"], createdAt: row["created_at"], readAt: row["read_at"],
            transfer: InboxItem.transfer(fromStored: row["transfer"]))
    }
}
