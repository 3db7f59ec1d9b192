import APIServing
import AccountData
import AccountDomain
import AccountServer
import ArchiveData
import ArchiveDomain
import ArchiveServer
import AuthData
import AuthDomain
import AuthInterface
import AuthServer
import Foundation
import HTTPServing
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import InboxData
import InboxDomain
import InboxServer
import Logging
import MoaPostgres
import NIOSSL
import OpenAPIHummingbird
import OperationsAPI
import Persistence
import PostgresStorage
import Registry
import SettingsData
import SettingsDomain
import SettingsInterface
import SettingsServer
import SharedKit
import Storage
import TransferData
import TransferDomain
import TransferInterface
import TransferServer

// new-feature: served imports

/// The second composition root: what `moa-server` serves, composed through the same typed registry
/// as `moa` — Core's clock and unit of work, and the Data and Domain modules of the features it
/// serves (Auth, Account, Transfer, Inbox, Settings, and Archive's tickets and preferences), their stores on SQLite in the data folder (the
/// default) or on PostgreSQL (`--database`, from MoaPostgres). Each request acts for the user of its
/// bearer token (``RequestSession`` is `SessionProviderKey`).
public struct MoaServer: Sendable {
    /// Requests with a larger body are refused with 413 (a `payload-too-large` problem).
    public static let maximumBodyBytes = 64 * 1_024

    /// Where the server's stores live.
    public enum Storage: Sendable {
        /// SQLite in the data folder (`moa.sqlite`): one server process.
        case sqlite
        /// A PostgreSQL database, already migrated (``PostgresAppDatabase/migrate(_:)`` with
        /// `PostgresStores.migrations`) and running: any number of server processes.
        case postgres(PostgresAppDatabase)
    }

    public let folder: MoaHome
    let engine: Engine
    let services: ServerServices
    let logger: Logger
    let clients: ClientAddressResolver
    let limits: ConnectionLimits
    /// What `/metrics` exports (``ServerMetrics``).
    public let metrics: ServerMetrics
    let connections: ConnectionCount

    /// The engine the stores were composed on.
    enum Engine: Sendable {
        case sqlite(AppDatabase)
        case postgres(PostgresAppDatabase)

        /// The migration steps the database lacks (`/readyz`), or an error when it does not answer.
        func pendingMigrations() async throws -> [String] {
            switch self {
            case .sqlite(let database):
                let applied = Set(try database.appliedMigrations())
                return MoaServer.migrations.flatMap { set in set.steps.map { "\(set.feature)/\($0.name)" } }.filter {
                    !applied.contains($0)
                }
            case .postgres(let database):
                return try await database.pendingMigrations(PostgresStores.migrations)
            }
        }

        /// What the database layer counts, for the metrics (nothing on SQLite).
        var statistics: (@Sendable () -> ServerMetrics.DatabaseStatistics)? {
            guard case .postgres(let database) = self else { return nil }
            return {
                let (transactions, retries, alone) = database.statistics
                return ServerMetrics.DatabaseStatistics(
                    transactions: transactions, retries: retries, alone: alone, connectionsInUse: database.connectionsInUse,
                    connections: database.maximumConnections)
            }
        }
    }

