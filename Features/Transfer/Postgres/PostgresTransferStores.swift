import Foundation
import Money
import Persistence
import PostgresNIO
import PostgresStorage
import Registry
import SharedKit
import TransferDomain
import TransferInterface

/// Transfer on PostgreSQL, for `moa-server --database`: its schema and its store keys, which the
/// server's composition (`App/MoaPostgres`'s `PostgresStores`) gathers with the other features'.
public enum TransferPostgresStores: PostgresFeatureStores {
    /// Transfer's schema on PostgreSQL, as TransferData's on SQLite: the transfers (unique per
    /// sender and idempotency key, across every server process), the per-quarter-hour totals the
    /// daily limit reads, the favourites and the recent recipients.
    public static var migrations: PostgresMigrationSet {
        PostgresMigrationSet(
            feature: "Transfer",
            steps: [
                .init(
                    "v1-create-transfers",
                    [
                        """
                        CREATE TABLE transfer_transfers (
                            position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                            id text NOT NULL UNIQUE,
                            initiated_by text NOT NULL,
                            idempotency_key text NOT NULL,
                            from_number text NOT NULL,
                            to_number text NOT NULL,
                            amount bigint NOT NULL CHECK (amount > 0),
                            currency text NOT NULL,
                            memo text,
                            from_balance_after bigint NOT NULL,
                            created_at timestamptz NOT NULL,
                            CONSTRAINT transfer_transfers_idempotency UNIQUE (initiated_by, idempotency_key))
                        """,
                        "CREATE INDEX transfer_transfers_by_user ON transfer_transfers (initiated_by, position)",
                        "CREATE INDEX transfer_transfers_by_time ON transfer_transfers (initiated_by, currency, created_at, amount)",
                        """
                        CREATE TABLE transfer_totals (
                            initiated_by text NOT NULL,
                            currency text NOT NULL,
                            quarter bigint NOT NULL,
                            total bigint NOT NULL,
                            PRIMARY KEY (initiated_by, currency, quarter))
                        """,
                        """
                        CREATE TABLE transfer_favourites (
                            user_id text NOT NULL,
                            alias text NOT NULL,
                            alias_key text COLLATE "C" NOT NULL,  -- sorted by code point, as SQLite does
                            account_number text NOT NULL,
                            added_at timestamptz NOT NULL,
                            PRIMARY KEY (user_id, alias_key),
                            UNIQUE (user_id, account_number))
                        """,
                        """
                        CREATE TABLE transfer_recent_recipients (
                            user_id text NOT NULL,
                            account_number text NOT NULL,
                            last_position bigint NOT NULL,
                            last_sent_at timestamptz NOT NULL,
                            PRIMARY KEY (user_id, account_number))
                        """,
                        "CREATE INDEX transfer_recent_recipients_by_user ON transfer_recent_recipients (user_id, last_position)",
                    ])
            ])
    }

    /// `TransferStoreKey`, `RecipientStoreKey` and `TransferUserDataStoreKey`, on `database`.
    public static func providers(_ database: PostgresAppDatabase) -> [Provider] {
        [
            .instance(TransferStoreKey.self, PostgresTransferStore(database: database)),
            .instance(RecipientStoreKey.self, PostgresRecipientStore(database: database)),
            .instance(TransferUserDataStoreKey.self, PostgresTransferUserDataStore()),
        ]
    }
}

/// Transfers in PostgreSQL. The in-transaction methods write in the unit of work's transaction,
/// the same one Account's posting writes its ledger entries in.
struct PostgresTransferStore: TransferStore {
    let database: PostgresAppDatabase

    private static let columns = """
        position, id, initiated_by, idempotency_key, from_number, to_number, amount, currency, memo, from_balance_after, created_at
        """

    func transfer(initiatedBy user: UserID, idempotencyKey: String, in transaction: any Transaction) throws -> TransferSummary? {
        let transaction = try PostgresTransaction.open(transaction)
        return try transaction.rows(
            """
            SELECT \(unescaped: Self.columns) FROM transfer_transfers
            WHERE initiated_by = \(user.rawValue) AND idempotency_key = \(idempotencyKey)
            """
        ).first.map { try Self.decode($0).transfer }
    }

