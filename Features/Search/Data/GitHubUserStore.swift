import Foundation
import Networking
import SearchDomain
import SearchInterface
import SharedKit

/// How the repository talks to the API.
public struct SearchAPIConfiguration: Sendable {
    /// `User-Agent`, e.g. `moa/0.1.0` (GitHub refuses requests without one).
    public var userAgent: String
    /// Per request, in seconds.
    public var timeout: TimeInterval
    /// How long a user's details are served from memory without asking the server, when the
    /// response has no `Cache-Control: max-age` (GitHub's is 60 s).
    public var freshFor: TimeInterval
    /// How many users the in-memory LRU cache holds.
    public var cacheCapacity: Int

    public init(userAgent: String = "moa", timeout: TimeInterval = 15, freshFor: TimeInterval = 60, cacheCapacity: Int = 256) {
        self.userAgent = userAgent
        self.timeout = timeout
        self.freshFor = freshFor
        self.cacheCapacity = cacheCapacity
    }
}

/// A user's details in memory: decoded, with the validator to revalidate them and how long they
/// are fresh.
struct CachedUser: Sendable {
    let profile: UserProfile
    let etag: String?
    let freshUntil: Date
}

/// ``UserSearchStore`` over a GitHub-compatible HTTP API.
///
/// User details go through two caches: an in-memory ``LRUCache`` (a fresh entry is served without
/// a request) and, for entries with an ETag, the `search_user_cache` table (a new process sends
/// `If-None-Match`, and a `304` reuses the stored body). A cache that cannot be read or written is
/// skipped, never an error: the network answer is what counts.
public struct GitHubUserStore: UserSearchStore {
    private let clients: SearchHTTPClients
    private let memory: LRUCache<UserCacheKey, CachedUser>
    private let store: (any UserCacheStore)?
    private let clock: any WallClock
    private let configuration: SearchAPIConfiguration

    public init(
        clients: SearchHTTPClients, store: (any UserCacheStore)?, clock: any WallClock,
        configuration: SearchAPIConfiguration = SearchAPIConfiguration()
    ) {
        self.clients = clients
        self.memory = LRUCache(capacity: configuration.cacheCapacity)
        self.store = store
        self.clock = clock
        self.configuration = configuration
    }

    public func searchUsers(_ request: UserSearchRequest, access: SearchAPIAccess) async throws(SearchError) -> UserSearchPage {
        let endpoint = GitHubAPI.searchUsers(request, access: access, userAgent: configuration.userAgent, timeout: configuration.timeout)
        let response = try await send(endpoint, access: access)
        guard response.isSuccess else {
            throw GitHubAPI.error(for: response, login: nil, access: access, path: endpoint.path, now: clock.now())
        }
        return try GitHubAPI.decodePage(response, request: request, baseURL: access.baseURL)
    }

    public func user(login: String, access: SearchAPIAccess) async throws(SearchError) -> FetchedUser {
        let key = UserCacheKey(baseURL: access.baseURL, login: login)
        let now = clock.now()
        var cached = await memory.get(key)
        if let cached, cached.freshUntil > now {
            return FetchedUser(profile: cached.profile, source: .memory)
        }
        if cached == nil, let stored = try? store?.load(key),
            let profile = try? GitHubAPI.decodeUser(HTTPResponse(status: 200, body: stored.body))
        {
            cached = CachedUser(profile: profile, etag: stored.etag, freshUntil: .distantPast)
        }

        let endpoint = GitHubAPI.user(login, access: access, userAgent: configuration.userAgent, timeout: configuration.timeout)
            .ifNoneMatch(cached?.etag)
        let response = try await send(endpoint, access: access)
        let answeredAt = clock.now()
        let freshUntil = answeredAt.addingTimeInterval(GitHubAPI.maxAge(response) ?? configuration.freshFor)

        if response.isNotModified, let cached {
            await memory.put(key, CachedUser(profile: cached.profile, etag: response.etag ?? cached.etag, freshUntil: freshUntil))
            try? await store?.touch(key, at: answeredAt)
            return FetchedUser(profile: cached.profile, source: .revalidated)
        }
        guard response.status == 200 else {
            throw GitHubAPI.error(for: response, login: login, access: access, path: endpoint.path, now: answeredAt)
        }
        let profile = try GitHubAPI.decodeUser(response)
        await memory.put(key, CachedUser(profile: profile, etag: response.etag, freshUntil: freshUntil))
        if let etag = response.etag {
            try? await store?.save(key, StoredUser(etag: etag, body: response.body, fetchedAt: answeredAt))
        }
        return FetchedUser(profile: profile, source: .network)
    }

    private func send(_ endpoint: Endpoint, access: SearchAPIAccess) async throws(SearchError) -> HTTPResponse {
        do {
            return try await clients.client(for: access.baseURL).send(endpoint)
        } catch {
            throw GitHubAPI.error(for: error, access: access, timeout: configuration.timeout)
        }
    }
}
