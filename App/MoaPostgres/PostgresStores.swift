import AccountPostgres
import ArchivePostgres
import AuthPostgres
import InboxPostgres
import Persistence
import PostgresStorage
import Registry
import SettingsPostgres
import TransferPostgres

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
        [
            AuthPostgresStores.migrations, AccountPostgresStores.migrations, TransferPostgresStores.migrations,
            InboxPostgresStores.migrations, SettingsPostgresStores.migrations, ArchivePostgresStores.migrations,
        ]
    }

    public var providers: [Provider] {
        [.instance(UnitOfWorkKey.self, database)]
            + AuthPostgresStores.providers(database) + AccountPostgresStores.providers(database)
            + TransferPostgresStores.providers(database) + InboxPostgresStores.providers(database)
            + SettingsPostgresStores.providers(database) + ArchivePostgresStores.providers(database)
    }
}
