import APIClient
import APITesting
import AuthInterface
import AuthTesting
import CommandKit
import Foundation
import Money
import SettingsAPI
import SettingsData
import SettingsDomain
import SettingsInterface
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
    /// The handlers' transport, for what a client that is not `moa` reads (the raw JSON).
    let api: InProcessAPI

    init() throws {
        let clock = ManualWallClock()
        server = SettingsManager(
            store: SQLiteSettingsStore(database: try AppDatabase.inMemory(migrations: [SettingsMigrations.all]), clock: clock),
            scopes: SessionSettingsScope(session: serverSession))
        let api = InProcessAPI(requiresToken: true)
        try SettingsHandlers(settings: server, session: serverSession).registerHandlers(on: api)
        self.api = api
        let remote = try api.client()
        client = SettingsManager(
            store: RemoteSettingsStore(
                local: SQLiteSettingsStore(database: try AppDatabase.inMemory(migrations: [SettingsMigrations.all]), clock: clock),
                api: remote),
            scopes: SessionSettingsScope(session: session))
    }

    /// A script reads a setting alike from the API and from `moa settings get --json`: the same keys,
    /// and money as `{minor_units, currency}` in both.
    @Test func theAPIAndMoasJSONShowASettingAlike() async throws {
        let daily = SettingKey.transferDailyLimit.name
        _ = try await server.set(daily, to: "12,000,000")
        let (status, served) = try await api.object(get: "/v1/settings/\(daily)")
        #expect(status == .ok)
        let printed = InProcessAPI.object(try JSONOutput.encode(SettingRecord(try await server.entry(named: daily).entry)))
        #expect(served != nil && served == printed)
        #expect((served?["value"] as? NSDictionary)?["minor_units"] as? Int == 12_000_000)
        #expect(served?["source"] as? String == "user")
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

    /// Every `moa` command reads the snapshot (its language and colours): it asks the server nothing.
    /// With a server that would refuse any request, the snapshot is still read, with this machine's
    /// values; what `moa settings` lists still comes from the server.
    @Test func readingTheSnapshotAsksTheServerNothing() async throws {
        _ = try await client.set("display.page-size", to: "33")
        serverSession.set(nil)
        let snapshot = try await client.snapshot()
        #expect(snapshot.pageSize == 33)
        await #expect(throws: RemoteProblem.self) { try await client.report() }
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

/// A server that answers with what no Moa server says of a money setting: another currency, a text
/// value, a source it has no layer for, a key it does not serve.
private struct HostileSettings: APIProtocol {
    let setting: SettingRecord

    func listSettings(_ input: Operations.ListSettings.Input) async throws -> Operations.ListSettings.Output {
        .ok(.init(body: .json([setting])))
    }
    func getSetting(_ input: Operations.GetSetting.Input) async throws -> Operations.GetSetting.Output {
        .ok(.init(body: .json(setting)))
    }
    func putSetting(_ input: Operations.PutSetting.Input) async throws -> Operations.PutSetting.Output {
        .ok(.init(body: .json(setting)))
    }
    func resetSetting(_ input: Operations.ResetSetting.Input) async throws -> Operations.ResetSetting.Output {
        .ok(.init(body: .json(setting)))
    }
}

@Suite("Settings · a hostile server")
struct SettingsHostileServerTests {
    static let daily = SettingKey.transferDailyLimit.name
    static func setting(
        key: String = daily, value: SettingRecord.Value = .money(Money(minorUnits: 500_000, currency: .krw)), source: String = "user"
    ) -> SettingRecord {
        SettingRecord(
            key: key, value: value, default: .money(Money(minorUnits: 10_000_000, currency: .krw)), source: source, description: "")
    }

    static let hostile: [SettingRecord] = [
        setting(value: .money(Money(minorUnits: 500_000, currency: Currency.usd))),
        setting(value: .text("500000")),
        setting(value: .secretIsSet(true)),
        setting(source: "flag"),
        setting(key: SettingKey.displayColor.name),
    ]

    private func client(_ answer: SettingRecord) throws -> SettingsManager {
        let api = InProcessAPI()
        try HostileSettings(setting: answer).registerHandlers(on: api)
        return SettingsManager(
            store: RemoteSettingsStore(
                local: SQLiteSettingsStore(
                    database: try AppDatabase.inMemory(migrations: [SettingsMigrations.all]), clock: ManualWallClock()),
                api: try api.client()),
            scopes: SessionSettingsScope(session: FakeSessionProvider(user: FakeSessionProvider.ada)))
    }

    @Test func anHonestAnswerIsRead() async throws {
        let entry = try await client(Self.setting()).entry(named: Self.daily).entry
        #expect(entry.value == .money(Money(minorUnits: 500_000, currency: .krw)) && entry.source == .user)
    }

    @Test(arguments: hostile)
    func aSettingNoMoaServerSendsIsAnAnswerNotUnderstood(_ answer: SettingRecord) async throws {
        let refused = await #expect(throws: RemoteProblem.self) { try await client(answer).entry(named: Self.daily) }
        #expect(refused?.type == "unexpected-response")
    }
}
