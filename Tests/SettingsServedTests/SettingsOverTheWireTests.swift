import APIClient
import APITesting
import AuthInterface
import AuthTesting
import Foundation
import SettingsData
import SettingsDomain
import SettingsRemote
import SettingsServer
import SharedKit
import Storage
import Testing

/// Settings' served half in its own closure: a server's settings (SQLite, the request's user) behind
/// its handlers (SettingsServer), and a client's (RemoteSettingsStore under the same
/// `SettingsManager` `moa` runs) on the generated client, joined in one process.
@Suite("Settings · over the wire")
struct SettingsOverTheWireTests {
    let session = FakeSessionProvider(user: FakeSessionProvider.ada)
    /// Whom the server's requests act for (its bearer check's answer).
    let serverSession = FakeSessionProvider(user: FakeSessionProvider.ada)
    let server: SettingsManager
    let client: SettingsManager

    init() throws {
        let clock = ManualWallClock()
        server = SettingsManager(
            store: SQLiteSettingsStore(database: try AppDatabase.inMemory(migrations: [SettingsMigrations.all]), clock: clock),
            scopes: SessionSettingsScope(session: serverSession))
        let api = InProcessAPI(requiresToken: true)
        try SettingsHandlers(settings: server, session: serverSession).registerHandlers(on: api)
        let remote = try api.client()
        client = SettingsManager(
            store: RemoteSettingsStore(
                local: SQLiteSettingsStore(database: try AppDatabase.inMemory(migrations: [SettingsMigrations.all]), clock: clock),
                api: remote),
            scopes: SessionSettingsScope(session: session))
    }

    @Test func aMoneySettingIsKeptOnTheServerAndTheOthersHere() async throws {
        let daily = SettingKey.transferDailyLimit.name
        _ = try await client.set(daily, to: "12,000,000")
        #expect(try await server.entry(named: daily).entry.source == .user)
        #expect(try await client.entry(named: daily).entry == (try await server.entry(named: daily).entry))
        let local = try #require(SettingKey.allCases.first { !RemoteSettingsStore.served.contains($0.name) && $0.defaultValue != nil })
        let before = try await server.entry(named: local.name).entry
        _ = try await client.reset(local.name)
        #expect(try await server.entry(named: local.name).entry == before)
        _ = try await client.reset(daily)
        #expect(try await server.entry(named: daily).entry.source != .user)
    }

    @Test func aServerThatDoesNotKnowTheUserRefusesInItsOwnSentence() async throws {
        serverSession.set(nil)
        let refused = await #expect(throws: RemoteProblem.self) {
            try await client.set(SettingKey.transferDailyLimit.name, to: "12,000,000")
        }
        #expect(refused?.message == NotLoggedInError().message && refused?.exitStatus == NotLoggedInError().exitStatus)
        serverSession.set(FakeSessionProvider.ada)
        #expect(try await server.entry(named: SettingKey.transferDailyLimit.name).entry.source != .user)
    }
}
