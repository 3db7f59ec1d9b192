import GRDB
import Storage

/// Transfer's schema: one row per transfer, its idempotency key unique per user, and running totals
/// for the daily limit.
///
/// `position` (the rowid) only grows: it orders the list and is the paging key, so paging is stable
/// while other transfers are inserted. Account numbers are stored as shown (`110-1234-5678-9`).
public enum TransferMigrations {
    public static let all = MigrationSet(feature: "Transfer", steps: [
        .init("v1-create-transfers") { db in
            try db.execute(sql: """
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
            try db.execute(sql: "CREATE INDEX transfer_transfers_by_time ON transfer_transfers (initiated_by, currency, created_at, amount)")
            // What each user sent per currency and quarter of an hour (UTC): a day's total — in any
            // time zone, whose midnights all fall on quarter hours — adds up at most 100 rows instead
            // of every transfer of the day. Written in the same transaction as each transfer.
            try db.execute(sql: """
                CREATE TABLE transfer_totals (
                    initiated_by TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    quarter INTEGER NOT NULL,
                    total INTEGER NOT NULL,
                    PRIMARY KEY (initiated_by, currency, quarter)
                ) WITHOUT ROWID
                """)
        },
    ])
}
