import AuthTesting
import Foundation
import GRDB
import Money
import Registry
import SettingsData
import SettingsDomain
import SettingsInterface
import SharedKit
import Storage
import Testing

/// The SQLite store and the composed Data module, on a real database in a temporary folder.
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

    @Test func twoUsersAndTheDeviceAreIsolated() async throws {
        _ = try await manager.set("display.page-size", to: "30") // device
        _ = try await manager.set("display.language", to: "ko") // device
        scope.become(.ada)
        _ = try await manager.set("display.page-size", to: "50")
        _ = try await manager.set("transfer.per-transfer-limit", to: "1,000,000 KRW")
        scope.become(.bob)
        _ = try await manager.set("display.language", to: "en")

        #expect(
            try rows() == [
                "device display.language=ko", "device display.page-size=30",
                "user-ada display.page-size=50", "user-ada transfer.per-transfer-limit=1000000",
                "user-bob display.language=en",
            ])
        // Bob: his language, the device's page size, the default limit.
        let bob = try await manager.snapshot()
        #expect(bob.language == .en && bob.pageSize == 30 && bob.transferLimits.perTransfer.minorUnits == 5_000_000)
        scope.become(.ada)
        let ada = try await manager.snapshot()
        #expect(ada.language == .ko && ada.pageSize == 50 && ada.transferLimits.perTransfer.minorUnits == 1_000_000)
        scope.become(.device)
        let device = try await manager.snapshot()
        #expect(device.language == .ko && device.pageSize == 30 && device.transferLimits.perTransfer.minorUnits == 5_000_000)
    }

    @Test func resetOneFallsBackToTheDeviceThenTheDefault() async throws {
        _ = try await manager.set("display.page-size", to: "30")
        scope.become(.ada)
        _ = try await manager.set("display.page-size", to: "50")
        let reset = try await manager.reset("display.page-size")
        #expect(reset.removed && reset.setting.entry == SettingEntry(key: .displayPageSize, value: .integer(30), source: .device))
        #expect(try await manager.reset("display.page-size").removed == false)
        scope.become(.device)
        let deviceReset = try await manager.reset("display.page-size")
        #expect(deviceReset.setting.entry == SettingEntry(key: .displayPageSize, value: .integer(20), source: .default))
        #expect(try rows().isEmpty)
    }

    @Test func resetAllRemovesOnlyTheCurrentScope() async throws {
        _ = try await manager.set("display.color", to: "never")
        scope.become(.ada)
        for (key, value) in [
            ("display.page-size", "10"), ("account.default", "110-234-567890"), ("search.api-token", "tok_1234567890abcdef"),
        ] {
            _ = try await manager.set(key, to: value)
        }
        #expect(try await manager.storedCount().count == 3)
        let result = try await manager.resetAll()
        #expect(result.removed == 3 && result.scope == .ada)
        #expect(try rows() == ["device display.color=never"])
        #expect(try await manager.snapshot().color == .never)
    }

    @Test func aRefusedChangeWritesNothing() async throws {
        _ = try await manager.set("transfer.daily-limit", to: "20,000,000")
        let before = try rows()
        await #expect(throws: SettingsError.self) { _ = try await manager.set("transfer.per-transfer-limit", to: "25,000,000") }
        await #expect(throws: SettingsError.self) { _ = try await manager.set("transfer.daily-limit", to: "1,000,000") }
        #expect(try rows() == before)
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
