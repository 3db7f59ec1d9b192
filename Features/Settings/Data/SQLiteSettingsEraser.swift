import GRDB
import Persistence
import SettingsDomain
import Storage

/// ``SettingsEraser`` on the `settings_value` table, in the transaction it is handed.
public struct SQLiteSettingsEraser: SettingsEraser {
    public init() {}

    @discardableResult
    public func eraseValues(inScope storageKey: String, in transaction: any Transaction) throws -> Int {
        let db = try SQLiteTransaction.open(transaction)
        try db.execute(sql: "DELETE FROM settings_value WHERE scope = ?", arguments: [storageKey])
        return db.changesCount
    }
}