    /// The group's read (``sentTotals(_:in:)``) for one day: one statement.
    func sentTotal(
        initiatedBy user: UserID, currency: Currency, from start: Date, until end: Date, in transaction: any Transaction
    ) throws -> Money {
        try sentTotals([SentDay(user: user, currency: currency, start: start, end: end)], in: transaction).first
            ?? Money(minorUnits: 0, currency: currency)
    }

    /// The group's insert (``insert(_:in:)-([TransferSummary])``) of one transfer: one statement.
    func insert(_ transfer: TransferSummary, in transaction: any Transaction) throws {
        try insert([transfer], in: transaction)
    }

    /// One read for the whole group: per day, its whole quarters from `transfer_totals` and its
    /// uneven edges from the transfers (``TransferTotals/Window``, as one by one).
    func sentTotals(_ days: [SentDay], in transaction: any Transaction) throws -> [Money] {
        guard !days.isEmpty else { return [] }
        let rows = try PostgresTransaction.open(transaction).rows(SentTotals(rows: Self.dayRows(days)))
        return try Self.totals(of: days, from: rows.map { try $0.decode((Int64, Int64).self) })
    }

    /// One read for the whole group.
    func transfers(keyedBy keys: [TransferKey], in transaction: any Transaction) throws -> [TransferSummary] {
        let keys = Array(Set(keys))
        guard !keys.isEmpty else { return [] }
        return try PostgresTransaction.open(transaction).rows(TransfersByKey(rows: Self.keyRows(keys))).map { try Self.decode($0).transfer }
    }

    /// Both reads in one statement (one round trip), on the wire at once; its answer awaited when asked for.
    func pendingGroupReads(keyedBy keys: [TransferKey], days: [SentDay], in transaction: any Transaction) throws -> Pending<GroupReads> {
        let keys = Array(Set(keys))
        guard !keys.isEmpty || !days.isEmpty else { return .ready(GroupReads(recorded: [], sentTotals: [])) }
        let postgres = try PostgresTransaction.open(transaction)
        let answer =
            if keys.count == 1, days.count == 1, let key = Self.keyRows(keys).first, let day = Self.dayRows(days).first {
                try postgres.pending(LoneGroupReadStatement(key: key, day: day))
            } else {
                try postgres.pending(GroupReadsStatement(first: Self.keyRows(keys), second: Self.dayRows(days)))
            }
        return Pending {
            var recorded: [TransferSummary] = []
            var sums: [(Int64, Int64)] = []
            for row in try answer.value() {
                // A day's row: (1, its index, its sum); a transfer's: (0, position, amount, …).
                let (part, index, sum) = try row.decode((Int64, Int64, Int64?).self)
                if part == 1 {
                    sums.append((index, sum ?? 0))
                } else {
                    recorded.append(try Self.decodeGroupRead(row))
                }
            }
            return GroupReads(recorded: recorded, sentTotals: try Self.totals(of: days, from: sums))
        }
    }

    private static func keyRows(_ keys: [TransferKey]) -> [[PostgresValue]] {
        keys.map { [.text($0.user.rawValue), .text($0.key)] }
    }

    /// Each day as ``SentTotals`` binds it: its index, the sender, the currency, its whole quarters
    /// and its two uneven edges (an empty one where it has fewer).
    private static func dayRows(_ days: [SentDay]) -> [[PostgresValue]] {
        days.enumerated().map { index, day in
            let window = TransferTotals.Window(from: day.start, until: day.end)
            let edges =
                window.edges
                + Array(repeating: TransferTotals.Window.Edge(from: day.start, until: day.start), count: 2 - window.edges.count)
            return [
                .integer(Int64(index)), .text(day.user.rawValue), .text(day.currency.code), .integer(window.first), .integer(window.last),
                .date(edges[0].from), .date(edges[0].until), .date(edges[1].from), .date(edges[1].until),
            ]
        }
    }

