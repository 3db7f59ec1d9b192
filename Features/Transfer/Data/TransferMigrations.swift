import GRDB
import Storage

/// Transfer's schema: one row per transfer, its idempotency key unique per user, running totals
/// for the daily limit; favourites and recent recipients (v2); old memos made safe to print (v3).
///
/// `position` (the rowid) only grows: it orders the list and is the paging key, so paging is stable
/// while other transfers are inserted. Account numbers are stored as shown (`110-1234-5678-9`).
public enum TransferMigrations {
    public static let all = MigrationSet(
        feature: "Transfer",
        steps: [
            .init("v1-create-transfers") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE transfer_transfers (
                            position INTEGER PRIMARY KEY AUTOINCREMENT,
                            id TEXT NOT NULL UNIQUE,
                            initiated_by TEXT NOT NULL,
                            idempotency_key TEXT NOT NULL,
                            from_number TEXT NOT NULL,
                            to_number TEXT NOT NULL,
                            amount INTEGER NOT NULL CHECK (amount > 0),
                            currency TEXT NOT NULL,
                            memo TEXT,
                            from_balance_after INTEGER NOT NULL,
                            created_at DATETIME NOT NULL,
                            UNIQUE (initiated_by, idempotency_key)
                        )
                        """)
                try db.execute(sql: "CREATE INDEX transfer_transfers_by_user ON transfer_transfers (initiated_by, position)")
                try db.execute(
                    sql: "CREATE INDEX transfer_transfers_by_time ON transfer_transfers (initiated_by, currency, created_at, amount)")
                // What each user sent per currency and quarter of an hour (UTC): a day's total — in any
                // time zone, whose midnights all fall on quarter hours — adds up at most 100 rows instead
                // of every transfer of the day. Written in the same transaction as each transfer.
                try db.execute(
                    sql: """
                        CREATE TABLE transfer_totals (
                            initiated_by TEXT NOT NULL,
                            currency TEXT NOT NULL,
                            quarter INTEGER NOT NULL,
                            total INTEGER NOT NULL,
                            PRIMARY KEY (initiated_by, currency, quarter)
                        ) WITHOUT ROWID
                        """)
            },
            // Favourites (an alias per destination, per user) and each user's recent destinations: one row
            // per user and destination, moved to the front by every transfer (in its transaction), so the
            // last ten are an index range, however many transfers the user made. Filled from the
            // transfers already recorded.
            .init("v2-create-recipients") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE transfer_favourites (
                            user_id TEXT NOT NULL,
                            alias TEXT NOT NULL,
                            alias_key TEXT NOT NULL,
                            account_number TEXT NOT NULL,
                            added_at DATETIME NOT NULL,
                            PRIMARY KEY (user_id, alias_key),
                            UNIQUE (user_id, account_number)
                        ) WITHOUT ROWID
                        """)
                try db.execute(
                    sql: """
                        CREATE TABLE transfer_recent_recipients (
                            user_id TEXT NOT NULL,
                            account_number TEXT NOT NULL,
                            last_position INTEGER NOT NULL,
                            last_sent_at DATETIME NOT NULL,
                            PRIMARY KEY (user_id, account_number)
                        ) WITHOUT ROWID
                        """)
                try db.execute(
                    sql: "CREATE INDEX transfer_recent_recipients_by_user ON transfer_recent_recipients (user_id, last_position)")
                // SQLite takes the bare column `created_at` from the row holding MAX(position).
                try db.execute(
                    sql: """
                        INSERT INTO transfer_recent_recipients (user_id, account_number, last_position, last_sent_at)
                        SELECT initiated_by, to_number, MAX(position), created_at FROM transfer_transfers GROUP BY initiated_by, to_number
                        """)
            },
            // Memos stored before they refused control characters: each one is replaced by its visible
            // stand-in, so that an old transfer prints safely on any terminal.
            .init("v3-neutralize-memo-control-characters") { db in
                var changes: [(position: Int64, memo: String)] = []
                let rows = try Row.fetchCursor(db, sql: "SELECT position, memo FROM transfer_transfers WHERE memo IS NOT NULL")
                while let row = try rows.next() {
                    let memo: String = row["memo"]
                    let safe = TransferStoredText.neutralized(memo)
                    if safe != memo { changes.append((row["position"], safe)) }
                }
                for change in changes {
                    try db.execute(
                        sql: "UPDATE transfer_transfers SET memo = ? WHERE position = ?", arguments: [change.memo, change.position])
                }
            },
        ])
}

/// Repairs text stored before memos refused control characters. The mapping is the design system's
/// (`TerminalSafe.neutralize`), which a Data target cannot import:
///
/// - C0 controls U+0000–U+001F become their Control Pictures U+2400–U+241F (ESC → ␛), but for the
///   line feed and the tab, which stay;
/// - DEL U+007F becomes ␡ (U+2421);
/// - C1 controls U+0080–U+009F and the bidirectional marks, embeddings, overrides and isolates
///   (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) become � (U+FFFD).
enum TransferStoredText {
    /// `text` with every such character replaced (itself when there is none).
    static func neutralized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var changed = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x09:
                result.append(scalar)
            case 0x00...0x1F:
                result.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
                changed = true
            case 0x7F:
                result.append("\u{2421}")
                changed = true
            case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                result.append("\u{FFFD}")
                changed = true
            default:
                result.append(scalar)
            }
        }
        return changed ? String(result) : text
    }
}
