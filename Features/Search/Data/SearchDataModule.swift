import Foundation
import Registry
import SearchDomain
import SharedKit
import Storage

/// What Search's Data layer provides: the HTTP clients of the search API, the persistent user cache,
/// the repository, the GitHub login's OAuth client and where its token is kept. It requires the
/// database, the wall clock and the credential store from Core.
///
/// (The use cases, which need Settings and Archive through their Interfaces, are provided by
/// SearchFeatureModule.)
public struct SearchDataModule: FeatureModule {
    public let name = "Search"
    private let configuration: SearchAPIConfiguration
    private let clients: SearchHTTPClients?

    /// - Parameters:
    ///   - configuration: the `User-Agent` (the App passes `moa/<version>`), timeout and cache size.
    ///   - clients: the HTTP clients; `nil`: URLSession, one client per base URL.
    public init(configuration: SearchAPIConfiguration = SearchAPIConfiguration(), clients: SearchHTTPClients? = nil) {
        self.configuration = configuration
        self.clients = clients
    }

    public var providers: [Provider] {
        let configuration = configuration
        let clients = clients
        return [
            .singleton(SearchHTTPClientsKey.self) { clients ?? .urlSession(timeout: configuration.timeout) },
            .singleton(UserCacheStoreKey.self, requires: DatabaseKey.self) { SQLiteUserCacheStore(database: $0) },
            .singleton(UserSearchStoreKey.self, requires: SearchHTTPClientsKey.self, UserCacheStoreKey.self, WallClockKey.self) {
                GitHubUserStore(clients: $0, store: $1, clock: $2, configuration: configuration)
            },
            .singleton(GitHubOAuthKey.self, requires: SearchHTTPClientsKey.self) {
                GitHubOAuthClient(clients: $0, configuration: configuration)
            },
            .singleton(SearchTokenVaultKey.self, requires: CredentialStoreKey.self) { CredentialTokenVault(store: $0) },
        ]
    }
}

/// The user cache that outlives the process (SQLite).
public enum UserCacheStoreKey: ServiceKey { public typealias Service = any UserCacheStore }
