import AuthInterface
import Foundation
import Persistence
import Registry
import SharedKit

// What the Auth use cases need from the outside world; AuthData implements each of them.

/// Hashes and checks passwords with a memory-hard KDF. The stored string carries its own salt and
/// parameters, so parameters can be raised later and old hashes upgraded at the next login.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) throws -> String
    /// Constant-time comparison of the derived key.
    func verify(_ password: String, against stored: String) -> Bool
    /// Whether `stored` was made with weaker parameters than the current ones.
    func needsRehash(_ stored: String) -> Bool
    /// Spends the work of one verification, so an unknown address costs as much as a known one.
    func verifyAgainstNothing(_ password: String)
}

/// Random secrets and their digests.
public protocol SecretGenerator: Sendable {
    /// A token of at least 256 random bits, URL-safe text.
    func token() -> String
    /// A verification code of 6 random digits.
    func verificationCode() -> String
    /// A new random identifier.
    func identifier() -> String
    /// The digest under which a secret is stored (never the secret itself).
    func digest(_ secret: String) -> String
}

/// One e-mail.
public struct Mail: Sendable, Equatable {
    /// What a mail is for (the outbox names its files after it: `…-verify.eml`, `…-reset.eml`).
    public enum Purpose: String, Sendable, Equatable {
        case verification = "verify"
        case passwordReset = "reset"
        case other = "mail"
    }

    public let to: String
    public let subject: String
    public let body: String
    public let purpose: Purpose

    public init(to: String, subject: String, body: String, purpose: Purpose = .other) {
        self.to = to
        self.subject = subject
        self.body = body
        self.purpose = purpose
    }
}

/// Sends mail. The embedded default writes `.eml` files to `$MOA_HOME/outbox/`.
public protocol MailSender: Sendable {
    /// Sends `mail`; returns where it went, for the person to find it (a file path, a message id).
    func send(_ mail: Mail) async throws -> String
}

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

public struct UserRecord: Sendable, Equatable {
    public let id: UserID
    public let email: String
    public let passwordHash: String
    public let createdAt: Date
    public let verifiedAt: Date?

    public init(id: UserID, email: String, passwordHash: String, createdAt: Date, verifiedAt: Date?) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.verifiedAt = verifiedAt
    }
}

public struct VerificationRecord: Sendable, Equatable {
    public let userID: UserID
    public let codeDigest: String
    public let expiresAt: Date
    public let attempts: Int

    public init(userID: UserID, codeDigest: String, expiresAt: Date, attempts: Int) {
        self.userID = userID
        self.codeDigest = codeDigest
        self.expiresAt = expiresAt
        self.attempts = attempts
    }
}

/// One refresh-token generation of a session family. Rotating a refresh token marks its record
/// rotated and adds the next generation; presenting a rotated one again means it was stolen.
public struct SessionRecord: Sendable, Equatable {
    public let id: String
    public let familyID: String
    public let userID: UserID
    public let accessDigest: String
    public let accessExpiresAt: Date
    public let refreshDigest: String
    public let refreshExpiresAt: Date
    public let createdAt: Date
    public let rotatedAt: Date?
    public let revokedAt: Date?

    public init(
        id: String, familyID: String, userID: UserID, accessDigest: String, accessExpiresAt: Date,
        refreshDigest: String, refreshExpiresAt: Date, createdAt: Date, rotatedAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.id = id
        self.familyID = familyID
        self.userID = userID
        self.accessDigest = accessDigest
        self.accessExpiresAt = accessExpiresAt
        self.refreshDigest = refreshDigest
        self.refreshExpiresAt = refreshExpiresAt
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
        self.revokedAt = revokedAt
    }
}

/// Failed-login bookkeeping for one address (known or not: the same for both).
public struct ThrottleState: Sendable, Equatable {
    public var failures: Int
    public var windowStart: Date?
    public var lockedUntil: Date?
    public var lockouts: Int

    public static let fresh = ThrottleState(failures: 0, windowStart: nil, lockedUntil: nil, lockouts: 0)

    /// The end of the lockout in force at `now`, if any.
    public func lock(at now: Date) -> Date? {
        guard let lockedUntil, now < lockedUntil else { return nil }
        return lockedUntil
    }

    public init(failures: Int, windowStart: Date?, lockedUntil: Date?, lockouts: Int) {
        self.failures = failures
        self.windowStart = windowStart
        self.lockedUntil = lockedUntil
        self.lockouts = lockouts
    }
}

/// A throttle state as one transaction found it and left it.
public struct ThrottleUpdate: Sendable, Equatable {
    public var before: ThrottleState
    public var after: ThrottleState

    public init(before: ThrottleState, after: ThrottleState) {
        self.before = before
        self.after = after
    }
}

