import Registry

/// A feature's stores on PostgreSQL as a composition root lists them (`MoaPostgres`'s
/// `PostgresStores.features`): its schema, applied in list order, and the providers of the same
/// registry keys its Data module provides on SQLite, on one database.
public protocol PostgresFeatureStores: SendableMetatype {
    /// The feature's schema steps on PostgreSQL.
    static var migrations: PostgresMigrationSet { get }
    /// The feature's store keys, on `database`.
    static func providers(_ database: PostgresAppDatabase) -> [Provider]
}
