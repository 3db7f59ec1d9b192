import Foundation
import Persistence
import PostgresNIO
import PostgresStorage
import Registry
import SettingsDomain
import SharedKit

/// Settings on PostgreSQL, for `moa-server --database`: its schema and its store keys, which the
/// server's composition (`App/MoaPostgres`'s `PostgresStores`) gathers with the other features'.
public enum SettingsPostgresStores: PostgresFeatureStores {
    /// Settings's schema on PostgreSQL: the final shape of `SettingsMigrations` (SQLite), in one step.
    /// One row per stored value: `scope` is the user id, or `device`.
    public static var migrations: PostgresMigrationSet {
        PostgresMigrationSet(
            feature: "Settings",
            steps: [
                .init(
                    "v1-create-settings-value",
                    [
                        """
                        CREATE TABLE settings_value (
                            scope text NOT NULL,
                            key text NOT NULL,
                            value text NOT NULL,
                            updated_at timestamptz NOT NULL,
                            PRIMARY KEY (scope, key)
                        )
                        """
                    ])
            ])
    }

    /// Settings's store keys, on `database`: `SettingsStoreKey` (requiring `WallClockKey`) and
    /// `SettingsEraserKey`.
    public static func providers(_ database: PostgresAppDatabase) -> [Provider] {
        [
            .singleton(SettingsStoreKey.self, requires: WallClockKey.self) { clock in
                PostgresSettingsStore(database: database, clock: clock)
            },
            .singleton(SettingsEraserKey.self) { PostgresSettingsEraser() },
        ]
    }
}

/// Settings stored in PostgreSQL, one transaction per change (the same contract as
/// `SQLiteSettingsStore`).
///
/// `modify` reads, changes and writes in one `SERIALIZABLE` transaction: two server processes
/// changing one scope at once cannot lose either change, nor together break a rule between two
/// settings (the per-transfer limit under the daily one) that each change checked alone. The losing
/// transaction is run again, `change` included, on the values the winner committed: `change` must
/// depend only on the values it is given (SettingsManager's do).
struct PostgresSettingsStore: SettingsStore {
    let database: PostgresAppDatabase
    let clock: any WallClock

    func values(in scope: SettingsScope) async throws -> StoredSettings {
        try await database.read { transaction in try Self.values(in: scope, transaction) }
    }

    func modify<T: Sendable>(
        _ scope: SettingsScope, _ change: @escaping @Sendable (inout StoredSettings) throws -> T
    ) async throws -> T {
        let now = clock.now()
        let storageKey = scope.storageKey
        return try await database.write { transaction in
            let before = try Self.values(in: scope, transaction)
            var after = before
            let result = try change(&after)
            for key in before.own.keys where after.own[key] == nil {
                try transaction.execute("DELETE FROM settings_value WHERE scope = \(storageKey) AND key = \(key)")
            }
            for (key, value) in after.own where before.own[key] != value {
                try transaction.execute(
                    """
                    INSERT INTO settings_value (scope, key, value, updated_at) VALUES (\(storageKey), \(key), \(value), \(now))
                    ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                    """)
            }
            return result
        }
    }

    /// The values of `scope` and, for a user, the device's, as `transaction` sees them.
    private static func values(in scope: SettingsScope, _ transaction: PostgresTransaction) throws -> StoredSettings {
        func fetch(_ scope: String) throws -> [String: String] {
            var values: [String: String] = [:]
            for row in try transaction.rows("SELECT key, value FROM settings_value WHERE scope = \(scope)") {
                let (key, value) = try row.decode((String, String).self)
                values[key] = value
            }
            return values
        }
        let own = try fetch(scope.storageKey)
        return StoredSettings(own: own, fallback: scope.isDevice ? [:] : try fetch(SettingsScope.device.storageKey))
    }
}

/// ``SettingsEraser`` on the `settings_value` table, in the transaction it is handed.
struct PostgresSettingsEraser: SettingsEraser {
    @discardableResult
    func eraseValues(inScope storageKey: String, in transaction: any Transaction) throws -> Int {
        let transaction = try PostgresTransaction.open(transaction)
        let erased = try transaction.value(
            """
            WITH erased AS (DELETE FROM settings_value WHERE scope = \(storageKey) RETURNING key)
            SELECT count(*) FROM erased
            """, as: Int64.self)
        return Int(erased ?? 0)
    }
}
