import AuthInterface
import Foundation
import InboxInterface
import Registry
import SharedKit

/// Sessions as tokens: the rules of logging in, of access tokens, of refresh-token rotation and
/// family revocation, of logging out and of changing the password — with no session file.
///
/// `moa-server` calls it with the tokens a request carries; the terminal's ``SessionManager`` calls
/// it and keeps what it returns in the session file. Both therefore share one throttle, one lockout,
/// one set of security notices and one reuse rule.
public struct SessionTokens: Sendable {
    private let repository: any AuthRepository
    private let hasher: any PasswordHasher
    private let secrets: any SecretGenerator
    private let clock: any WallClock
    private let policy: AuthPolicy
    private let inbox: (any InboxPublisher)?

    /// - Parameter inbox: where security notices go (new login, refresh-token reuse, password
    ///   changed, lockout of a known address), in the event's transaction; `nil` only in tests of
    ///   other concerns.
    public init(
        repository: any AuthRepository, hasher: any PasswordHasher, secrets: any SecretGenerator, clock: any WallClock,
        policy: AuthPolicy = AuthPolicy(), inbox: (any InboxPublisher)? = nil
    ) {
        self.repository = repository
        self.hasher = hasher
        self.secrets = secrets
        self.clock = clock
        self.policy = policy
        self.inbox = inbox
    }

    // MARK: Log in

    /// Checks the password (throttled per address, the same way for unknown addresses) and starts a
    /// session of a new family: its tokens, which only the caller ever sees.
    public func logIn(email raw: String, password: String) async throws -> StoredSession {
        let email = try EmailAddress(raw)
        return try await AddressGate.shared.run(email.value) { try await logIn(email, password: password) }
    }

