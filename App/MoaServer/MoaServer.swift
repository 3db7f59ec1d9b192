import AccountData
import AccountDomain
import AuthData
import Foundation
import Hummingbird
import InboxData
import Logging
import MoaAPI
import OpenAPIHummingbird
import Persistence
import Registry
import SettingsData
import SharedKit
import Storage
import TransferData

/// The second composition root: what `moa-server` serves, composed through the same typed registry
/// as `moa` — Core's database and clock, and the Data modules of the features it serves (Auth,
/// Account, Transfer, Inbox, Settings) on SQLite in the data folder.
public struct MoaServer: Sendable {
    /// Requests with a larger body are refused with 413 (a `payload-too-large` problem).
    public static let maximumBodyBytes = 64 * 1_024

    public let folder: MoaHome
    public let database: AppDatabase
    let ledger: any ConsistencyCheck
    let logger: Logger

    /// Opens (creating with mode 0700 if missing) the data folder and its database, migrated.
    public init(folder: MoaHome, logger: Logger) throws {
        try folder.prepare()
        try FileManager.default.createDirectory(
            at: folder.outboxURL, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let database = try AppDatabase.open(at: folder.databaseURL, migrations: Self.migrations)
        self.folder = folder
        self.database = database
        self.logger = logger
        ledger = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, home: folder), AccountDataModule(),
        ]).validate(root: LedgerCheckKey.self).resolve()
    }

    /// The schema of every feature the server stores.
    static let migrations = [
        AuthMigrations.all, AccountMigrations.all, TransferMigrations.all, InboxMigrations.all, SettingsMigrations.all,
    ]

    /// The HTTP routes: the operations of docs/api/openapi.yaml the server serves (``ServerAPI``,
    /// through the code generated from the document), a body limit of ``maximumBodyBytes`` for every
    /// request, and a problem document (RFC 9457) for every error.
    public func router() throws -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: ProblemMiddleware(logger: logger))
        router.add(middleware: BodyLimitMiddleware(maximum: Self.maximumBodyBytes))
        try ServerAPI(database: database).registerHandlers(on: router)
        return router
    }

    /// The application on `host:port`; `listening` is told the port once connections are accepted.
    public func application(host: String, port: Int, listening: @escaping @Sendable (Int) -> Void) throws -> some ApplicationProtocol {
        Application(
            router: try router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "moa-server"),
            onServerRunning: { channel in listening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