    /// The days' sums, in their order, from (index, sum) rows; a day without a row sent nothing.
    private static func totals(of days: [SentDay], from rows: [(Int64, Int64)]) throws -> [Money] {
        var sums = [Int64](repeating: 0, count: days.count)
        for (index, sum) in rows {
            guard sums.indices.contains(Int(index)) else {
                throw PostgresFailure.other(state: nil, message: "a day's total came back for a day not asked for")
            }
            sums[Int(index)] = sum
        }
        return zip(days, sums).map { Money(minorUnits: $1, currency: $0.currency) }
    }

    /// Per day, its whole quarters from `transfer_totals` and its uneven edges from the transfers:
    /// the sum of the day `d`. Each edge is its own range of `transfer_transfers_by_time`, so the
    /// read stops at the edge's ends: one condition `(edge 1) OR (edge 2)` is not a range, and
    /// PostgreSQL then read every transfer the sender ever made in that currency (growing with the
    /// sender's history: 3.4 ms a 64-transfer group's read at 300 transfers a sender, 1.6 ms since).
    private static let daySum = """
        (COALESCE((SELECT SUM(t.total) FROM transfer_totals t
                   WHERE t.initiated_by = d.user_id AND t.currency = d.currency AND t.quarter >= d.first AND t.quarter < d.last), 0)
         + COALESCE((SELECT SUM(x.amount) FROM transfer_transfers x
                     WHERE x.initiated_by = d.user_id AND x.currency = d.currency
                       AND x.created_at >= d.from1 AND x.created_at < d.until1), 0)
         + COALESCE((SELECT SUM(x.amount) FROM transfer_transfers x
                     WHERE x.initiated_by = d.user_id AND x.currency = d.currency
                       AND x.created_at >= d.from2 AND x.created_at < d.until2), 0))::bigint
        """

    /// Per day (bound by ``dayRows(_:)``), its index and its sum.
    private struct SentTotals: RowsStatement {
        static let columns: [BoundColumn] = [.integer, .text, .text, .integer, .integer, .date, .date, .date, .date]
        static let sql = """
            SELECT d.n, \(PostgresTransferStore.daySum)
            FROM (\(BoundColumn.unnest(columns))) AS d (n, user_id, currency, first, last, from1, until1, from2, until2)
            """
        let rows: [[PostgresValue]]
    }

    private struct TransfersByKey: RowsStatement {
        static let columns: [BoundColumn] = [.text, .text]
        static let sql = """
            SELECT \(PostgresTransferStore.columns) FROM transfer_transfers
            WHERE (initiated_by, idempotency_key) IN (\(BoundColumn.unnest(columns)))
            """
        let rows: [[PostgresValue]]
    }

    /// ``TransfersByKey`` and ``SentTotals`` in one statement, so in one snapshot: a transfer's row
    /// is `0, position, amount, id, …`, a day's `1, its index, its sum` (the rest `NULL`). `keys`:
    /// how `(initiated_by, idempotency_key)` matches the keys (`IN (…)` rows, or `= (…)` one row);
    /// `days`: the days' rows (``BoundColumn/unnest(_:from:)``, or `VALUES` ``BoundColumn/row(_:from:)``).
    private static func groupReadsSQL(keys: String, days: String) -> String {
        """
        SELECT 0::bigint, position, amount, id, initiated_by, idempotency_key, from_number, to_number, currency, memo,
               from_balance_after, created_at
        FROM transfer_transfers
        WHERE (initiated_by, idempotency_key) \(keys)
        UNION ALL
        SELECT 1::bigint, d.n, \(PostgresTransferStore.daySum), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        FROM (\(days)) AS d (n, user_id, currency, first, last, from1, until1, from2, until2)
        """
    }

