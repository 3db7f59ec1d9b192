import AuthTesting
import Foundation
import GRDB
import Registry
import SettingsData
import SettingsDomain
import SettingsInterface
import SharedKit
import Storage
import Testing

/// The composed Data module, and what the SQLite store keeps beyond its protocol, on a real
/// database in a temporary folder. (What every engine's store must do is in StoreContractTests.)
@Suite("Settings: SQLite storage")
struct SettingsStorageTests {
    let database: AppDatabase
    let clock = ManualWallClock()
    let scope = SwitchableScope(.device)
    let manager: SettingsManager

    init() throws {
        database = try AppDatabase.temporary(migrations: [SettingsMigrations.all])
        manager = SettingsManager(store: SQLiteSettingsStore(database: database, clock: clock), scopes: scope)
    }

    private func rows() throws -> [String] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT scope, key, value FROM settings_value ORDER BY scope, key").map {
                "\($0["scope"] as String) \($0["key"] as String)=\($0["value"] as String)"
            }
        }
    }

    @Test func eachChangeRecordsWhenItWasMade() async throws {
        _ = try await manager.set("display.page-size", to: "30")
        let first = try database.read { db in try Date.fetchOne(db, sql: "SELECT updated_at FROM settings_value") }
        clock.advance(by: 60)
        _ = try await manager.set("display.page-size", to: "31")
        let second = try database.read { db in try Date.fetchOne(db, sql: "SELECT updated_at FROM settings_value") }
        #expect(first == clock.now().addingTimeInterval(-60))
        #expect(second == clock.now())
    }

    @Test func theComposedModuleFollowsTheSession() async throws {
        let session = FakeSessionProvider() // ada is logged in
        let registry = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: clock),
            SettingsDataModule(scope: SessionSettingsScope(session: session), environment: [:]),
        ]).validate(root: SettingsManagerKey.self)
        let manager = registry.resolve()
        _ = try await manager.set("display.page-size", to: "42")
        session.set(nil) // logged out: the device's settings
        #expect(try await manager.snapshot().pageSize == 20)
        _ = try await manager.set("display.page-size", to: "25")
        #expect(try rows() == ["device display.page-size=25", "user-ada display.page-size=42"])
        #expect(try await manager.report().scope == .device)
    }

    @Test func withoutAScopeTheModuleRequiresAuthsSession() {
        #expect {
            _ = try RegistryBuilder(modules: [
                ModuleOf.core(database: database, clock: clock),
                SettingsDataModule(),
            ]).validate(root: SettingsReaderKey.self)
        } throws: { error in
            "\(error)".contains("SessionProviderKey") && "\(error)".contains("expected from Auth")
        }
    }

    @Test func theModuleCanLeaveTheOverridesToTheApp() async throws {
        let app = SettingsOverrides(["display.color": "never"])
        let registry = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: clock),
            ModuleOf("App", [.instance(SettingsOverridesKey.self, app)]),
            SettingsDataModule(scope: scope, overrides: nil, environment: [:]),
        ]).validate(root: SettingsReaderKey.self)
        #expect(try await registry.resolve().snapshot().color == .never)
        #expect {
            _ = try RegistryBuilder(modules: [
                ModuleOf.core(database: database, clock: clock),
                ModuleOf("App", [.instance(SettingsOverridesKey.self, app)]),
                SettingsDataModule(scope: scope, environment: [:]),
            ]).validate(root: SettingsReaderKey.self)
        } throws: { error in "\(error)".contains("SettingsOverridesKey") }
    }
}