/// Something security-relevant that happened to an account.
public struct SecurityEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case login, logout
        case loginLockout = "login-lockout"
        case refreshTokenReuse = "refresh-token-reuse"
        case passwordUpgraded = "password-upgraded"
        case verified
        /// The password was changed (`moa auth password change`) or reset with a mailed code.
        case passwordChanged = "password-changed"
        case passwordReset = "password-reset"
        case pinSet = "pin-set"
        case pinRemoved = "pin-removed"
        case pinLockout = "pin-lockout"
        /// Someone signed up with the address of an existing account (its owner was mailed).
        case signUpRefused = "sign-up-refused"
    }

    public let userID: UserID?
    public let email: String
    public let kind: Kind
    public let at: Date

    public init(userID: UserID?, email: String, kind: Kind, at: Date) {
        self.userID = userID
        self.email = email
        self.kind = kind
        self.at = at
    }
}

/// Auth's persistence. Every method is one transaction.
public protocol AuthStore: Sendable {
    /// Creates an unverified user with its verification, or throws `.emailTaken`.
    func createUser(_ user: UserRecord, verification: VerificationRecord) async throws
    /// Removes a user that was never verified (undoing a sign-up whose mail could not be sent).
    func deleteUnverifiedUser(_ id: UserID) async throws
    /// The user with this address (compared without regard to case).
    func user(email: String) async throws -> UserRecord?
    func user(id: UserID) async throws -> UserRecord?
    func markVerified(_ id: UserID, at: Date) async throws
    func updatePasswordHash(_ id: UserID, to hash: String) async throws

    func verification(for id: UserID) async throws -> VerificationRecord?
    func saveVerification(_ verification: VerificationRecord) async throws
    /// Counts one more wrong attempt; returns the new count.
    func recordWrongCode(for id: UserID) async throws -> Int
    func deleteVerification(for id: UserID) async throws

    func insertSession(_ session: SessionRecord) async throws
    func session(accessDigest: String) async throws -> SessionRecord?
    func session(refreshDigest: String) async throws -> SessionRecord?
    /// Marks `id` rotated and inserts `next`, only if `id` is neither rotated nor revoked; returns whether it did.
    func rotate(_ id: String, to next: SessionRecord, at: Date) async throws -> Bool
    func revokeFamily(_ familyID: String, at: Date) async throws
    func revokeAllSessions(of user: UserID, at: Date) async throws

    func throttle(for email: String) async throws -> ThrottleState
    /// Reads the address's state, applies `change` and stores the result (the fresh state as no
    /// record), all in one transaction: processes sharing the store (several `moa-server`s on one
    /// database) each count their failures. `change` may run more than once (a retried
    /// transaction), so it must be pure. Returns the state before and after.
    func updateThrottle(for email: String, _ change: @Sendable (ThrottleState) -> ThrottleState) async throws -> ThrottleUpdate

    func record(_ event: SecurityEvent) async throws

    // Work that commits together with another feature's writes (an inbox notice, a deletion): the
    // transaction token goes to `alongside` or comes from the caller's `UnitOfWork`.

    /// Inserts a new session with its `event` and runs `alongside`, in one transaction; with
    /// `clearingWrongPins`, also sets the user's wrong-PIN count back to zero.
    func insertSession(
        _ session: SessionRecord, recording event: SecurityEvent, clearingWrongPins: Bool,
        alongside: @Sendable (any Transaction) throws -> Void) async throws
    /// Records `event` and runs `alongside` (e.g. publishing an inbox notice) in the same transaction.
    func record(_ event: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void) async throws
    /// In one transaction: replaces the password hash, revokes every session of the user, drops a
    /// pending code, inserts `newSession` (if any), records `event` and runs `alongside`.
    func replacePassword(
        of user: UserID, with hash: String, at: Date, newSession: SessionRecord?, event: SecurityEvent,
        alongside: @Sendable (any Transaction) throws -> Void) async throws
    /// Erases everything Auth keeps about the user — sessions, pending code, throttle, security
    /// events, the user row (deleted, so the address can sign up again) — in the caller's transaction.
    func eraseUser(_ id: UserID, email: String, in transaction: any Transaction) throws
}

public enum AuthStoreKey: ServiceKey { public typealias Service = any AuthStore }
public enum PasswordHasherKey: ServiceKey { public typealias Service = any PasswordHasher }
public enum SecretGeneratorKey: ServiceKey { public typealias Service = any SecretGenerator }
public enum MailSenderKey: ServiceKey { public typealias Service = any MailSender }
public enum SessionStoreKey: ServiceKey { public typealias Service = any SessionStore }

/// The session manager (log in, log out, current user) that Auth's commands and `SessionProviderKey` share.
public enum SessionManagerKey: ServiceKey { public typealias Service = SessionManager }
/// Sign-up and verification.
public enum RegistrationKey: ServiceKey { public typealias Service = any RegistrationUseCases }