    private func logIn(_ email: EmailAddress, password: String) async throws -> StoredSession {
        let key = email.value
        let now = clock.now()
        if let until = try await repository.throttle(for: key).lock(at: now) { throw AuthError.throttled(until: until) }

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
            try await countFailure(key: key, email: email.value, user: user, at: now)
            throw AuthError.wrongCredentials
        }
        if let until = try await repository.clearThrottle(for: key, at: now) { throw AuthError.throttled(until: until) }
        guard user.verifiedAt != nil else { throw AuthError.notVerified(user.email) }
        if hasher.needsRehash(user.passwordHash) {
            try await repository.updatePasswordHash(user.id, to: try hasher.hash(normalized))
            try await repository.record(SecurityEvent(userID: user.id, email: user.email, kind: .passwordUpgraded, at: now))
        }
        let (record, session) = makeSession(userID: user.id, email: user.email, family: secrets.identifier(), at: now)
        try await repository.insertSession(
            record, recording: SecurityEvent(userID: user.id, email: user.email, kind: .login, at: now),
            clearingWrongPins: true, // the password proves who it is: the PIN gets its five tries back
            alongside: SecurityNotices.publishing(SecurityNotices.newLogin(user.id, email: user.email, at: now), through: inbox))
        return session
    }

    // MARK: Access tokens

    /// The session record of a live access token: known, not expired, its generation neither
    /// rotated nor revoked. `nil` for anything else.
    public func liveSession(accessToken: String) async throws -> SessionRecord? {
        guard let record = try await repository.session(accessDigest: secrets.digest(accessToken)),
            record.revokedAt == nil, record.rotatedAt == nil, clock.now() < record.accessExpiresAt
        else { return nil }
        return record
    }

    /// Whose session this is (`nil`: a user deleted since).
    public func user(of record: SessionRecord) async throws -> AuthenticatedUser? {
        guard let user = try await repository.user(id: record.userID) else { return nil }
        return AuthenticatedUser(id: user.id, email: user.email)
    }

    // MARK: Refresh tokens

    /// What presenting a refresh token did.
    public enum Rotation: Sendable {
        /// The next generation of the session (the presented token is now rotated).
        case rotated(StoredSession)
        /// The token had been rotated before: presented again, it may be a copy. The caller decides
        /// (``Reuse/revoke()``), since a terminal may first look for a newer generation it saved.
        case alreadyRotated(Reuse)
        /// Unknown, expired or revoked: the session is over.
        case ended
        /// Another request rotated it at the same moment.
        case lostRace
    }

    /// A rotated refresh token presented again, and what revoking its family takes.
    public struct Reuse: Sendable {
        private let revoking: @Sendable () async throws -> Void

        public init(revoking: @escaping @Sendable () async throws -> Void) {
            self.revoking = revoking
        }

        /// Revokes the whole family, records the event and tells the user (`refresh-token-reuse`).
        public func revoke() async throws { try await revoking() }
    }

    /// Rotates `refreshToken`: marks its generation rotated and issues the next one (same family).
    /// - Parameter email: the user's address, when the caller knows it (else it is looked up).
    public func rotate(refreshToken: String, email: String? = nil) async throws -> Rotation {
        let now = clock.now()
        guard let record = try await repository.session(refreshDigest: secrets.digest(refreshToken)), record.revokedAt == nil
        else { return .ended }
        if record.rotatedAt != nil { return .alreadyRotated(Reuse { try await revokeReused(record, email: email) }) }
        guard now < record.refreshExpiresAt else { return .ended }
        let address: String
        if let email {
            address = email
        } else {
            guard let user = try await repository.user(id: record.userID) else { return .ended }
            address = user.email
        }
        let (next, session) = makeSession(userID: record.userID, email: address, family: record.familyID, at: now)
        guard try await repository.rotate(record.id, to: next, at: now) else { return .lostRace }
        return .rotated(session)
    }

    /// A rotated refresh token came back: revokes its whole family, records the event and tells the
    /// user in their inbox (`refresh-token-reuse`), in one transaction.
    func revokeReused(_ record: SessionRecord, email: String? = nil) async throws {
        let now = clock.now()
        var address = email ?? ""
        if email == nil, let user = try await repository.user(id: record.userID) { address = user.email }
        try await repository.revokeFamily(record.familyID, at: now)
        try await repository.record(
            SecurityEvent(userID: record.userID, email: address, kind: .refreshTokenReuse, at: now),
            alongside: SecurityNotices.publishing(
                SecurityNotices.refreshTokenReuse(record.userID, email: address, at: now), through: inbox))
    }

    /// The server's refresh: the next generation, or `nil` when the session is over. A token
    /// presented after it was rotated — even by a request racing the one that rotated it — revokes
    /// the family: a client refreshes one at a time, so two presentations mean a copy.
    public func refresh(refreshToken: String) async throws -> StoredSession? {
        switch try await rotate(refreshToken: refreshToken) {
        case .rotated(let session):
            return session
        case .ended:
            return nil
        case .alreadyRotated(let reuse):
            try await reuse.revoke()
            return nil
        case .lostRace:
            if case .alreadyRotated(let reuse) = try await rotate(refreshToken: refreshToken) { try await reuse.revoke() }
            return nil
        }
    }

    // MARK: Log out

    /// Ends the session `record` (its whole family) — or, with `everywhere`, every session of the
    /// user — and records the `logout` event.
    public func logOut(_ record: SessionRecord?, user: AuthenticatedUser, everywhere: Bool) async throws {
        let now = clock.now()
        if everywhere {
            try await repository.revokeAllSessions(of: user.id, at: now)
        } else if let record {
            try await repository.revokeFamily(record.familyID, at: now)
        }
        try await repository.record(SecurityEvent(userID: user.id, email: user.email, kind: .logout, at: now))
    }

    /// The session record of a refresh token, whatever its state (a terminal's logout uses it).
    public func session(refreshToken: String) async throws -> SessionRecord? {
        try await repository.session(refreshDigest: secrets.digest(refreshToken))
    }

    // MARK: Passwords

    /// Changes `user`'s password: checks the current one (a wrong one is
    /// ``AccountSecurityError/wrongCurrentPassword`` and counts toward the address's throttle like
    /// a failed login), applies the sign-up policy to the new one, and in one transaction replaces
    /// the hash, revokes **every** session of the user, starts a new one (new family) — returned —
    /// records the event and publishes `.passwordChanged`.
    public func changePassword(of user: AuthenticatedUser, current: String, new: String) async throws -> StoredSession {
        let record = try await userRecord(user)
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
        return stored
    }

    /// Checks `password` against `user`'s, under the address's throttle (a wrong one is
    /// ``AccountSecurityError/wrongCurrentPassword`` and counts like a failed login).
    public func confirmPassword(_ password: String, of user: AuthenticatedUser) async throws {
        let record = try await userRecord(user)
        try await checkPassword(password.precomposedStringWithCompatibilityMapping, of: record, at: clock.now())
    }

    // MARK: Helpers

    /// The user's record, or ``NotLoggedInError`` when the user no longer exists.
    private func userRecord(_ user: AuthenticatedUser) async throws -> UserRecord {
        guard let record = try await repository.user(id: user.id) else { throw NotLoggedInError() }
        return record
    }

    /// Checks `typed` (already NFKC) against the user's password hash, under the address's throttle:
    /// a locked address is refused, a wrong password counts as a failed login (the lockout it may cause
    /// is recorded and its owner told), a right one clears the count.
    private func checkPassword(_ typed: String, of record: UserRecord, at now: Date) async throws {
        let key = EmailAddress.canonical(record.email)
        try await AddressGate.shared.run(key) { try await checkPassword(typed, of: record, at: now, key: key) }
    }

    private func checkPassword(_ typed: String, of record: UserRecord, at now: Date, key: String) async throws {
        if let until = try await repository.throttle(for: key).lock(at: now) { throw AuthError.throttled(until: until) }
        guard hasher.verify(typed, against: record.passwordHash) else {
            try await countFailure(key: key, email: record.email, user: record, at: now)
            throw AccountSecurityError.wrongCurrentPassword
        }
        if let until = try await repository.clearThrottle(for: key, at: now) { throw AuthError.throttled(until: until) }
    }

    /// One more wrong password for the address `key`, counted in one transaction: the lockout it
    /// may start is recorded and its owner (of a known address) told in their inbox — the answer to
    /// the request stays the same either way. An address a concurrent attempt locked meanwhile
    /// counts nothing more, and the answer is that it is locked.
    private func countFailure(key: String, email: String, user: UserRecord?, at now: Date) async throws {
        let update = try await repository.countFailure(for: key, policy: policy, at: now)
        if let until = update.before.lock(at: now) { throw AuthError.throttled(until: until) }
        if update.after.lockouts > update.before.lockouts {
            try await repository.recordLockout(
                of: email, user: user, until: update.after.lockedUntil, cause: .passwords, at: now, inbox: inbox)
        }
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
}

/// The token-based session use cases (`moa-server`'s Auth).
public enum SessionTokensKey: ServiceKey { public typealias Service = SessionTokens }
