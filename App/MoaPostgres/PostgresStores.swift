import InboxPostgres
import Persistence
import PostgresStorage
import Registry

/// The served features' stores on PostgreSQL: the same registry keys their Data modules provide on
/// SQLite (`AccountDataModule.sqliteStores`, …), for `moa-server --database postgres://…`, whose
/// composition gives each Data module `stores: .providedByRoot`. Also the unit of work
/// (`UnitOfWorkKey`): ``PostgresAppDatabase``.
public struct PostgresStores: FeatureModule {
    public let name = "PostgreSQL"
    private let database: PostgresAppDatabase

    public init(database: PostgresAppDatabase) {
        self.database = database
    }

    /// Every feature's schema, in the order they are applied (a feature after those it references).
    public static var migrations: [PostgresMigrationSet] {
        [authMigrations, accountMigrations, transferMigrations, InboxPostgresStores.migrations, settingsMigrations]
    }

    public var providers: [Provider] {
        [.instance(UnitOfWorkKey.self, database)]
            + Self.authStores(database) + Self.accountStores(database) + Self.transferStores(database)
            + InboxPostgresStores.providers(database) + Self.settingsStores(database)
    }
}
