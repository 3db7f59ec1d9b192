import Foundation
import GRDB
import SettingsDomain
import SharedKit
import Storage

/// Settings stored in SQLite, one transaction per change.
public struct SQLiteSettingsStore: SettingsStore {
    let database: AppDatabase
    let clock: any WallClock

    public init(database: AppDatabase, clock: any WallClock) {
        self.database = database
        self.clock = clock
    }

    public func values(in scope: SettingsScope) async throws -> StoredSettings {
        try database.read { db in try Self.values(in: scope, db) }
    }

    public func modify<T: Sendable>(
        _ scope: SettingsScope, _ change: @escaping @Sendable (inout StoredSettings) throws -> T
    ) async throws -> T {
        let now = clock.now()
        return try await database.write { db in
            let before = try Self.values(in: scope, db)
            var after = before
            let result = try change(&after)
            for key in before.own.keys where after.own[key] == nil {
                try db.execute(sql: "DELETE FROM settings_value WHERE scope = ? AND key = ?", arguments: [scope.storageKey, key])
            }
            for (key, value) in after.own where before.own[key] != value {
                try db.execute(
                    sql: """
                        INSERT INTO settings_value (scope, key, value, updated_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT(scope, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                        """,
                    arguments: [scope.storageKey, key, value, now])
            }
            return result
        }
    }

    private static func values(in scope: SettingsScope, _ db: Database) throws -> StoredSettings {
        func fetch(_ scope: String) throws -> [String: String] {
            let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM settings_value WHERE scope = ?", arguments: [scope])
            var values: [String: String] = [:]
            for row in rows {
                let key: String = row["key"]
                let value: String = row["value"]
                values[key] = value
            }
            return values
        }
        let own = try fetch(scope.storageKey)
        return StoredSettings(own: own, fallback: scope.isDevice ? [:] : try fetch(SettingsScope.device.storageKey))
    }
}
