import AccountData
import AccountDomain
import AccountInterface
import ArchiveData
import ArchiveDomain
import AuthData
import AuthDomain
import Foundation
import InboxData
import InboxDomain
import InboxInterface
import Logging
import MoaPostgres
import Persistence
import PostgresStorage
import Registry
import SettingsData
import SettingsDomain
import SharedKit
import Storage
import Testing
import TransferData
import TransferDomain

/// The two engines every store contract runs on: the features' SQLite stores (their Data targets)
/// and the server's PostgreSQL stores (MoaPostgres).
///
/// PostgreSQL comes from `MOA_TEST_POSTGRES_URL` (`Scripts/postgres-cluster start` prints it); each
/// test gets a schema of its own, dropped afterwards. Without it, a PostgreSQL case is skipped with
/// a line saying so — except in CI (`CI=true`), where a missing server fails the run.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    static let urlVariable = "MOA_TEST_POSTGRES_URL"

    /// The test server, when one is configured.
    static var postgresLocation: PostgresLocation? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment[urlVariable], !text.isEmpty else { return nil }
        return try? PostgresLocation(text, environment: environment)
    }

    static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The test server; without one, the case is skipped with a line saying so — or, in CI, fails
    /// (`nil`: the issue is recorded, end the case).
    static func postgresOrSkip() throws -> PostgresLocation? {
        if let location = postgresLocation { return location }
        if inCI {
            Issue.record("CI=true but \(urlVariable) is not set: the PostgreSQL contract cases cannot run.")
            return nil
        }
        try Test.cancel("PostgreSQL skipped: \(urlVariable) is not set (Scripts/postgres-cluster start prints it).")
    }
}

/// Every store the contracts exercise, resolved through the registry from the same providers the
/// composition roots use (so a missing or doubled key fails here too).
struct Stores: Sendable {
    let unitOfWork: any UnitOfWork
    let auth: any AuthStore
    let accounts: any AccountStore
    let posting: any AccountPosting
    let accountUserData: any AccountUserDataStore
    let transfers: any TransferStore
    let recipients: any RecipientStore
    let transferUserData: any TransferUserDataStore
    let inbox: any InboxStore
    let publisher: any InboxPublisher
    let settings: any SettingsStore
    let settingsEraser: any SettingsEraser
    let tickets: any TicketStore
    let preferences: any PreferenceStore
    let archiveUserData: any ArchiveUserDataStore
}

enum StoresKey: ServiceKey { typealias Service = Stores }

private let storesProvider = Provider.singleton(
    StoresKey.self,
    requires: UnitOfWorkKey.self, AuthStoreKey.self, AccountStoreKey.self, AccountPostingKey.self, AccountUserDataStoreKey.self,
    TransferStoreKey.self, RecipientStoreKey.self, TransferUserDataStoreKey.self, InboxStoreKey.self, InboxPublisherKey.self,
    SettingsStoreKey.self, SettingsEraserKey.self, TicketStoreKey.self, PreferenceStoreKey.self, ArchiveUserDataStoreKey.self
) {
    Stores(
        unitOfWork: $0, auth: $1, accounts: $2, posting: $3, accountUserData: $4, transfers: $5, recipients: $6, transferUserData: $7,
        inbox: $8, publisher: $9, settings: $10, settingsEraser: $11, tickets: $12, preferences: $13, archiveUserData: $14)
}

/// Runs `body` with fresh, empty stores on `engine`.
/// `connections`: the PostgreSQL pool's size (one, for a test that reads what its session prepared).
func withStores(
    _ engine: Engine, clock: any WallClock = ManualWallClock(Date(timeIntervalSince1970: 1_767_225_600)), connections: Int = 4,
    _ body: (Stores) async throws -> Void
) async throws {
    switch engine {
    case .sqlite:
        let database = try AppDatabase.temporary(migrations: [
            AuthMigrations.all, AccountMigrations.all, TransferMigrations.all, InboxMigrations.all, SettingsMigrations.all,
            ArchiveMigrations.all,
        ])
        let stores = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: clock),
            ModuleOf(
                "SQLite",
                AuthDataModule.sqliteStores + AccountDataModule.sqliteStores + TransferDataModule.sqliteStores
                    + InboxDataModule.sqliteStores + SettingsDataModule.sqliteStores + ArchiveDataModule.sqliteStores
                    + [storesProvider]),
        ]).validate(root: StoresKey.self).resolve()
        try await body(stores)
    case .postgres:
        guard let location = try Engine.postgresOrSkip() else { return }
        try await withPostgres(location, connections: connections) { database in
            let stores = try RegistryBuilder(modules: [
                ModuleOf("Core", [.instance(WallClockKey.self, clock)]),
                PostgresStores(database: database),
                ModuleOf("Test", [storesProvider]),
            ]).validate(root: StoresKey.self).resolve()
            try await body(stores)
        }
    }
}

