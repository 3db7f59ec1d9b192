import AuthInterface
import Foundation
import InboxInterface
import Registry
import SharedKit

/// Logs in and out, and is the `SessionProvider` other features use: the session of this terminal,
/// kept in its session file. The rules themselves (throttle, rotation, reuse, notices) are
/// ``SessionTokens``', which `moa-server` uses too.
///
/// An actor: when several callers find the access token expired at the same moment, exactly one
/// refresh runs and all of them get its result.
public actor SessionManager: SessionProvider {
    private let authority: any SessionAuthority
    private let store: any SessionStore
    private let clock: any WallClock
    /// The server whose sessions this manager keeps (`nil`: the embedded bank's).
    private let origin: String?
    private var refreshing: Task<AuthenticatedUser?, any Error>?

    /// The embedded app's session manager: the rules are ``SessionTokens``' on this machine's database.
    /// - Parameter inbox: where security notices go (new login, refresh-token reuse, password
    ///   changed, login lockout of a known address), in the event's transaction. The app always
    ///   gives one (``provider``); `nil` only for tests of other concerns.
    public init(
        repository: any AuthStore, hasher: any PasswordHasher, secrets: any SecretGenerator,
        store: any SessionStore, clock: any WallClock, policy: AuthPolicy = AuthPolicy(),
        inbox: (any InboxPublisher)? = nil
    ) {
        let tokens = SessionTokens(repository: repository, hasher: hasher, secrets: secrets, clock: clock, policy: policy, inbox: inbox)
        self.init(authority: LocalSessionAuthority(tokens: tokens, repository: repository, secrets: secrets), store: store, clock: clock)
    }

    /// A session manager whose rules are `authority`'s: the embedded one, or — when `moa` is a
    /// client of `moa-server` — the server's, over its API. The session file, its expiry and the
    /// single-flight refresh are this actor's either way.
    /// - Parameter origin: the server whose sessions this manager keeps (`nil`: the embedded bank). A
    ///   session file another server issued is no session here: its tokens are never sent elsewhere.
    public init(authority: any SessionAuthority, store: any SessionStore, clock: any WallClock, origin: String? = nil) {
        self.authority = authority
        self.store = store
        self.clock = clock
        self.origin = origin
    }

    /// The stored session, if this manager's bank issued it.
    private func load() throws -> StoredSession? {
        guard let stored = try store.load(), stored.server == origin else { return nil }
        return stored
    }

    /// Saves `session`, marked as this manager's bank's.
    private func save(_ session: StoredSession) throws {
        try store.save(session.issued(by: origin))
    }

    // MARK: Log in

    /// Checks the password (throttled per address, the same way for unknown addresses) and starts a session.
    public func logIn(email raw: String, password: String) async throws -> AuthenticatedUser {
        let session = try await authority.logIn(email: raw, password: password)
        try save(session)
        return AuthenticatedUser(id: session.userID, email: session.email)
    }

    // MARK: The current session

    public func currentUser() async throws -> AuthenticatedUser? {
        if let refreshing { return try await refreshing.value }
        guard let stored = try load() else { return nil }
        if clock.now() < stored.accessExpiresAt, try await authority.accessIsLive(stored) {
            return AuthenticatedUser(id: stored.userID, email: stored.email)
        }
        return try await refreshOnce(stored)
    }

    /// The access token to send to the server, refreshed first when it has expired (remote mode).
    public func accessToken() async throws -> String? {
        guard try await currentUser() != nil else { return nil }
        return try load()?.accessToken
    }

    /// The server refused `rejected` (401): refreshes once — unless another caller already did, in
    /// which case its token is returned — and returns the token to retry with (`nil`: the session ended).
    public func accessToken(replacing rejected: String) async throws -> String? {
        if let refreshing { _ = try await refreshing.value }
        guard let stored = try load() else { return nil }
        if stored.accessToken != rejected { return stored.accessToken }
        guard try await refreshOnce(stored) != nil else { return nil }
        return try load()?.accessToken
    }

    /// Refreshes `stored`, or joins the refresh another caller started (single-flight).
    private func refreshOnce(_ stored: StoredSession) async throws -> AuthenticatedUser? {
        // Another caller may have started the refresh while this one awaited.
        if let refreshing { return try await refreshing.value }
        let task = Task { try await self.refreshAlone(stored) }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value
    }

    /// The session as stored, for `whoami` (its tokens never leave Auth).
    public func sessionDetails() async throws -> (user: AuthenticatedUser, refreshExpiresAt: Date)? {
        guard let user = try await currentUser(), let stored = try load() else { return nil }
        return (user, stored.refreshExpiresAt)
    }

    /// Refreshes while no other process of this home does (single-flight across processes): one
    /// that refreshed while this one waited has saved the next generation, which is used instead.
    private func refreshAlone(_ stored: StoredSession) async throws -> AuthenticatedUser? {
        // Waiting for another process's lock blocks a thread: a Dispatch thread, never one of the
        // cooperative pool's (one per core), which the other holder of the lock may need to finish.
        let store = store
        let lock = try await withCheckedThrowingContinuation { (waiting: CheckedContinuation<any SessionRefreshLock, any Error>) in
            DispatchQueue.global().async { waiting.resume(with: Result { try store.lockForRefresh() }) }
        }
        defer { lock.unlock() }
        if let newer = try load(), newer.refreshToken != stored.refreshToken {
            if clock.now() < newer.accessExpiresAt { return AuthenticatedUser(id: newer.userID, email: newer.email) }
            return try await refresh(newer)
        }
        return try await refresh(stored)
    }

    /// Rotates the refresh token. A rotated token presented again revokes its whole family.
    private func refresh(_ stored: StoredSession, retried: Bool = false) async throws -> AuthenticatedUser? {
        switch try await authority.rotate(stored) {
        case .rotated(let session):
            try save(session)
            return AuthenticatedUser(id: session.userID, email: session.email)
        case .ended:
            return try end()
        case .alreadyRotated(let reuse):
            // Another moa process may have rotated it a moment ago and saved the next generation.
            if !retried, let newer = try load(), newer.refreshToken != stored.refreshToken {
                return try await refresh(newer, retried: true)
            }
            try await reuse.revoke()
            return try end()
        case .lostRace:
            return retried ? try end() : try await refresh(stored, retried: true)
        }
    }

    // MARK: Log out

    /// Ends this session (its whole family), or with `everywhere` every session of the user.
    public func logOut(everywhere: Bool) async throws -> AuthenticatedUser? {
        guard let stored = try load() else { return nil }
        try await authority.logOut(stored, everywhere: everywhere)
        try store.clear()
        return AuthenticatedUser(id: stored.userID, email: stored.email)
    }

    // MARK: Change the password

    /// `moa auth password change`: checks the current password (a wrong one counts toward the
    /// address's throttle like a failed login), applies the sign-up policy to the new one, and in one
    /// transaction replaces the hash, revokes **every** session of the user and re-issues this
    /// terminal's session (new tokens, new family: copies of the old session file stop working too),
    /// records the event and publishes `.passwordChanged` (``SessionTokens/changePassword(of:current:new:)``).
    public func changePassword(current: String, new: String) async throws -> AuthenticatedUser {
        let user = try await currentRecordUser()
        guard let stored = try load() else { throw NotLoggedInError() }
        let session = try await authority.changePassword(of: stored, current: current, new: new)
        try save(session)
        return user
    }

    // MARK: Confirming with the password

    /// Checks `password` against the logged-in user's, as `moa auth pin remove --password-stdin` asks
    /// for it: a wrong one is ``AccountSecurityError/wrongCurrentPassword`` and counts toward the
    /// address's throttle like a failed login; a locked address is refused.
    public func confirmPassword(_ password: String) async throws -> AuthenticatedUser {
        let user = try await currentRecordUser()
        try await authority.confirmPassword(password, of: user)
        return user
    }

    // MARK: Helpers

    /// The logged-in user, as their record has it, or ``NotLoggedInError`` (ending a session whose user is gone).
    private func currentRecordUser() async throws -> AuthenticatedUser {
        guard let user = try await currentUser() else { throw NotLoggedInError() }
        guard try await authority.userExists(user) else {
            _ = try end()
            throw NotLoggedInError()
        }
        return user
    }

    private func end() throws -> AuthenticatedUser? {
        try store.clear()
        return nil
    }
}

/// The session manager (log in, log out, current user) that Auth's commands and `SessionProviderKey` share.
public enum SessionManagerKey: ServiceKey { public typealias Service = SessionManager }