    /// The group's reads, its keys and its days each bound as arrays.
    private struct GroupReadsStatement: TwoRowSetsStatement {
        static let firstColumns = TransfersByKey.columns
        static let secondColumns = SentTotals.columns
        static let sql = PostgresTransferStore.groupReadsSQL(
            keys: "IN (\(BoundColumn.unnest(firstColumns)))", days: BoundColumn.unnest(secondColumns, from: firstColumns.count + 1))
        /// The keys' rows, then the days'.
        let first: [[PostgresValue]]
        let second: [[PostgresValue]]
    }

    /// The reads of a group of one transfer (one key, one day: every lone request's), bound as
    /// values: PostgreSQL then keeps one plan for it, where ``GroupReadsStatement`` is planned at
    /// every run (0.4 ms of a one-client transfer's 3.5 ms; ``BoundColumn/row(_:from:)`` says why).
    private struct LoneGroupReadStatement: ValuesStatement {
        /// The key, then the day.
        static let rowSets = [BoundRowSet(TransfersByKey.columns), BoundRowSet(SentTotals.columns)]
        static let sql = PostgresTransferStore.groupReadsSQL(
            keys: "= \(BoundColumn.row(rowSets[0].columns))",
            days: "VALUES \(BoundColumn.row(rowSets[1].columns, from: BoundRowSet.firstParameter(of: 1, in: rowSets)))")
        let values: [[[PostgresValue]]]

        init(key: [PostgresValue], day: [PostgresValue]) {
            values = [[key], [day]]
        }
    }

    /// A transfer's row of ``GroupReadsStatement``.
    private static func decodeGroupRead(_ row: PostgresRow) throws -> TransferSummary {
        let (_, _, amount, id, initiatedBy, key, from, to, code, memo, fromBalanceAfter, createdAt) =
            try row.decode((Int64, Int64, Int64, String, String, String, String, String, String, String?, Int64, Date).self)
        return try summary(id, initiatedBy, key, from, to, amount, code, memo, fromBalanceAfter, createdAt)
    }

    /// A transfer from its columns, whichever statement read them.
    private static func summary(
        _ id: String, _ initiatedBy: String, _ key: String, _ from: String, _ to: String, _ amount: Int64, _ code: String,
        _ memo: String?, _ fromBalanceAfter: Int64, _ createdAt: Date
    ) throws -> TransferSummary {
        let currency = try Currency(code: code)
        return TransferSummary(
            id: TransferID(id), from: from, to: to, amount: Money(minorUnits: amount, currency: currency), memo: memo,
            idempotencyKey: key, createdAt: createdAt, initiatedBy: UserID(initiatedBy),
            fromBalanceAfter: Money(minorUnits: fromBalanceAfter, currency: currency))
    }

    /// One statement for the whole group: the transfers, the totals of their quarters (summed per
    /// sender, currency and quarter) and each sender's latest recipients.
    /// Sent without waiting for its answer (the notices go with it), checked when the transaction
    /// is flushed: a key taken then throws from `flush()`.
    func insert(_ transfers: [TransferSummary], in transaction: any Transaction) throws {
        guard !transfers.isEmpty else { return }
        let (store, postgres) = (self, try PostgresTransaction.open(transaction))
        try postgres.send(
            NewTransfers(
                rows: transfers.map { transfer in
                    [
                        .text(transfer.id.rawValue), .text(transfer.initiatedBy.rawValue), .text(transfer.idempotencyKey),
                        .text(transfer.from),
                        .text(transfer.to), .integer(transfer.amount.minorUnits), .text(transfer.amount.currency.code),
                        .text(transfer.memo),
                        .integer(transfer.fromBalanceAfter.minorUnits), .date(transfer.createdAt),
                        .integer(TransferTotals.quarter(containing: transfer.createdAt, roundingUp: false)),
                    ]
                })
        ) { rows in
            let inserted = try rows.first?.decode(Int64.self)
            guard inserted != Int64(transfers.count) else { return }
            // A key taken by a record this transaction can see: refused, as one by one. One it cannot
            // see (another server's, committed since): the group runs again, and finds it.
            let ours = Set(transfers.map(\.id))
            let keys = transfers.map { TransferKey(user: $0.initiatedBy, key: $0.idempotencyKey) }
            if let taken = try store.transfers(keyedBy: keys, in: postgres).first(where: { !ours.contains($0.id) }) {
                throw TransferError.idempotencyKeyReused(taken.idempotencyKey)
            }
            throw PostgresFailure.conflict(state: "23505")
        }
    }

