import APIServing
import AuthData
import AuthDomain
import AuthInterface
import Persistence
import Registry
import SharedKit
import Storage

/// One feature as `moa-server` serves it: the one entry ``MoaServer/features`` lists per served
/// feature, from which the server's schema, modules, routes, problem catalog and share in deleting a
/// user all derive (its PostgreSQL stores are `MoaPostgres`'s one entry in `PostgresStores.features`).
struct ServedFeature: Sendable {
    /// What a feature's modules may take from the server that composes them.
    struct Context: Sendable {
        /// SQLite (the Data module provides its stores) or `.providedByRoot` (PostgreSQL's).
        let stores: StoreEngine
        /// scrypt's cost for passwords (Auth).
        let passwordCost: ScryptParameters
    }

    /// Its schema steps on SQLite.
    let migrations: MigrationSet
    /// The key of its handlers (its `<F>ServerModule` provides it); the server requires it.
    let routes: any ServiceKey<any ServedRoutes>.Type
    /// How its own typed errors become problem documents, when the exit status does not say.
    let problems: ProblemCatalog.Classifier?
    /// Its share in deleting a user, when it keeps data about users.
    let userData: (any ServiceKey<any UserDataOwner>.Type)?
    /// Its Data, Domain and Server modules.
    let modules: @Sendable (Context) -> [any FeatureModule]

    init(
        _ migrations: MigrationSet, routes: any ServiceKey<any ServedRoutes>.Type, problems: ProblemCatalog.Classifier? = nil,
        userData: (any ServiceKey<any UserDataOwner>.Type)? = nil, modules: @escaping @Sendable (Context) -> [any FeatureModule]
    ) {
        self.migrations = migrations
        self.routes = routes
        self.problems = problems
        self.userData = userData
        self.modules = modules
    }
}
