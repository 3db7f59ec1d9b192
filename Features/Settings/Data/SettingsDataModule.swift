import Foundation
import Persistence
import Registry
import SettingsDomain
import SettingsInterface
import Storage

/// What Settings' Data layer provides: the SQLite store and, from it, ``SettingsManager`` — shared
/// by Settings' commands (`SettingsManagerKey`) and, as `SettingsReaderKey`, by every other feature;
/// and `SettingsUserDataKey`, Settings' share in deleting a user (for the App's `UserDataOwnersKey`).
///
/// Requires `DatabaseKey` and `WallClockKey` (Core) and, unless a scope source is given,
/// `SessionProviderKey` (Auth): settings follow whoever is logged in.
public struct SettingsDataModule: FeatureModule {
    public let name = "Settings"
    private let scope: (any SettingsScopeSource)?
    private let overrides: SettingsOverrides?
    private let environment: [String: String]
    private let stores: StoreEngine
    private let cachingSnapshots: Bool
    private let secrets: SecretPlacement

    /// Where the SQLite store keeps the secret settings.
    public enum SecretPlacement: Sendable {
        /// In the home's credential store (`CredentialStoreKey`) when it is the system's, else in
        /// the database: `moa` (``CredentialKeepingSettingsStore``).
        case credentialStore
        /// In the database: a server, which holds no secret setting of its users.
        case database
    }

    /// - Parameters:
    ///   - scope: whose settings to use; `nil` (the app): follow Auth's session.
    ///   - overrides: this run's command-line values, provided as `SettingsOverridesKey`; `nil` when
    ///     the composition root provides that key itself (from the global options).
    ///   - environment: where `MOA_<KEY>` variables are read; the process environment by default.
    ///   - stores: SQLite, or `.providedByRoot` (the root provides ``sqliteStores``' keys itself).
    ///   - cachingSnapshots: whether snapshots are remembered a while (``SnapshotCache``: a server,
    ///     which reads its users' settings on every request).
    ///   - secrets: where the SQLite store keeps secret settings (then it requires `CredentialStoreKey`).
    public init(
        scope: (any SettingsScopeSource)? = nil,
        overrides: SettingsOverrides? = SettingsOverrides(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        stores: StoreEngine = .sqlite,
        cachingSnapshots: Bool = false,
        secrets: SecretPlacement = .credentialStore
    ) {
        self.secrets = secrets
        self.cachingSnapshots = cachingSnapshots
        self.scope = scope
        self.overrides = overrides
        self.environment = environment
        self.stores = stores
    }

    /// Settings' stores on SQLite (requiring `DatabaseKey` and `WallClockKey`): `SettingsStoreKey`
    /// (also as `LocalSettingsStoreKey`, which a client of `moa-server` keeps) and `SettingsEraserKey`.
    public static var sqliteStores: [Provider] {
        [
            .singleton(LocalSettingsStoreKey.self, requires: DatabaseKey.self, WallClockKey.self) { database, clock in
                SQLiteSettingsStore(database: database, clock: clock)
            },
            .singleton(SettingsStoreKey.self, requires: LocalSettingsStoreKey.self) { $0 },
            .singleton(SettingsEraserKey.self) { SQLiteSettingsEraser() },
        ]
    }

    /// ``sqliteStores`` with the secrets in the credential store (``CredentialKeepingSettingsStore``;
    /// requires `CredentialStoreKey` besides).
    public static var sqliteStoresKeepingSecrets: [Provider] {
        [
            .singleton(LocalSettingsStoreKey.self, requires: DatabaseKey.self, WallClockKey.self, CredentialStoreKey.self) {
                database, clock, credentials in
                CredentialKeepingSettingsStore(SQLiteSettingsStore(database: database, clock: clock), credentials: credentials)
            },
            .singleton(SettingsStoreKey.self, requires: LocalSettingsStoreKey.self) { $0 },
            .singleton(SettingsEraserKey.self) { SQLiteSettingsEraser() },
        ]
    }

    public var providers: [Provider] {
        let environment = environment
        let sqlite = secrets == .credentialStore ? Self.sqliteStoresKeepingSecrets : Self.sqliteStores
        var providers: [Provider] =
            (stores == .sqlite ? sqlite : []) + [
                scope.map { .instance(SettingsScopeSourceKey.self, $0) } ?? SessionSettingsScope.provider,
                .singleton(
                    SettingsManagerKey.self, requires: SettingsStoreKey.self, SettingsScopeSourceKey.self, SettingsOverridesKey.self,
                    WallClockKey.self
                ) { [cachingSnapshots] store, scopes, overrides, clock in
                    SettingsManager(
                        store: store, scopes: scopes, overrides: overrides, environment: environment,
                        cache: cachingSnapshots ? SnapshotCache(clock: clock) : nil)
                },
                .singleton(SettingsReaderKey.self, requires: SettingsManagerKey.self) { $0 },
                SettingsUserDataOwner.provider, // SettingsUserDataKey, for the App's UserDataOwnersKey
            ]
        if let overrides { providers.append(.instance(SettingsOverridesKey.self, overrides)) }
        return providers
    }
}
