import AuthInterface
import Foundation
import Registry
import SharedKit

/// The session held by this terminal: `$MOA_HOME/session.json`, owner-only.
public protocol SessionStore: Sendable {
    /// The stored session, or `nil`. Refuses a file other users can read.
    func load() throws -> StoredSession?
    func save(_ session: StoredSession) throws
    func clear() throws
    /// Waits until no other process refreshes this session, and keeps it so until `unlock`: two
    /// `moa` processes of one home never present the same refresh token (the second would look
    /// like a thief's copy, and the server would end the session).
    func lockForRefresh() throws -> any SessionRefreshLock
}

/// Held while a process refreshes the session (``SessionStore/lockForRefresh()``).
public protocol SessionRefreshLock: Sendable {
    func unlock()
}

extension SessionStore {
    /// A store only one process sees (in memory, in a test) needs no lock between processes.
    public func lockForRefresh() throws -> any SessionRefreshLock { NoRefreshLock() }
}

/// The lock of a store no other process sees.
public struct NoRefreshLock: SessionRefreshLock {
    public init() {}
    public func unlock() {}
}

/// What the session file holds. The tokens are secrets: never logged, never printed.
public struct StoredSession: Sendable, Equatable, Codable {
    public let userID: UserID
    public let email: String
    public let accessToken: String
    public let refreshToken: String
    public let accessExpiresAt: Date
    public let refreshExpiresAt: Date
    /// The `moa-server` that issued the tokens (its base URL), `nil` for the embedded bank: tokens
    /// are only ever sent back to whoever issued them.
    public let server: String?

    public init(
        userID: UserID, email: String, accessToken: String, refreshToken: String, accessExpiresAt: Date, refreshExpiresAt: Date,
        server: String? = nil
    ) {
        self.userID = userID
        self.email = email
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshExpiresAt = refreshExpiresAt
        self.server = server
    }

    /// The same session, marked as issued by `server`.
    public func issued(by server: String?) -> StoredSession {
        StoredSession(
            userID: userID, email: email, accessToken: accessToken, refreshToken: refreshToken, accessExpiresAt: accessExpiresAt,
            refreshExpiresAt: refreshExpiresAt, server: server)
    }
}

public enum SessionStoreKey: ServiceKey { public typealias Service = any SessionStore }
