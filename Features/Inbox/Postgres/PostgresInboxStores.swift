import Foundation
import InboxDomain
import InboxInterface
import Persistence
import PostgresNIO
import PostgresStorage
import Registry
import SharedKit

/// Inbox on PostgreSQL, for `moa-server --database`: its schema and its store keys, which the
/// server's composition (`App/MoaPostgres`'s `PostgresStores`) gathers with the other features'.
public enum InboxPostgresStores: PostgresFeatureStores {
    /// Inbox's schema on PostgreSQL: the final shape of `InboxMigrations` (SQLite), in one step.
    public static var migrations: PostgresMigrationSet {
        PostgresMigrationSet(
            feature: "Inbox",
            steps: [
                .init(
                    "v1-create-notices",
                    [
                        // An identity, like SQLite's AUTOINCREMENT: an id is never reused, even after
                        // notices are erased, so the id a user read yesterday never names another
                        // notice today; and ids increase, so they page the inbox newest first.
                        """
                        CREATE TABLE inbox_notices (
                            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                            recipient_id text NOT NULL,
                            kind text NOT NULL,
                            title text NOT NULL,
                            body text NOT NULL,
                            created_at timestamptz NOT NULL,
                            read_at timestamptz
                        )
                        """,
                        // The per-user listing, newest first (also serves the unread filter and count, and erasure).
                        "CREATE INDEX inbox_notices_by_recipient ON inbox_notices (recipient_id, id)",
                    ]),
                // The transfer a notice tells about, as values (JSON text: amount, from, to, transfer id).
                .init("v2-notice-transfer", ["ALTER TABLE inbox_notices ADD COLUMN transfer text"]),
            ])
    }

    /// Inbox's store keys, on `database`: `InboxStoreKey` and `InboxPublisherKey`.
    public static func providers(_ database: PostgresAppDatabase) -> [Provider] {
        [
            .singleton(InboxStoreKey.self) { PostgresInboxStore(database: database) },
            .singleton(InboxPublisherKey.self) { PostgresInboxPublisher() },
        ]
    }
}

/// Notices in PostgreSQL (the same contract as `SQLiteInboxStore`).
struct PostgresInboxStore: InboxStore {
    let database: PostgresAppDatabase

    func notices(for recipient: UserID, unreadOnly: Bool, before: Int64?, limit: Int) async throws -> [InboxItem] {
        let before = before ?? Int64.max
        return try await database.read { transaction in
            try transaction.rows(
                """
                SELECT id, kind, title, body, created_at, read_at, transfer FROM inbox_notices
                WHERE recipient_id = \(recipient.rawValue) AND id < \(before) AND (NOT \(unreadOnly) OR read_at IS NULL)
                ORDER BY id DESC LIMIT \(limit)
                """
            ).compactMap(Self.item)
        }
    }

    func unreadCount(for recipient: UserID) async throws -> Int {
        let count = try await database.read { transaction in
            try transaction.value(
                "SELECT count(*) FROM inbox_notices WHERE recipient_id = \(recipient.rawValue) AND read_at IS NULL", as: Int64.self)
        }
        return Int(count ?? 0)
    }

    func markRead(_ id: Int64, for recipient: UserID, at: Date) async throws -> InboxReadResult? {
        try await database.write { transaction in
            let changed =
                try transaction.rows(
                    """
                    UPDATE inbox_notices SET read_at = \(at)
                    WHERE id = \(id) AND recipient_id = \(recipient.rawValue) AND read_at IS NULL RETURNING id
                    """
                ).count == 1
            let row = try transaction.rows(
                """
                SELECT id, kind, title, body, created_at, read_at, transfer FROM inbox_notices
                WHERE id = \(id) AND recipient_id = \(recipient.rawValue)
                """
            ).first
            return try row.flatMap(Self.item).map { InboxReadResult(notice: $0, wasUnread: changed) }
        }
    }

    func markAllRead(for recipient: UserID, at: Date) async throws -> Int {
        let count = try await database.write { transaction in
            try transaction.value(
                """
                WITH marked AS (
                    UPDATE inbox_notices SET read_at = \(at)
                    WHERE recipient_id = \(recipient.rawValue) AND read_at IS NULL RETURNING id)
                SELECT count(*) FROM marked
                """, as: Int64.self)
        }
        return Int(count ?? 0)
    }

    func eraseNotices(of recipient: UserID, in transaction: any Transaction) throws {
        let transaction = try PostgresTransaction.open(transaction)
        try transaction.execute("DELETE FROM inbox_notices WHERE recipient_id = \(recipient.rawValue)")
    }

    /// A row (id, kind, title, body, created_at, read_at, transfer) as an item; `nil` for a kind this
    /// build does not know (written by a newer moa).
    private static func item(_ row: PostgresRow) throws -> InboxItem? {
        let (id, kind, title, body, createdAt, readAt, transfer) = try row.decode(
            (Int64, String, String, String, Date, Date?, String?).self)
        guard let kind = InboxNoticeKind(rawValue: kind) else { return nil }
        return InboxItem(
            id: id, kind: kind, title: title, body: body, createdAt: createdAt, readAt: readAt,
            transfer: InboxItem.transfer(fromStored: transfer))
    }
}

/// The `InboxPublisher` of `moa-server` on PostgreSQL: one row in the caller's transaction, so the
/// notice commits or rolls back with the event it tells about.
struct PostgresInboxPublisher: InboxPublisher {
    func publish(_ notice: InboxNotice, in transaction: any Transaction) throws {
        try publish([notice], in: transaction)
    }

    /// One statement for all of them, sent without waiting for its answer (the transaction's next
    /// statement, or its `COMMIT`, goes right behind it); a failure still fails the transaction.
    func publish(_ notices: [InboxNotice], in transaction: any Transaction) throws {
        guard !notices.isEmpty else { return }
        try PostgresTransaction.open(transaction).send(
            NewNotices(
                rows: notices.map {
                    [
                        .text($0.recipient.rawValue), .text($0.kind.rawValue), .text($0.title), .text($0.body), .date($0.createdAt),
                        .text(InboxItem.storedText($0.transfer)),
                    ]
                }))
    }

    private struct NewNotices: RowsStatement {
        static let columns: [BoundColumn] = [.text, .text, .text, .text, .date, .text]
        static let sql = """
            INSERT INTO inbox_notices (recipient_id, kind, title, body, created_at, transfer) \(BoundColumn.unnest(columns))
            """
        let rows: [[PostgresValue]]
    }
}
