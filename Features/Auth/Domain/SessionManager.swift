import AuthInterface
import Foundation
import InboxInterface
import SharedKit

/// Logs in and out, and is the `SessionProvider` other features use: the session of this terminal,
/// kept in its session file. The rules themselves (throttle, rotation, reuse, notices) are
/// ``SessionTokens``', which `moa-server` uses too.
///
/// An actor: when several callers find the access token expired at the same moment, exactly one
/// refresh runs and all of them get its result.
public actor SessionManager: SessionProvider {
    private let tokens: SessionTokens
    private let repository: any AuthRepository
    private let secrets: any SecretGenerator
    private let store: any SessionStore
    private let clock: any WallClock
    private var refreshing: Task<AuthenticatedUser?, any Error>?

    /// - Parameter inbox: where security notices go (new login, refresh-token reuse, password
    ///   changed, login lockout of a known address), in the event's transaction. The app always
    ///   gives one (``provider``); `nil` only for tests of other concerns.
    public init(
        repository: any AuthRepository, hasher: any PasswordHasher, secrets: any SecretGenerator,
        store: any SessionStore, clock: any WallClock, policy: AuthPolicy = AuthPolicy(),
        inbox: (any InboxPublisher)? = nil
    ) {
        self.tokens = SessionTokens(repository: repository, hasher: hasher, secrets: secrets, clock: clock, policy: policy, inbox: inbox)
        self.repository = repository
        self.secrets = secrets
        self.store = store
        self.clock = clock
    }

    // MARK: Log in

    /// Checks the password (throttled per address, the same way for unknown addresses) and starts a session.
    public func logIn(email raw: String, password: String) async throws -> AuthenticatedUser {
        let session = try await tokens.logIn(email: raw, password: password)
        try store.save(session)
        return AuthenticatedUser(id: session.userID, email: session.email)
    }

    // MARK: The current session

    public func currentUser() async throws -> AuthenticatedUser? {
        if let refreshing { return try await refreshing.value }
        guard let stored = try store.load() else { return nil }
        if clock.now() < stored.accessExpiresAt,
            let record = try await repository.session(accessDigest: secrets.digest(stored.accessToken)),
            record.revokedAt == nil, record.rotatedAt == nil
        {
            return AuthenticatedUser(id: stored.userID, email: stored.email)
        }
        // Another caller may have started the refresh while this one awaited the lookup.
        if let refreshing { return try await refreshing.value }
        let task = Task { try await self.refresh(stored) }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value
    }

    /// The session as stored, for `whoami` (its tokens never leave Auth).
    public func sessionDetails() async throws -> (user: AuthenticatedUser, refreshExpiresAt: Date)? {
        guard let user = try await currentUser(), let stored = try store.load() else { return nil }
        return (user, stored.refreshExpiresAt)
    }

    /// Rotates the refresh token. A rotated token presented again revokes its whole family.
    private func refresh(_ stored: StoredSession, retried: Bool = false) async throws -> AuthenticatedUser? {
        switch try await tokens.rotate(refreshToken: stored.refreshToken, email: stored.email) {
        case .rotated(let session):
            try store.save(session)
            return AuthenticatedUser(id: session.userID, email: session.email)
        case .ended:
            return try end()
        case .alreadyRotated(let record):
            // Another moa process may have rotated it a moment ago and saved the next generation.
            if !retried, let newer = try store.load(), newer.refreshToken != stored.refreshToken {
                return try await refresh(newer, retried: true)
            }
            try await tokens.revokeReused(record, email: stored.email)
            return try end()
        case .lostRace:
            return retried ? try end() : try await refresh(stored, retried: true)
        }
    }

    // MARK: Log out

    /// Ends this session (its whole family), or with `everywhere` every session of the user.
    public func logOut(everywhere: Bool) async throws -> AuthenticatedUser? {
        guard let stored = try store.load() else { return nil }
        let user = AuthenticatedUser(id: stored.userID, email: stored.email)
        try await tokens.logOut(try await tokens.session(refreshToken: stored.refreshToken), user: user, everywhere: everywhere)
        try store.clear()
        return user
    }

    // MARK: Change the password

    /// `moa auth password change`: checks the current password (a wrong one counts toward the
    /// address's throttle like a failed login), applies the sign-up policy to the new one, and in one
    /// transaction replaces the hash, revokes **every** session of the user and re-issues this
    /// terminal's session (new tokens, new family: copies of the old session file stop working too),
    /// records the event and publishes `.passwordChanged` (``SessionTokens/changePassword(of:current:new:)``).
    public func changePassword(current: String, new: String) async throws -> AuthenticatedUser {
        let user = try await currentRecordUser()
        let session = try await tokens.changePassword(of: user, current: current, new: new)
        try store.save(session)
        return user
    }

    // MARK: Confirming with the password

    /// Checks `password` against the logged-in user's, as `moa auth pin remove --password-stdin` asks
    /// for it: a wrong one is ``AccountSecurityError/wrongCurrentPassword`` and counts toward the
    /// address's throttle like a failed login; a locked address is refused.
    public func confirmPassword(_ password: String) async throws -> AuthenticatedUser {
        let user = try await currentRecordUser()
        try await tokens.confirmPassword(password, of: user)
        return user
    }

    // MARK: Helpers

    /// The logged-in user, as their record has it, or ``NotLoggedInError`` (ending a session whose user is gone).
    private func currentRecordUser() async throws -> AuthenticatedUser {
        guard let user = try await currentUser() else { throw NotLoggedInError() }
        guard let record = try await repository.user(id: user.id) else {
            _ = try end()
            throw NotLoggedInError()
        }
        return AuthenticatedUser(id: record.id, email: record.email)
    }

    private func end() throws -> AuthenticatedUser? {
        try store.clear()
        return nil
    }
}