    /// The group's transfers, the totals of their quarters (summed per sender, currency and
    /// quarter) and each sender's latest recipients; how many transfers went in.
    private struct NewTransfers: RowsStatement {
        static let columns: [BoundColumn] = [.text, .text, .text, .text, .text, .integer, .text, .text, .integer, .date, .integer]
        static let sql = """
            WITH input (id, initiated_by, idempotency_key, from_number, to_number, amount, currency, memo, from_balance_after,
                        created_at, quarter) AS (\(BoundColumn.unnest(columns))),
            inserted AS (
                INSERT INTO transfer_transfers
                    (id, initiated_by, idempotency_key, from_number, to_number, amount, currency, memo, from_balance_after, created_at)
                SELECT id, initiated_by, idempotency_key, from_number, to_number, amount, currency, memo, from_balance_after, created_at
                FROM input
                ON CONFLICT (initiated_by, idempotency_key) DO NOTHING
                RETURNING position, initiated_by, idempotency_key, to_number, amount, currency, created_at),
            total AS (
                INSERT INTO transfer_totals (initiated_by, currency, quarter, total)
                SELECT i.initiated_by, i.currency, input.quarter, SUM(i.amount)::bigint
                FROM inserted i JOIN input ON input.initiated_by = i.initiated_by AND input.idempotency_key = i.idempotency_key
                GROUP BY i.initiated_by, i.currency, input.quarter
                ON CONFLICT (initiated_by, currency, quarter) DO UPDATE SET total = transfer_totals.total + excluded.total),
            recent AS (
                INSERT INTO transfer_recent_recipients (user_id, account_number, last_position, last_sent_at)
                SELECT DISTINCT ON (initiated_by, to_number) initiated_by, to_number, position, created_at
                FROM inserted ORDER BY initiated_by, to_number, position DESC
                ON CONFLICT (user_id, account_number)
                DO UPDATE SET last_position = excluded.last_position, last_sent_at = excluded.last_sent_at)
            SELECT COUNT(*) FROM inserted
            """
        let rows: [[PostgresValue]]
    }

    func transfers(initiatedBy user: UserID, before position: Int64?, limit: Int) async throws -> [PositionedTransfer] {
        try await database.read { transaction in
            try transaction.rows(
                """
                SELECT \(unescaped: Self.columns) FROM transfer_transfers
                WHERE initiated_by = \(user.rawValue) AND position < \(position ?? Int64.max)
                ORDER BY position DESC LIMIT \(Int64(max(0, limit)))
                """
            ).map(Self.decode)
        }
    }

    func transfer(id: TransferID, initiatedBy user: UserID) async throws -> TransferSummary? {
        try await database.read { transaction in
            try transaction.rows(
                "SELECT \(unescaped: Self.columns) FROM transfer_transfers WHERE id = \(id.rawValue) AND initiated_by = \(user.rawValue)"
            ).first.map { try Self.decode($0).transfer }
        }
    }

    private static func decode(_ row: PostgresRow) throws -> PositionedTransfer {
        let (position, id, initiatedBy, key, from, to, amount, code, memo, fromBalanceAfter, createdAt) =
            try row.decode((Int64, String, String, String, String, String, Int64, String, String?, Int64, Date).self)
        let transfer = try summary(id, initiatedBy, key, from, to, amount, code, memo, fromBalanceAfter, createdAt)
        return PositionedTransfer(position: position, transfer: transfer)
    }
}

/// Favourites and recent recipients in PostgreSQL (recents are written by ``PostgresTransferStore``).
struct PostgresRecipientStore: RecipientStore {
    let database: PostgresAppDatabase

