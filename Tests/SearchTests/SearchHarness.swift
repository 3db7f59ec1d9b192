import ArchiveInterface
import ArchiveTesting
import CommandKit
import DesignSystem
import Foundation
import Logging
import Networking
import Registry
import SearchData
import SearchDomain
import SearchFeature
import SearchInterface
import SettingsInterface
import SettingsTesting
import SharedKit
import Storage
import Synchronization
import TestSupport
import Testing

/// Search's real Domain, Data and Feature modules, composed like the App does, on fakes: Settings'
/// `FakeSettingsReader`, a manual clock, a database (in memory unless shared), and the HTTP clients
/// given (a stub, or URLSession against a test server).
struct SearchHarness {
    let settings: FakeSettingsReader
    let catalogue: FakeEventCatalogue
    let clock: ManualWallClock
    let database: AppDatabase
    let registry: ValidatedRegistry<SearchHarnessRoot>

    init(
        clients: SearchHTTPClients = .fixed(StubHTTPClient()), baseURL: URL? = nil, token: String? = nil, database: AppDatabase? = nil,
        clock: ManualWallClock = ManualWallClock(), configuration: SearchAPIConfiguration = SearchAPIConfiguration(userAgent: "moa/test"),
        events: [CulturalEvent] = [], credentials: any CredentialStore = InMemoryCredentialStore(backend: .files),
        oauthBaseURL: URL? = nil, oauthClientID: String? = nil,
        loginSleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) throws {
        var snapshot = SettingsSnapshot.defaults
        snapshot.searchAPI = SearchAPISettings(
            baseURL: baseURL ?? SettingsSnapshot.defaultSearchBaseURL, token: token,
            oauthBaseURL: oauthBaseURL ?? SettingsSnapshot.defaultOAuthBaseURL, oauthClientID: oauthClientID)
        settings = FakeSettingsReader(snapshot)
        catalogue = FakeEventCatalogue(events)
        self.clock = clock
        self.database = try database ?? AppDatabase.inMemory(migrations: [SearchMigrations.all])
        registry = try RegistryBuilder(modules: [
            ModuleOf.core(database: self.database, clock: clock, credentials: credentials),
            ModuleOf(
                "Fakes",
                [
                    .instance(SettingsReaderKey.self, settings),
                    .instance(EventCatalogueKey.self, catalogue),
                    .instance(EventArchivingKey.self, FakeEventArchiving(catalogue: catalogue, today: Day(clock.now(), in: .gmt))),
                ]),
            SearchDataModule(configuration: configuration, clients: clients),
            SearchFeatureModule(loginSleep: loginSleep),
            ModuleOf(
                "Tests",
                [
                    .singleton(
                        SearchHarnessRoot.self, requires: SearchCommandsKey.self, UserSearchServiceKey.self, UserProfileLookupKey.self,
                        EventSearchServiceKey.self
                    ) {
                        SearchHarnessRoot.Service(commands: $0, service: $1, lookup: $2, events: $3)
                    }
                ]),
        ]).validate(root: SearchHarnessRoot.self)
    }

    /// A harness on a stub client.
    init(stub: StubHTTPClient, token: String? = nil, clock: ManualWallClock = ManualWallClock()) throws {
        try self.init(clients: .fixed(stub), token: token, clock: clock)
    }

    /// The use cases, as the commands use them (same singletons, so the same memory cache).
    var service: UserSearchService { registry.resolve().service }

    /// The event search use case.
    var events: EventSearchService { registry.resolve().events }

    struct Run {
        let out: String
        let err: String
        let status: Int32
    }

    /// Runs `moa search ARGUMENTS` through the feature's command group, as the App dispatches it.
    func run(_ arguments: [String]) async throws -> Run {
        let command = try SearchCommand.parseAsRoot(arguments)
        let out = CapturingOutput()
        let err = CapturingOutput()
        let context = CommandContext(json: arguments.contains("--json"), out: out, err: err)
        var status = ExitStatus.ok
        do {
            _ = try await registry.resolve().commands.run(command, context: context)
        } catch let error as any UserFacingError {
            status = context.report(error)
        }
        return Run(out: out.text, err: err.text, status: status.rawValue)
    }
}

/// What the harness resolves.
enum SearchHarnessRoot: ServiceKey {
    struct Service: Sendable {
        let commands: FeatureCommands
        let service: UserSearchService
        let lookup: any UserProfileLookup
        let events: EventSearchService
    }
}

/// GitHub-shaped bodies.
enum GitHubJSON {
    static func user(_ login: String, id: Int64 = 1, name: String? = nil) -> String {
        let name = name.map { #""\#($0)""# } ?? "null"
        return """
            {"login":"\(login)","id":\(id),"type":"User","name":\(name),"company":"@github","blog":"https://github.blog",
             "location":"San Francisco","email":null,"bio":"There once was...","public_repos":8,"followers":20000,
             "following":9,"created_at":"2011-01-25T18:44:36Z","html_url":"https://github.com/\(login)",
             "avatar_url":"https://avatars.githubusercontent.com/u/\(id)?v=4"}
            """
    }

    static func searchPage(total: Int, logins: [String], incomplete: Bool = false) -> String {
        let items = logins.enumerated().map { index, login in
            #"{"login":"\#(login)","id":\#(index + 1),"type":"User","score":1.0,"html_url":"https://github.com/\#(login)","avatar_url":null}"#
        }
        return #"{"total_count":\#(total),"incomplete_results":\#(incomplete),"items":[\#(items.joined(separator: ","))]}"#
    }

    /// A `Link` header like GitHub's, for `page` of `last`.
    static func links(base: String, query: String, page: Int, last: Int, perPage: Int) -> String {
        func link(_ page: Int, _ rel: String) -> String {
            "<\(base)/search/users?q=\(query)&page=\(page)&per_page=\(perPage)>; rel=\"\(rel)\""
        }
        var links: [String] = []
        if page > 1 { links += [link(page - 1, "prev")] }
        if page < last { links += [link(page + 1, "next"), link(last, "last")] }
        if page > 1 { links += [link(1, "first")] }
        return links.joined(separator: ", ")
    }
}

extension SearchHTTPClients {
    /// URLSession clients whose every log line (trace level) goes to `sink`.
    /// `timeout`: generous by default, because the whole suite runs in parallel on 2 cores; the tests
    /// of timeouts pass a short one.
    static func logging(to sink: LogLines, timeout: TimeInterval = 30) -> SearchHTTPClients {
        SearchHTTPClients { baseURL in
            URLSessionHTTPClient(
                baseURL: baseURL, session: URLSessionHTTPClient.makeSession(timeout: timeout),
                logger: sink.logger(label: "test.search"))
        }
    }
}
