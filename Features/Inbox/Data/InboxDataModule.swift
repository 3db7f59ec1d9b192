import Foundation
import GRDB
import InboxDomain
import InboxInterface
import Persistence
import Registry
import SharedKit
import Storage

/// Inbox's schema, applied by the App (and the Example) when the database opens.
public enum InboxMigrations {
    public static let all = MigrationSet(feature: "Inbox", steps: [
        .init("v1-create-notices") { db in
            try db.create(table: "inbox_notices") { table in
                // AUTOINCREMENT: an id is never reused, even after notices are erased, so the id a
                // user read yesterday never names another notice today.
                table.autoIncrementedPrimaryKey("id")
                table.column("recipient_id", .text).notNull()
                table.column("kind", .text).notNull()
                table.column("title", .text).notNull()
                table.column("body", .text).notNull()
                table.column("created_at", .datetime).notNull()
                table.column("read_at", .datetime)
            }
            // The per-user listing, newest first (also serves the unread filter and count, and erasure).
            try db.create(index: "inbox_notices_by_recipient", on: "inbox_notices", columns: ["recipient_id", "id"])
        },
    ])
}

/// Notices in SQLite.
struct SQLiteInboxStore: InboxStore {
    let database: AppDatabase

    private static let columns = "id, kind, title, body, created_at, read_at"

    func notices(for recipient: UserID, unreadOnly: Bool, before: Int64?, limit: Int) async throws -> [InboxItem] {
        try database.readSingleStatement { db in
            let statement = try db.cachedStatement(sql: """
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
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inbox_notices WHERE recipient_id = ? AND read_at IS NULL",
                             arguments: [recipient.rawValue]) ?? 0
        }
    }

    func markRead(_ id: Int64, for recipient: UserID, at: Date) async throws -> InboxReadResult? {
        try database.write { db in
            try db.execute(sql: "UPDATE inbox_notices SET read_at = ? WHERE id = ? AND recipient_id = ? AND read_at IS NULL",
                           arguments: [at, id, recipient.rawValue])
            let changed = db.changesCount == 1
            let row = try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM inbox_notices WHERE id = ? AND recipient_id = ?",
                                       arguments: [id, recipient.rawValue])
            return row.flatMap(Self.item).map { InboxReadResult(notice: $0, wasUnread: changed) }
        }
    }

    func markAllRead(for recipient: UserID, at: Date) async throws -> Int {
        try database.write { db in
            try db.execute(sql: "UPDATE inbox_notices SET read_at = ? WHERE recipient_id = ? AND read_at IS NULL",
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
        return InboxItem(id: row["id"], kind: kind, title: row["title"], body: row["body"], createdAt: row["created_at"], readAt: row["read_at"])
    }
}

/// The `InboxPublisher` of the app: one row in the caller's transaction, so the notice commits or
/// rolls back with the event it tells about.
struct SQLiteInboxPublisher: InboxPublisher {
    func publish(_ notice: InboxNotice, in transaction: any Transaction) throws {
        let db = try SQLiteTransaction.open(transaction)
        try db.cachedStatement(sql: """
            INSERT INTO inbox_notices (recipient_id, kind, title, body, created_at) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [notice.recipient.rawValue, notice.kind.rawValue, notice.title, notice.body, notice.createdAt])
    }
}

/// What Inbox's Data layer provides: its store, and the publisher other features write notices with.
/// (The use cases and the user-data owner, which need AuthInterface, are provided by InboxFeatureModule.)
public struct InboxDataModule: FeatureModule {
    public let name = "Inbox"

    public init() {}

    public var providers: [Provider] {
        [
            .singleton(InboxStoreKey.self, requires: DatabaseKey.self) { SQLiteInboxStore(database: $0) },
            .singleton(InboxPublisherKey.self) { SQLiteInboxPublisher() },
        ]
    }
}
