import ArchiveData
import ArchiveDomain
import ArchiveFeature
import ArchiveInterface
import ArchiveTesting
import AuthInterface
import AuthTesting
import CommandKit
import DesignSystem
import Foundation
import Networking
import Registry
import SettingsInterface
import SettingsTesting
import SharedKit
import Storage
import Testing

/// Archive composed as the App composes it — real Domain, Data (a SQLite file in a temporary folder)
/// and Feature — with a fake session and settings, a manual clock and a stub HTTP client.
struct ArchiveHarness {
    enum Root: ServiceKey {
        struct Service: Sendable {
            let commands: FeatureCommands
            let service: ArchiveService
            let importer: CatalogueImporter
            let catalogue: any EventCatalogue
            let store: any CatalogueStore
            let archiving: any EventArchiving
            let userData: any UserDataOwner
        }
    }

    static let bo = AuthenticatedUser(id: "user-bo", email: "bo@example.com")

    let database: AppDatabase
    let clock: ManualWallClock
    let session = FakeSessionProvider()
    let settings = FakeSettingsReader()
    let http: StubHTTPClient
    let root: Root.Service

    /// - Parameter today: the clock's day (at 03:00 UTC; the service decides days in UTC).
    init(today: String = "2026-11-23", http: StubHTTPClient = StubHTTPClient(), ticketIDs: [String] = []) throws {
        database = try AppDatabase.temporary(migrations: [ArchiveMigrations.all])
        clock = ManualWallClock(Self.date(today))
        self.http = http
        let ids = Locked(ticketIDs)
        let modules: [any FeatureModule] = [
            ModuleOf.core(database: database, clock: clock),
            AuthFakes(session: session),
            SettingsFakes(reader: settings),
            ArchiveDataModule(httpClient: http),
            ArchiveFeatureModule(timeZone: .gmt),
            ModuleOf(
                "Test",
                [
                    .singleton(
                        Root.self, requires: ArchiveCommandsKey.self, ArchiveServiceKey.self, CatalogueImporterKey.self,
                        EventCatalogueKey.self,
                        CatalogueStoreKey.self, EventArchivingKey.self, ArchiveUserDataKey.self
                    ) {
                        Root.Service(commands: $0, service: $1, importer: $2, catalogue: $3, store: $4, archiving: $5, userData: $6)
                    }
                ]),
        ]
        let clock = clock
        let session = session
        root = try RegistryBuilder(modules: modules).validate(root: Root.self).overriding { overrides in
            overrides.replace(
                .singleton(ArchiveServiceKey.self, requires: TicketStoreKey.self, CatalogueStoreKey.self, PreferenceStoreKey.self) {
                    tickets, catalogue, preferences in
                    ArchiveService(
                        tickets: tickets, catalogue: catalogue, preferences: preferences, session: session, clock: clock, timeZone: .gmt,
                        makeID: {
                            ids.withLock { $0.isEmpty ? TicketID.random() : TicketID($0.removeFirst()) }
                        })
                })
        }.resolve()
    }

    var service: ArchiveService { root.service }

    static func date(_ day: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: day + "T03:00:00Z") ?? Date(timeIntervalSince1970: 0)
    }

    static func day(_ text: String) -> Day {
        Day(text) ?? Day(Date(timeIntervalSince1970: 0), in: .gmt)
    }

    /// Imports the bundled sample.
    @discardableResult
    func importSample() async throws -> ImportReport {
        try await root.importer.run(InMemoryCatalogueSource.sample)
    }

    func importJSON(_ text: String, name: String = "fixture.json") async throws -> ImportReport {
        try await root.importer.run(InMemoryCatalogueSource(name: name, data: Data(text.utf8)))
    }

    /// The id of the catalogue event titled `title`.
    func eventID(_ title: String) async throws -> EventID {
        let page = try await root.catalogue.search(EventQuery(perPage: 200))
        return try #require(page.events.first { $0.title == title }?.id, "no event titled \(title)")
    }

    func eventCount() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM archive_events") ?? 0 }
    }

    /// Runs `arguments` as `moa archive …` and returns standard output (throws what the command throws).
    @discardableResult
    func run(_ arguments: [String], json: Bool = false, err: CapturingOutput = CapturingOutput()) async throws -> String {
        let out = CapturingOutput()
        let parsed = try ArchiveCommand.parseAsRoot(arguments)
        let ran = try await root.commands.run(parsed, context: CommandContext(json: json, out: out, err: err))
        #expect(ran)
        return out.text
    }

    /// A temporary folder, removed when the returned object is released.
    static func temporaryFolder() throws -> TemporaryFolder { try TemporaryFolder() }
}

final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("archive-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// One `culturalEventInfo` row as JSON, for fixtures.
func row(
    _ title: String, category: String = "전시/미술", district: String = "종로구", place: String = "서울 어딘가", start: String = "2026-12-01",
    end: String? = nil, free: Bool = true, audience: String = "누구나", fee: String = ""
) -> String {
    let fields: [(String, String)] = [
        ("CODENAME", category), ("GUNAME", district), ("TITLE", title), ("PLACE", place), ("USE_TRGT", audience), ("USE_FEE", fee),
        ("STRTDATE", start + " 00:00:00.0"), ("END_DATE", (end ?? start) + " 00:00:00.0"), ("IS_FREE", free ? "무료" : "유료"),
    ]
    let body = fields.map { key, value -> String in
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(key)\": \"\(escaped)\""
    }.joined(separator: ", ")
    return "{\(body)}"
}

func catalogueJSON(_ rows: [String]) -> String {
    "{\"culturalEventInfo\": {\"list_total_count\": \(rows.count), \"RESULT\": {\"CODE\": \"INFO-000\", \"MESSAGE\": \"정상 처리되었습니다\"}, \"row\": [\n"
        + rows.joined(separator: ",\n") + "\n]}}"
}
