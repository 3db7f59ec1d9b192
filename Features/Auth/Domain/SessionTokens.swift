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
    private let repository: any AuthStore
    private let hasher: any PasswordHasher
    private let secrets: any SecretGenerator
    private let clock: any WallClock
    private let policy: AuthPolicy
    private let inbox: (any InboxPublisher)?
    private let origin: any ClientOrigin
    private let accessCache: AccessCache?

    /// - Parameters:
    ///   - inbox: where security notices go (new login, refresh-token reuse, password changed,
    ///     lockout of a known address), in the event's transaction; `nil` only in tests of other concerns.
    ///   - origin: who is asking (the request's client on a server), for the guessers' locks.
    public init(
        repository: any AuthStore, hasher: any PasswordHasher, secrets: any SecretGenerator, clock: any WallClock,
        policy: AuthPolicy = AuthPolicy(), inbox: (any InboxPublisher)? = nil, origin: any ClientOrigin = ThisTerminal(),
        accessCache: AccessCache? = nil
    ) {
        self.accessCache = accessCache
        self.repository = repository
        self.hasher = hasher
        self.secrets = secrets
        self.clock = clock
        self.policy = policy
        self.inbox = inbox
        self.origin = origin
    }

    // MARK: Log in

    /// Checks the password and starts a session of a new family: its tokens, which only the caller
    /// ever sees. Wrong passwords lock out the client that guesses (``AuthPolicy/guesserLock``,
    /// ``AuthPolicy/clientLock``) and only delay the address for everyone else
    /// (``AuthPolicy/addressDelay``); an unknown address and one not verified yet answer exactly as a
    /// wrong password does, after the same work.
    public func logIn(email raw: String, password: String) async throws -> StoredSession {
        let email = try EmailAddress(raw)
        return try await AddressGate.shared.run(email.value) { try await logIn(email, password: password) }
    }

    private func logIn(_ email: EmailAddress, password: String) async throws -> StoredSession {
        let now = clock.now()
        let limits = GuessLimits(
            .password, repository: repository, policy: policy, inbox: inbox, address: email.value, origin: origin,
            locked: { AuthError.throttled(until: $0) })
        try await limits.admit(at: now)

        let normalized = password.precomposedStringWithCompatibilityMapping
        let user = try await repository.user(email: email.value)
        let matches: Bool
        if let user, user.verifiedAt != nil {
            matches = hasher.verify(normalized, against: user.passwordHash)
        } else {
            // No account, or a sign-up whose code nobody entered yet (its password is set only
            // then): the same work and the same answer as a wrong password.
            hasher.verifyAgainstNothing(normalized)
            matches = false
        }
        guard let user, matches else {
            try await limits.fail(user: user, at: now)
            throw AuthError.wrongCredentials
        }
        try await limits.succeed(at: now)
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
        try await liveSession(digest: secrets.digest(accessToken), at: clock.now())
    }

    private func liveSession(digest: String, at now: Date) async throws -> SessionRecord? {
        guard let record = try await repository.session(accessDigest: digest),
            record.revokedAt == nil, record.rotatedAt == nil, now < record.accessExpiresAt
        else { return nil }
        return record
    }

    /// The session and user of a live access token (``liveSession(accessToken:)``, then
    /// ``user(of:)``), from the ``AccessCache`` when one is given and remembers it: no database read.
    public func liveUser(accessToken: String) async throws -> (session: SessionRecord, user: AuthenticatedUser)? {
        let digest = secrets.digest(accessToken)
        let now = clock.now()
        if let accessCache, let (session, user) = accessCache.live(digest, at: now) { return (session, user) }
        let generation = accessCache?.generation ?? 0
        guard let record = try await liveSession(digest: digest, at: now), let user = try await user(of: record) else { return nil }
        accessCache?.remember(digest, session: record, user: user, checkedAt: now, since: generation)
        return (record, user)
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
        let event = SecurityEvent(userID: record.userID, email: address, kind: .refreshTokenReuse, at: now)
        origin.witness(event)
        try await repository.record(
            event,
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

    /// Checks `typed` (already NFKC) against the user's password hash, as a login does (the same
    /// locks and delay): a wrong one counts as a failed login, a right one clears this client's count.
    private func checkPassword(_ typed: String, of record: UserRecord, at now: Date) async throws {
        let key = EmailAddress.canonical(record.email)
        try await AddressGate.shared.run(key) {
            let limits = GuessLimits(
                .password, repository: repository, policy: policy, inbox: inbox, address: key, origin: origin,
                locked: { AuthError.throttled(until: $0) })
            try await limits.admit(at: now)
            guard hasher.verify(typed, against: record.passwordHash) else {
                try await limits.fail(user: record, at: now)
                throw AccountSecurityError.wrongCurrentPassword
            }
            try await limits.succeed(at: now)
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
