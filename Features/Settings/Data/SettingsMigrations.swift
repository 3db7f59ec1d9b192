import Foundation
import GRDB
import SettingsDomain
import SharedKit
import Storage

/// Settings' schema, applied by the App (and the Example) when the database opens.
///
/// One row per stored value: `scope` is the user id, or `device` before login. Values are the
/// validated storage text (money as minor units). The API token is kept here as given: the
/// database is owner-only (`umask 077`), and the token never leaves it in output or logs.
public enum SettingsMigrations {
    public static let all = MigrationSet(
        feature: "Settings",
        steps: [
            .init("v1-create-settings-value") { db in
                try db.create(table: "settings_value") { table in
                    table.column("scope", .text).notNull()
                    table.column("key", .text).notNull()
                    table.column("value", .text).notNull()
                    table.column("updated_at", .datetime).notNull()
                    table.primaryKey(["scope", "key"])
                }
            }
        ])
}
