import AuthInterface
import Foundation
import SharedKit

// What AuthStore keeps: users, codes, sessions, throttles and security events.

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