    /// Opens (creating with mode 0700 if missing) the data folder (its `outbox/`, and on SQLite its
    /// database, migrated), and composes the services (a composition problem is a bug:
    /// ``ServerError/composition(_:)``). A data folder other users can write to is made owner-only
    /// first, or — when it cannot be (a shared folder, another user's) — refused
    /// (``ServerError/dataFolderExposed(_:)``): its mail and database would be theirs to change.
    /// - Parameters:
    ///   - passwordCost: scrypt's cost (``ScryptParameters/testsOnly`` for tests, which hash many
    ///     passwords in one process; never for people).
    ///   - clients: how a request's client address is found (the proxies trusted to name it).
    ///   - limits: the connection ceiling and the idle and header timeouts.
    public init(
        folder: MoaHome, storage: Storage = .sqlite, logger: Logger, clock: any WallClock = SystemWallClock(),
        passwordCost: ScryptParameters = .owasp, clients: ClientAddressResolver = ClientAddressResolver(),
        limits: ConnectionLimits = ConnectionLimits(), metrics: ServerMetrics = ServerMetrics()
    ) throws {
        try folder.prepare()
        let notes = folder.tightenPermissions()
        if let mode = folder.rootMode(), mode & 0o022 != 0 {
            throw ServerError.dataFolderExposed(
                "The data folder \(folder.root.path) can be written by other users (\(MoaHome.octal(mode))) and cannot be made owner-only")
        }
        for note in notes { logger.warning("\(note)") }
        try FileManager.default.createDirectory(
            at: folder.outboxURL, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        switch storage {
        case .sqlite: engine = .sqlite(try AppDatabase.open(at: folder.databaseURL, migrations: Self.migrations))
        case .postgres(let database): engine = .postgres(database)
        }
        self.folder = folder
        self.logger = logger
        self.clients = clients
        self.limits = limits
        self.metrics = metrics
        let connections = ConnectionCount(maximum: limits.maximumConnections)
        self.connections = connections
        metrics.observe(openConnections: { connections.current }, database: engine.statistics)
        do {
            services = try RegistryBuilder(
                modules: Self.modules(engine: engine, folder: folder, clock: clock, passwordCost: passwordCost, metrics: metrics)
            )
            .validate(root: ServerServicesKey.self).resolve()
        } catch {
            throw ServerError.composition(String(describing: error))
        }
    }

    /// Every feature the server serves, in the order their schemas are applied (a feature after
    /// those it references): its schema, its handlers' key, its problems, its share in deleting a
    /// user and its modules. Serving a feature adds one entry here (Scripts/new-feature --served
    /// does); the migrations, modules, routes, problem catalog and user-data owners derive from it.
    static let features: [ServedFeature] = [
        ServedFeature(AuthMigrations.all, routes: AuthRoutesKey.self, problems: AuthProblems.classifier) { context in
            [AuthDataModule(sessions: .perRequest, stores: context.stores, passwordCost: context.passwordCost), AuthServerModule()]
        },
        ServedFeature(
            AccountMigrations.all, routes: AccountRoutesKey.self, problems: AccountProblems.classifier, userData: AccountUserDataKey.self
        ) { context in [AccountDataModule(stores: context.stores), AccountServerModule()] },
        ServedFeature(
            TransferMigrations.all, routes: TransferRoutesKey.self, problems: TransferProblems.classifier,
            userData: TransferUserDataKey.self
        ) { context in [TransferDataModule(stores: context.stores), TransferServerModule()] },
        ServedFeature(InboxMigrations.all, routes: InboxRoutesKey.self, userData: InboxUserDataKey.self) { context in
            [InboxDataModule(stores: context.stores), InboxServerModule()]
        },
        ServedFeature(SettingsMigrations.all, routes: SettingsRoutesKey.self, userData: SettingsUserDataKey.self) { context in
            // The server reads no MOA_… variables and no flags: a user's stored value or the default.
            [
                SettingsDataModule(
                    overrides: SettingsOverrides(), environment: [:], stores: context.stores, cachingSnapshots: true, secrets: .database),
                SettingsServerModule(),
            ]
        },
        // Archive's whole schema, so that the migration names match `moa`'s; what the server keeps of
        // it is each user's tickets and preferences (the catalogue's table stays empty here).
        ServedFeature(
            ArchiveMigrations.all, routes: ArchiveRoutesKey.self, problems: ArchiveProblems.classifier, userData: ArchiveUserDataKey.self
        ) { context in
            [
                ModuleOf("Archive", (context.stores == .sqlite ? ArchiveDataModule.sqliteStores : []) + [ArchiveUserData.provider]),
                ArchiveServerModule(),
            ]
        },
        // new-feature: served features
    ]

    /// The schema of every feature the server stores.
    static let migrations = features.map(\.migrations)

    /// Every module of the server: Core's (on SQLite) or the PostgreSQL stores, each served
    /// feature's modules (their SQLite stores only on SQLite), and the server's own providers.
    static func modules(
        engine: Engine, folder: MoaHome, clock: any WallClock, passwordCost: ScryptParameters, metrics: ServerMetrics
    ) -> [any FeatureModule] {
        let storage: [any FeatureModule]
        let stores: StoreEngine
        switch engine {
        case .sqlite(let database):
            storage = [ModuleOf.core(database: database, clock: clock, home: folder)]
            stores = .sqlite
        case .postgres(let database):
            storage = [
                ModuleOf("Core", [.instance(WallClockKey.self, clock), .instance(MoaHomeKey.self, folder)]),
                PostgresStores(database: database),
            ]
            stores = .providedByRoot
        }
        let context = ServedFeature.Context(stores: stores, passwordCost: passwordCost)
        return storage + features.flatMap { $0.modules(context) } + [ModuleOf("Server", ServerServices.providers(metrics: metrics))]
    }

    /// The HTTP routes: a log line per request (``RequestLogMiddleware``: id, client, user, route,
    /// status, duration; no secrets) counted in ``metrics``, the operations of
    /// docs/api/openapi.yaml (``ServerAPI``, through the code generated from the document), a body
    /// limit of ``maximumBodyBytes`` for every request, the bearer token's user for the rest of the
    /// request, and a problem document (RFC 9457) for every error. Beside the API, for operators:
    /// `HEAD /healthz`, `GET /readyz` (``OperationsRoutes``) and — unless `servingMetrics` is false
    /// (`--metrics-port` serves them apart) — `GET /metrics`.
    public func router(servingMetrics: Bool = true) throws -> Router<MoaRequestContext> {
        let router = Router(context: MoaRequestContext.self)
        let routes = RouteTable()
        router.add(middleware: RequestLogMiddleware(logger: logger, clients: clients, metrics: metrics))
        router.add(middleware: ProblemMiddleware(catalog: Self.problems, maximumBodyBytes: Self.maximumBodyBytes))
        OperationsRoutes(engine: engine, metrics: servingMetrics ? metrics : nil).register(on: router)
        router.add(middleware: MethodNotAllowedMiddleware(routes: routes))
        router.add(middleware: BodyLimitMiddleware(maximum: Self.maximumBodyBytes))
        router.add(middleware: BearerMiddleware(tokens: services.tokens, clients: clients, routes: routes))
        // The operations of docs/api/openapi.yaml: the server's own, then each served feature's.
        let (api, middlewares) = (routes.recording(on: router), [EmptyBodyMiddleware(maximumBodyBytes: Self.maximumBodyBytes)])
        try HealthHandlers().registerHandlers(on: api, middlewares: middlewares)
        for routes in services.routes { try routes.register(on: api, middlewares: middlewares) }
        return router
    }

    /// How the served features' typed errors become problem documents: each feature's own kinds,
    /// then the exit status.
    static let problems = ProblemCatalog(features.compactMap(\.problems))

    /// The ledger's invariants on the server's data (`moa doctor`'s audit): balances equal the sum
    /// of their entries, entries sum to zero per currency, two entries per transfer.
    public func audit() async throws -> (summary: String, problems: [String]) {
        try await services.ledger.run()
    }

    /// The application on `host:port`; `listening` is told the port once connections are accepted.
    /// With `tls`, HTTPS: the connection ceiling is checked before the handshake, and a handshake
    /// not done within the idle timeout is cut like any idle connection.
    public func application(
        host: String, port: Int, tls: TLSConfiguration? = nil, servingMetrics: Bool = true,
        listening: @escaping @Sendable (Int) -> Void
    ) throws -> some ApplicationProtocol {
        let http: HTTPServerBuilder = .guarded(limits, connections: connections, metrics: metrics, logger: logger)
        return Application(
            router: try router(servingMetrics: servingMetrics),
            server: try tls.map { try .tls(http, tlsConfiguration: $0) } ?? http,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "moa-server", backlog: 1_024),
            onServerRunning: { channel in listening(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// `GET /metrics` alone on `host:port` (`--metrics-port`): the metrics apart from the API, for a
    /// port the operator keeps off the network.
    public func metricsApplication(host: String, port: Int, listening: @escaping @Sendable (Int) -> Void) -> some ApplicationProtocol {
        let router = Router(context: MoaRequestContext.self)
        OperationsRoutes.metrics(metrics, on: router)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "moa-server"),
            onServerRunning: { channel in listening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}

/// What the server resolves once from the registry: the bearer check's tokens, the ledger's audit
/// and every served feature's handlers.
struct ServerServices: Sendable {
    let tokens: SessionTokens
    let ledger: any ConsistencyCheck
    let routes: [any ServedRoutes]

    /// The server's own providers: the problem catalog, where transfers are counted, every served
    /// feature's handlers and share in deleting a user, and this root. A user's data is erased in the
    /// reverse of the schema order: a feature's rows before those of the features it references.
    static func providers(metrics: ServerMetrics) -> [Provider] {
        [
            .instance(ProblemCatalogKey.self, MoaServer.problems),
            .instance(TransferOutcomeCounterKey.self, TransferOutcomeCounter { metrics.transfer($0) }),
            .singleton(UserDataOwnersKey.self, requiresEach: MoaServer.features.reversed().compactMap(\.userData)) { $0 },
            .singleton(ServedRoutesKey.self, requiresEach: MoaServer.features.map(\.routes)) { $0 },
            .singleton(ServerServicesKey.self, requires: SessionTokensKey.self, LedgerCheckKey.self, ServedRoutesKey.self) {
                ServerServices(tokens: $0, ledger: $1, routes: $2)
            },
        ]
    }
}

/// Every served feature's handlers, in ``MoaServer/features``' order.
enum ServedRoutesKey: ServiceKey {
    typealias Service = [any ServedRoutes]
    static var expectedProvider: String { "moa-server" }
}

/// What `moa-server` resolves.
enum ServerServicesKey: ServiceKey {
    typealias Service = ServerServices
    static var expectedProvider: String { "moa-server" }
}
