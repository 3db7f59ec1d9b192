import Foundation
import GRDB
import Storage

/// Which cached user: the API it came from and the login, lower-cased (logins are case-insensitive).
public struct UserCacheKey: Hashable, Sendable {
    public let baseURL: String
    public let login: String

    public init(baseURL: URL, login: String) {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.login = login.lowercased()
    }
}

/// A user's details as the API sent them, with their validator.
public struct StoredUser: Sendable, Equatable {
    public let etag: String
    public let body: Data
    public let fetchedAt: Date

    public init(etag: String, body: Data, fetchedAt: Date) {
        self.etag = etag
        self.body = body
        self.fetchedAt = fetchedAt
    }
}

/// The cache that outlives the process, so that a new `moa` revalidates with `If-None-Match`
/// instead of downloading again.
public protocol UserCacheStore: Sendable {
    func load(_ key: UserCacheKey) throws -> StoredUser?
    /// Awaits SQLite's writer (not blocking a thread of the cooperative pool).
    func save(_ key: UserCacheKey, _ user: StoredUser) async throws
    /// Records that the server confirmed the copy (304) at `date`.
    func touch(_ key: UserCacheKey, at date: Date) async throws
}
