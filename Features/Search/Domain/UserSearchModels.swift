import Foundation
import Registry
import SearchInterface
import SettingsInterface

/// Where the user search talks to, taken from Settings at request time. The token is a secret:
/// `description` masks it, so interpolating this value never leaks it.
public struct SearchAPIAccess: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let baseURL: URL
    public let token: String?

    public init(baseURL: URL, token: String?) {
        self.baseURL = baseURL
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    }

    public init(_ settings: SearchAPISettings) {
        self.init(baseURL: settings.baseURL, token: settings.token)
    }

    public var description: String {
        "SearchAPIAccess(baseURL: \(baseURL.absoluteString), token: \(token == nil ? "unset" : "set, hidden"))"
    }

    public var debugDescription: String { description }
}

/// `--sort` of `moa search users`: the API's sort fields (default: best match).
public enum UserSearchSort: String, Sendable, CaseIterable, Codable {
    case followers, repositories, joined
}

/// One request for a page of users.
public struct UserSearchRequest: Sendable, Equatable {
    /// The query as typed, with GitHub qualifiers (`swift location:seoul followers:>10`).
    public let query: String
    /// 1-based.
    public let page: Int
    /// 1…100.
    public let perPage: Int
    public let sort: UserSearchSort?

    public init(query: String, page: Int, perPage: Int, sort: UserSearchSort?) {
        self.query = query
        self.page = page
        self.perPage = perPage
        self.sort = sort
    }
}

/// One user in a search result (`items[]` of `/search/users`).
public struct UserHit: Sendable, Equatable, Codable {
    public let login: String
    public let id: Int64
    public let type: String
    public let score: Double?
    public let htmlURL: URL?
    public let avatarURL: URL?

    public init(login: String, id: Int64, type: String, score: Double?, htmlURL: URL?, avatarURL: URL?) {
        self.login = login
        self.id = id
        self.type = type
        self.score = score
        self.htmlURL = htmlURL
        self.avatarURL = avatarURL
    }
}

/// A page of users, with what the API said about the whole result.
public struct UserSearchPage: Sendable, Equatable {
    /// GitHub's search API never returns more than the first 1,000 results of a query.
    public static let resultCap = 1_000

    public let request: UserSearchRequest
    /// `total_count`: how many users match (may exceed what can be paged through).
    public let totalCount: Int
    /// `incomplete_results`: the search timed out on the server and the result may be partial.
    public let incompleteResults: Bool
    public let users: [UserHit]
    /// From the `Link` header: the `next` page (`nil`: this is the last one).
    public let nextPage: Int?
    /// From the `Link` header: the `last` page, when the API gave it.
    public let lastPage: Int?

    public init(request: UserSearchRequest, totalCount: Int, incompleteResults: Bool, users: [UserHit], nextPage: Int?, lastPage: Int?) {
        self.request = request
        self.totalCount = totalCount
        self.incompleteResults = incompleteResults
        self.users = users
        self.nextPage = nextPage
        self.lastPage = lastPage
    }

    /// How many of the matches can be paged through at most.
    public var reachableCount: Int { min(totalCount, Self.resultCap) }

    /// Whether the 1,000-result cap matters for this page: more matches than can be shown, or a
    /// page that reaches past the first 1,000.
    public var isCapped: Bool {
        totalCount > Self.resultCap || request.page * request.perPage > Self.resultCap
    }

    /// The number of pages: the `last` link, else this page if there is no `next`, else computed.
    public var pageCount: Int {
        if let lastPage { return max(lastPage, request.page) }
        if nextPage == nil { return request.page }
        let computed = (reachableCount + request.perPage - 1) / request.perPage
        return max(computed, request.page + 1)
    }
}

/// A user's details and where they came from.
public struct FetchedUser: Sendable, Equatable {
    public enum Source: String, Sendable, Codable {
        /// Downloaded now (200).
        case network
        /// The cached copy, confirmed current by the server (`If-None-Match` → 304).
        case revalidated
        /// The in-memory cache, still fresh: no request was sent.
        case memory
    }

    public let profile: UserProfile
    public let source: Source

    public init(profile: UserProfile, source: Source) {
        self.profile = profile
        self.source = source
    }
}

/// The user search's port to a GitHub-compatible API (SearchData implements it over HTTP, with
/// an LRU cache and ETag revalidation). Every failure is a ``SearchError``.
public protocol UserSearchStore: Sendable {
    func searchUsers(_ request: UserSearchRequest, access: SearchAPIAccess) async throws(SearchError) -> UserSearchPage
    func user(login: String, access: SearchAPIAccess) async throws(SearchError) -> FetchedUser
}

public enum UserSearchStoreKey: ServiceKey { public typealias Service = any UserSearchStore }

/// The user search use cases, for Search's commands and screens.
public enum UserSearchServiceKey: ServiceKey { public typealias Service = UserSearchService }
