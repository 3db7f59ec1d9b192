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
    public static let all = MigrationSet(
        feature: "Inbox",
        steps: [
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
            // The transfer a notice tells about, as values (JSON: amount, from, to, transfer id); NULL
            // for other notices and for those written before.
            .init("v2-notice-transfer") { db in
                try db.alter(table: "inbox_notices") { table in table.add(column: "transfer", .text) }
            },
        ])
}
