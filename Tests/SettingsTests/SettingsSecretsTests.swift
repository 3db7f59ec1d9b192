import Foundation
import GRDB
import SettingsData
import SettingsDomain
import SettingsInterface
import SharedKit
import Storage
import Testing

/// The secret settings (`search.api-token`, `archive.api-key`) in the credential store: the
/// database keeps only a marker when the machine has a system store, a secret found in the database
/// moves into the store on first read, and nothing is lost either way.
@Suite("Settings: secrets in the credential store")
struct SettingsSecretsTests {
    let database: AppDatabase
    let clock = ManualWallClock()
    let scope = SwitchableScope(.device)
    static let token = "ghp_settingsSECRET_0123456789"

    init() throws {
        database = try AppDatabase.temporary(migrations: [SettingsMigrations.all])
    }

    private func manager(_ credentials: any CredentialStore) -> SettingsManager {
        SettingsManager(
            store: CredentialKeepingSettingsStore(SQLiteSettingsStore(database: database, clock: clock), credentials: credentials),
            scopes: scope, environment: [:])
    }

    private func rows() throws -> [String: String] {
        try database.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT scope, key, value FROM settings_value").map {
                    ("\($0["scope"] as String) \($0["key"] as String)", $0["value"] as String)
                })
        }
    }

    /// Every byte of the database's files, as text: where a leaked secret would be found.
    private func databaseBytes() throws -> String {
        let path = database.path
        return [path, path + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }
            .map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    @Test func withASystemStoreTheDatabaseHoldsOnlyAMarker() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        let manager = manager(store)
        _ = try await manager.set("search.api-token", to: Self.token)
        #expect(try rows()["device search.api-token"] == CredentialKeepingSettingsStore.marker)
        #expect(try store.secret(#require(CredentialName("settings.device.search.api-token"))) == Self.token)
        #expect(try await manager.snapshot().searchAPI.token == Self.token)
        #expect(try !databaseBytes().contains(Self.token))

        // Other settings in the same change pass through; a reset removes the item.
        _ = try await manager.set("display.page-size", to: "30")
        #expect(try await manager.snapshot().searchAPI.token == Self.token)
        _ = try await manager.reset("search.api-token")
        #expect(store.names.isEmpty)
        #expect(try await manager.snapshot().searchAPI.token == nil)
    }

    @Test func aSecretInTheDatabaseMovesIntoTheStoreOnFirstRead() async throws {
        _ = try await manager(InMemoryCredentialStore(backend: .files)).set("archive.api-key", to: "seoul-key-0123456789")
        #expect(try rows()["device archive.api-key"] == "seoul-key-0123456789")

        let store = InMemoryCredentialStore(backend: .secretService)
        #expect(try await manager(store).snapshot().archiveAPIKey == "seoul-key-0123456789")
        #expect(try rows()["device archive.api-key"] == CredentialKeepingSettingsStore.marker)
        #expect(try store.secret(#require(CredentialName("settings.device.archive.api-key"))) == "seoul-key-0123456789")
    }

    @Test func aUsersSecretAndTheDevicesAreSeparateItems() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        let manager = manager(store)
        _ = try await manager.set("search.api-token", to: "device-token-000")
        scope.become(.user(id: "0f4e2a9c-user", email: "ada@example.com"))
        #expect(try await manager.snapshot().searchAPI.token == "device-token-000") // the device's, as a fallback
        _ = try await manager.set("search.api-token", to: "user-token-0000")
        #expect(try await manager.snapshot().searchAPI.token == "user-token-0000")
        #expect(store.names == ["settings.0f4e2a9c-user.search.api-token", "settings.device.search.api-token"])
    }

    @Test func aMarkerWhoseItemIsGoneReadsAsUnset() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        _ = try await manager(store).set("search.api-token", to: Self.token)
        try store.remove(#require(CredentialName("settings.device.search.api-token")))
        #expect(try await manager(store).snapshot().searchAPI.token == nil)
        // And without a system store any more, the marker is never taken for a secret.
        #expect(try await manager(InMemoryCredentialStore(backend: .files)).snapshot().searchAPI.token == nil)
    }

    @Test func withoutASystemStoreSecretsStayInTheDatabaseAsBefore() async throws {
        let store = InMemoryCredentialStore(backend: .files)
        _ = try await manager(store).set("search.api-token", to: Self.token)
        #expect(try rows()["device search.api-token"] == Self.token)
        #expect(store.names.isEmpty)
    }
}
