import Foundation
import Registry
import SearchDomain
import SharedKit
import Storage

/// What Search's Data layer provides: the HTTP clients of the search API, the persistent user cache
/// and the repository. It requires the database and the wall clock from Core.
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
        ]
    }
}

/// The user cache that outlives the process (SQLite).
public enum UserCacheStoreKey: ServiceKey { public typealias Service = any UserCacheStore }