    func favourites(of user: UserID) async throws -> [FavouriteRecipient] {
        try await database.read { transaction in
            try transaction.rows(
                "SELECT alias, account_number, added_at FROM transfer_favourites WHERE user_id = \(user.rawValue) ORDER BY alias_key"
            ).map(Self.favourite)
        }
    }

    func favourite(_ alias: RecipientAlias, of user: UserID) async throws -> FavouriteRecipient? {
        try await database.read { transaction in
            try transaction.rows(
                """
                SELECT alias, account_number, added_at FROM transfer_favourites WHERE user_id = \(user.rawValue) AND alias_key = \(alias.key)
                """
            ).first.map(Self.favourite)
        }
    }

    func add(_ favourite: FavouriteRecipient, of user: UserID) async throws {
        let key = (try? RecipientAlias(favourite.alias))?.key ?? favourite.alias.lowercased()
        try await database.write { transaction in
            if let taken = try transaction.rows(
                "SELECT alias, account_number FROM transfer_favourites WHERE user_id = \(user.rawValue) AND alias_key = \(key)"
            ).first {
                let (alias, number) = try taken.decode((String, String).self)
                throw TransferError.aliasTaken(alias: alias, accountNumber: number)
            }
            if let saved = try transaction.value(
                """
                SELECT alias FROM transfer_favourites WHERE user_id = \(user.rawValue) AND account_number = \(favourite.accountNumber)
                """, as: String.self)
            {
                throw TransferError.alreadyAFavourite(accountNumber: favourite.accountNumber, alias: saved)
            }
            let count =
                try transaction.value("SELECT COUNT(*) FROM transfer_favourites WHERE user_id = \(user.rawValue)", as: Int64.self) ?? 0
            guard count < TransferError.maximumFavourites else { throw TransferError.tooManyFavourites(Int(count)) }
            try transaction.execute(
                """
                INSERT INTO transfer_favourites (user_id, alias, alias_key, account_number, added_at)
                VALUES (\(user.rawValue), \(favourite.alias), \(key), \(favourite.accountNumber), \(favourite.addedAt))
                """)
        }
    }

    func remove(_ alias: RecipientAlias, of user: UserID) async throws -> FavouriteRecipient? {
        try await database.write { transaction in
            try transaction.rows(
                """
                DELETE FROM transfer_favourites WHERE user_id = \(user.rawValue) AND alias_key = \(alias.key)
                RETURNING alias, account_number, added_at
                """
            ).first.map(Self.favourite)
        }
    }

    func recentRecipients(of user: UserID, limit: Int) async throws -> [RecentRecipient] {
        try await database.read { transaction in
            try transaction.rows(
                """
                SELECT account_number, last_sent_at FROM transfer_recent_recipients
                WHERE user_id = \(user.rawValue) ORDER BY last_position DESC LIMIT \(Int64(max(0, limit)))
                """
            ).map { row in
                let (number, sentAt) = try row.decode((String, Date).self)
                return RecentRecipient(accountNumber: number, lastSentAt: sentAt)
            }
        }
    }

    private static func favourite(_ row: PostgresRow) throws -> FavouriteRecipient {
        let (alias, number, addedAt) = try row.decode((String, String, Date).self)
        return FavouriteRecipient(alias: alias, accountNumber: number, addedAt: addedAt)
    }
}

/// Erases a deleted user from Transfer's tables, in Auth's deletion transaction.
struct PostgresTransferUserDataStore: TransferUserDataStore {
    func erase(_ user: UserID, in transaction: any Transaction) throws {
        let transaction = try PostgresTransaction.open(transaction)
        let id = user.rawValue
        try transaction.execute("DELETE FROM transfer_favourites WHERE user_id = \(id)")
        try transaction.execute("DELETE FROM transfer_recent_recipients WHERE user_id = \(id)")
        try transaction.execute("DELETE FROM transfer_totals WHERE initiated_by = \(id)")
        let tombstone = "deleted-" + UUID().uuidString.lowercased()
        try transaction.execute("UPDATE transfer_transfers SET initiated_by = \(tombstone) WHERE initiated_by = \(id)")
    }
}