/// Runs `body` with `root` resolved from one feature's store providers on `engine`: on SQLite from
/// its Data module's (`sqlite`: its migrations and providers), on PostgreSQL from its
/// `<F>PostgresStores.providers`, in a migrated schema of its own — a feature's own contract suite,
/// without listing its stores in ``Stores``.
func withFeatureStores<Root: ServiceKey>(
    _ engine: Engine, root: Root.Type, sqlite: (migrations: [MigrationSet], providers: [Provider]),
    postgres: @escaping @Sendable (PostgresAppDatabase) -> [Provider],
    clock: any WallClock = ManualWallClock(Date(timeIntervalSince1970: 1_767_225_600)), _ body: (Root.Service) async throws -> Void
) async throws {
    switch engine {
    case .sqlite:
        let database = try AppDatabase.temporary(migrations: sqlite.migrations)
        let service = try RegistryBuilder(modules: [ModuleOf.core(database: database, clock: clock), ModuleOf("SQLite", sqlite.providers)])
            .validate(root: Root.self).resolve()
        try await body(service)
    case .postgres:
        guard let location = try Engine.postgresOrSkip() else { return }
        try await withPostgres(location) { database in
            let service = try RegistryBuilder(modules: [
                ModuleOf("Core", [.instance(WallClockKey.self, clock), .instance(UnitOfWorkKey.self, database)]),
                ModuleOf("PostgreSQL", postgres(database)),
            ]).validate(root: Root.self).resolve()
            try await body(service)
        }
    }
}

/// A migrated (unless `migrated` is false) PostgreSQL database in a schema of its own on
/// `location`, dropped after `body`.
func withPostgres(
    _ location: PostgresLocation, migrated: Bool = true, optimisticAttempts: Int = 6, connections: Int = 4,
    _ body: (PostgresAppDatabase) async throws -> Void
) async throws {
    let schema = "contract_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let quiet = Logger(label: "moa.tests.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    let database = PostgresAppDatabase(
        location: location, logger: quiet, maximumConnections: connections, schema: schema, optimisticAttempts: optimisticAttempts)
    let pool = Task { await database.run() }
    defer { pool.cancel() }
    try await database.createSchema(schema)
    do {
        if migrated { try await database.migrate(PostgresStores.migrations) }
        try await body(database)
    } catch {
        try? await database.dropSchema(schema)
        throw error
    }
    try await database.dropSchema(schema)
}

/// Two server processes' pools on one migrated schema of `location` — the second running every
/// writing transaction alone, as a starved writer does — with each one's stores.
func withTwoServers(_ location: PostgresLocation, _ body: (Stores, Stores) async throws -> Void) async throws {
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_767_225_600))
    func stores(_ database: PostgresAppDatabase) throws -> Stores {
        try RegistryBuilder(modules: [
            ModuleOf("Core", [.instance(WallClockKey.self, clock)]), PostgresStores(database: database), ModuleOf("Test", [storesProvider]),
        ]).validate(root: StoresKey.self).resolve()
    }
    let schema = "contract_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let quiet = Logger(label: "moa.tests.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    let optimistic = PostgresAppDatabase(location: location, logger: quiet, maximumConnections: 4, schema: schema)
    let alone = PostgresAppDatabase(location: location, logger: quiet, maximumConnections: 4, schema: schema, optimisticAttempts: 0)
    let pools = [Task { await optimistic.run() }, Task { await alone.run() }]
    defer { for pool in pools { pool.cancel() } }
    try await optimistic.createSchema(schema)
    do {
        try await optimistic.migrate(PostgresStores.migrations)
        try await body(try stores(optimistic), try stores(alone))
    } catch {
        try? await optimistic.dropSchema(schema)
        throw error
    }
    try await optimistic.dropSchema(schema)
}

/// Says, in one visible line, when the PostgreSQL cases were skipped; in CI a missing server fails.
@Suite("PostgreSQL for the store contracts")
struct PostgresConfigurationTests {
    @Test(
        .enabled(
            if: Engine.postgresLocation != nil || Engine.inCI,
            "PostgreSQL not configured: the store contracts ran on SQLite only (set MOA_TEST_POSTGRES_URL; Scripts/postgres-cluster start prints it)"
        ))
    func theContractsRunOnPostgreSQL() async throws {
        let location = try #require(Engine.postgresLocation, "CI=true, but \(Engine.urlVariable) is not set or is not a postgres:// URL")
        try await withPostgres(location) { database in
            try await database.ping()
            #expect(try await database.appliedMigrations().count == PostgresStores.migrations.map(\.steps.count).reduce(0, +))
        }
    }
}

/// A transaction of no engine: a store handed one refuses it (`ForeignTransactionError`).
final class ForeignTransaction: Transaction {}
