import AccountPostgres
import ArchivePostgres
import AuthPostgres
import InboxPostgres
import Persistence
import PostgresStorage
import Registry
import SettingsPostgres
import TransferPostgres

// new-feature: postgres imports

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

    /// Every served feature's stores, in the order their schemas are applied (a feature after those
    /// it references). Serving a feature on PostgreSQL adds one entry here (Scripts/new-feature
    /// --served does).
    static let features: [any PostgresFeatureStores.Type] = [
        AuthPostgresStores.self,
        AccountPostgresStores.self,
        TransferPostgresStores.self,
        InboxPostgresStores.self,
        SettingsPostgresStores.self,
        ArchivePostgresStores.self,
        // new-feature: postgres features
    ]

    /// Every feature's schema, in the order they are applied.
    public static var migrations: [PostgresMigrationSet] { features.map { $0.migrations } }

    public var providers: [Provider] {
        [.instance(UnitOfWorkKey.self, database)] + Self.features.flatMap { $0.providers(database) }
    }
}
