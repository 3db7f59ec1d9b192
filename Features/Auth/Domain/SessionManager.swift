import AuthInterface
import Foundation
import InboxInterface
import SharedKit

/// Logs in and out, and is the `SessionProvider` other features use.
///
/// An actor: when several callers find the access token expired at the same moment, exactly one
/// refresh runs and all of them get its result.
public actor SessionManager: SessionProvider {
    private let repository: any AuthRepository
    private let hasher: any PasswordHasher
    private let secrets: any SecretGenerator
    private let store: any SessionStore
    private let clock: any WallClock
    private let policy: AuthPolicy
    private let inbox: (any InboxPublisher)?
    private var refreshing: Task<AuthenticatedUser?, any Error>?

    /// - Parameter inbox: where security notices go (new login, refresh-token reuse, password
    ///   changed, login lockout of a known address), in the event's transaction. The app always
    ///   gives one (``provider``); `nil` only for tests of other concerns.
    public init(
        repository: any AuthRepository, hasher: any PasswordHasher, secrets: any SecretGenerator,
        store: any SessionStore, clock: any WallClock, policy: AuthPolicy = AuthPolicy(),
        inbox: (any InboxPublisher)? = nil
    ) {
        self.repository = repository
        self.hasher = hasher
        self.secrets = secrets
        self.store = store
        self.clock = clock
        self.policy = policy
        self.inbox = inbox
    }

    // MARK: Log in

    /// Checks the password (throttled per address, the same way for unknown addresses) and starts a session.
    public func logIn(email raw: String, password: String) async throws -> AuthenticatedUser {
        let email = try EmailAddress(raw)
        let key = email.value
        let now = clock.now()
        let throttle = try await repository.throttle(for: key)
        if let until = throttle.lockedUntil, now < until { throw AuthError.throttled(until: until) }

        let normalized = password.precomposedStringWithCompatibilityMapping
        let user = try await repository.user(email: email.value)
        let matches: Bool
        if let user {
            matches = hasher.verify(normalized, against: user.passwordHash)
        } else {
            hasher.verifyAgainstNothing(normalized)
            matches = false
        }
        guard let user, matches else {
            let next = policy.failing(throttle, at: now)
            try await repository.saveThrottle(next, for: key)
            if next.lockouts > throttle.lockouts {
                // The owner of a known address is told in their inbox; the answer here stays the same.
                try await repository.recordLockout(
                    of: email.value, user: user, until: next.lockedUntil, cause: .passwords, at: now, inbox: inbox)
            }
            throw AuthError.wrongCredentials
        }
        if throttle != .fresh { try await repository.saveThrottle(.fresh, for: key) }
        guard user.verifiedAt != nil else { throw AuthError.notVerified(user.email) }
        if hasher.needsRehash(user.passwordHash) {
            try await repository.updatePasswordHash(user.id, to: try hasher.hash(normalized))
            try await repository.record(SecurityEvent(userID: user.id, email: user.email, kind: .passwordUpgraded, at: now))
        }
        try await startSession(for: user, family: secrets.identifier(), at: now)
        return AuthenticatedUser(id: user.id, email: user.email)
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
        let now = clock.now()
        guard let record = try await repository.session(refreshDigest: secrets.digest(stored.refreshToken)),
            record.revokedAt == nil
        else { return try end() }
        if record.rotatedAt != nil {
            // Another moa process may have rotated it a moment ago and saved the next generation.
            if !retried, let newer = try store.load(), newer.refreshToken != stored.refreshToken {
                return try await refresh(newer, retried: true)
            }
            try await repository.revokeFamily(record.familyID, at: now)
            try await repository.record(
                SecurityEvent(userID: record.userID, email: stored.email, kind: .refreshTokenReuse, at: now),
                alongside: SecurityNotices.publishing(
                    SecurityNotices.refreshTokenReuse(record.userID, email: stored.email, at: now), through: inbox))
            return try end()
        }
        guard now < record.refreshExpiresAt else { return try end() }
        let (next, session) = makeSession(userID: record.userID, email: stored.email, family: record.familyID, at: now)
        guard try await repository.rotate(record.id, to: next, at: now) else {
            return retried ? try end() : try await refresh(stored, retried: true)
        }
        try store.save(session)
        return AuthenticatedUser(id: record.userID, email: stored.email)
    }

    // MARK: Log out

    /// Ends this session (its whole family), or with `everywhere` every session of the user.
    public func logOut(everywhere: Bool) async throws -> AuthenticatedUser? {
        guard let stored = try store.load() else { return nil }
        let now = clock.now()
        let record = try await repository.session(refreshDigest: secrets.digest(stored.refreshToken))
        if everywhere {
            try await repository.revokeAllSessions(of: stored.userID, at: now)
        } else if let record {
            try await repository.revokeFamily(record.familyID, at: now)
        }
        try await repository.record(SecurityEvent(userID: stored.userID, email: stored.email, kind: .logout, at: now))
        try store.clear()
        return AuthenticatedUser(id: stored.userID, email: stored.email)
    }

    // MARK: Change the password

    /// `moa auth password change`: checks the current password (a wrong one counts toward the
    /// address's throttle like a failed login), applies the sign-up policy to the new one, and in one
    /// transaction replaces the hash, revokes **every** session of the user and re-issues this
    /// terminal's session (new tokens, new family: copies of the old session file stop working too),
    /// records the event and publishes `.passwordChanged`.
    public func changePassword(current: String, new: String) async throws -> AuthenticatedUser {
        let record = try await currentRecord()
        let email = try EmailAddress(record.email)
        let normalized = try PasswordPolicy().check(new, for: email)
        let typed = current.precomposedStringWithCompatibilityMapping
        guard normalized != typed else { throw AccountSecurityError.samePassword }

        let now = clock.now()
        try await checkPassword(typed, of: record, at: now)

        let (session, stored) = makeSession(userID: record.id, email: record.email, family: secrets.identifier(), at: now)
        try await repository.replacePassword(
            of: record.id, with: try hasher.hash(normalized), at: now, newSession: session,
            event: SecurityEvent(userID: record.id, email: record.email, kind: .passwordChanged, at: now),
            alongside: SecurityNotices.publishing(
                SecurityNotices.passwordChanged(record.id, email: record.email, at: now, byReset: false), through: inbox))
        try store.save(stored)
        return AuthenticatedUser(id: record.id, email: record.email)
    }

    // MARK: Confirming with the password

    /// Checks `password` against the logged-in user's, as `moa auth pin remove --password-stdin` asks
    /// for it: a wrong one is ``AccountSecurityError/wrongCurrentPassword`` and counts toward the
    /// address's throttle like a failed login; a locked address is refused.
    public func confirmPassword(_ password: String) async throws -> AuthenticatedUser {
        let record = try await currentRecord()
        try await checkPassword(password.precomposedStringWithCompatibilityMapping, of: record, at: clock.now())
        return AuthenticatedUser(id: record.id, email: record.email)
    }

    // MARK: Helpers

    /// The logged-in user's record, or ``NotLoggedInError`` (ending a session whose user is gone).
    private func currentRecord() async throws -> UserRecord {
        guard let user = try await currentUser() else { throw NotLoggedInError() }
        guard let record = try await repository.user(id: user.id) else {
            _ = try end()
            throw NotLoggedInError()
        }
        return record
    }

    /// Checks `typed` (already NFKC) against the user's password hash, under the address's throttle:
    /// a locked address is refused, a wrong password counts as a failed login (the lockout it may cause
    /// is recorded and its owner told), a right one clears the count.
    private func checkPassword(_ typed: String, of record: UserRecord, at now: Date) async throws {
        let key = EmailAddress.canonical(record.email)
        let throttle = try await repository.throttle(for: key)
        if let until = throttle.lockedUntil, now < until { throw AuthError.throttled(until: until) }
        guard hasher.verify(typed, against: record.passwordHash) else {
            let next = policy.failing(throttle, at: now)
            try await repository.saveThrottle(next, for: key)
            if next.lockouts > throttle.lockouts {
                try await repository.recordLockout(
                    of: record.email, user: record, until: next.lockedUntil, cause: .passwords, at: now, inbox: inbox)
            }
            throw AccountSecurityError.wrongCurrentPassword
        }
        if throttle != .fresh { try await repository.saveThrottle(.fresh, for: key) }
    }

    /// Inserts the session with its `login` event and `.newLogin` notice (one transaction), then saves the session file.
    private func startSession(for user: UserRecord, family: String, at now: Date) async throws {
        let (record, session) = makeSession(userID: user.id, email: user.email, family: family, at: now)
        try await repository.insertSession(
            record, recording: SecurityEvent(userID: user.id, email: user.email, kind: .login, at: now),
            clearingWrongPins: true, // the password proves who it is: the PIN gets its five tries back
            alongside: SecurityNotices.publishing(SecurityNotices.newLogin(user.id, email: user.email, at: now), through: inbox))
        try store.save(session)
    }

    private func makeSession(userID: UserID, email: String, family: String, at now: Date) -> (SessionRecord, StoredSession) {
        let access = secrets.token()
        let refresh = secrets.token()
        let accessExpiry = now.addingTimeInterval(policy.accessTokenLifetime)
        let refreshExpiry = now.addingTimeInterval(policy.refreshTokenLifetime)
        let record = SessionRecord(
            id: secrets.identifier(), familyID: family, userID: userID,
            accessDigest: secrets.digest(access), accessExpiresAt: accessExpiry,
            refreshDigest: secrets.digest(refresh), refreshExpiresAt: refreshExpiry, createdAt: now)
        let session = StoredSession(
            userID: userID, email: email, accessToken: access, refreshToken: refresh,
            accessExpiresAt: accessExpiry, refreshExpiresAt: refreshExpiry)
        return (record, session)
    }

    private func end() throws -> AuthenticatedUser? {
        try store.clear()
        return nil
    }
}
