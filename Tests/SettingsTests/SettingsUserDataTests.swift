import AuthInterface
import Foundation
import GRDB
import Persistence
import Registry
import SettingsData
import SettingsDomain
import SettingsInterface
import SharedKit
import Storage
import Testing

/// Settings' share in `moa auth delete`, on a real database: nothing blocks, and erasing removes
/// exactly the deleted user's stored settings.
@Suite("Settings: deleting a user's data")
struct SettingsUserDataTests {
    let database: AppDatabase
    let scope = SwitchableScope(.device)
    let manager: SettingsManager

    init() throws {
        database = try AppDatabase.temporary(migrations: [SettingsMigrations.all])
        manager = SettingsManager(store: SQLiteSettingsStore(database: database, clock: ManualWallClock()), scopes: scope)
    }

    private func scopes() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT scope FROM settings_value ORDER BY scope, key") }
    }

    /// The owner as the App gets it: from `SettingsDataModule`, under `SettingsUserDataKey`.
    private func composedOwner() throws -> any UserDataOwner {
        try RegistryBuilder(modules: [
            SettingsDataModule(scope: scope, environment: [:]),
            ModuleOf.core(database: database, clock: ManualWallClock()),
        ]).validate(root: SettingsUserDataKey.self).resolve()
    }

    @Test func erasingRemovesOnlyThatUsersSettingsAndTheirValuesFallBackToDefaults() async throws {
        _ = try await manager.set("display.page-size", to: "30") // the device's
        scope.become(.ada)
        _ = try await manager.set("display.language", to: "ko")
        _ = try await manager.set("transfer.per-transfer-limit", to: "1,000,000 KRW")
        scope.become(.bob)
        _ = try await manager.set("display.page-size", to: "50")
        let owner = try composedOwner()
        #expect(owner.name == "Settings")

        try await database.perform { transaction in
            #expect(try owner.deletionBlockers(for: UserID("user-ada"), in: transaction).isEmpty)
            try owner.erase(UserID("user-ada"), in: transaction)
        }

        #expect(try scopes() == ["device", "user-bob"])
        scope.become(.ada) // were Ada to come back with the same id, she would start from the device's values and the defaults
        let snapshot = try await manager.snapshot()
        #expect(snapshot.language == .en && snapshot.pageSize == 30 && snapshot.transferLimits.perTransfer.minorUnits == 5_000_000)
    }

    @Test func aUserWithoutStoredSettingsErasesNothingAndNeverTheDevice() async throws {
        _ = try await manager.set("display.language", to: "ko")
        let owner = try composedOwner()
        try await database.perform { transaction in
            try owner.erase(UserID("user-nobody"), in: transaction)
            try owner.erase(UserID("device"), in: transaction)
        }
        #expect(try scopes() == ["device"])
    }
}
