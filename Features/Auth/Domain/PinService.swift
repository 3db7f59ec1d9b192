import AuthInterface
import Foundation
import Registry
import SharedKit

// Quick unlock with a PIN: `moa auth pin set|remove|status`, and the interactive mode's unlock prompt.

/// A user's PIN as stored: its hash (scrypt, own salt, like a password) and the wrong PINs in a row.
public struct PinRecord: Sendable, Equatable {
    public let userID: UserID
    public let pinHash: String
    public let failures: Int
    public let updatedAt: Date

    public init(userID: UserID, pinHash: String, failures: Int, updatedAt: Date) {
        self.userID = userID
        self.pinHash = pinHash
        self.failures = failures
        self.updatedAt = updatedAt
    }
}

/// Where PINs are kept (AuthData: the `auth_pins` table). Every method is one transaction.
public protocol PinRepository: Sendable {
    func pin(for user: UserID) async throws -> PinRecord?
    /// Stores (or replaces) the user's PIN hash, with no wrong PINs counted.
    func savePin(hash: String, for user: UserID, at date: Date) async throws
    /// Removes the user's PIN; returns whether there was one.
    func deletePin(for user: UserID) async throws -> Bool
    /// Counts one more wrong PIN, atomically; returns the new count (0 when the user has no PIN).
    func recordWrongPin(for user: UserID) async throws -> Int
    /// Forgets the wrong PINs counted so far.
    func resetWrongPins(for user: UserID) async throws
}

public enum PinRepositoryKey: ServiceKey { public typealias Service = any PinRepository }
/// The PIN use cases (Auth's commands, and `SessionUnlockerKey` for the App).
public enum PinServiceKey: ServiceKey { public typealias Service = PinService }

/// Whether the logged-in user has a PIN.
public struct PinStatus: Sendable, Equatable {
    public let user: AuthenticatedUser
    public let isSet: Bool
    /// Wrong PINs in a row so far (0 without a PIN).
    public let wrongAttempts: Int
    /// How many more wrong PINs the session survives (`nil` without a PIN).
    public let triesLeft: Int?

    public init(user: AuthenticatedUser, isSet: Bool, wrongAttempts: Int, triesLeft: Int?) {
        self.user = user
        self.isSet = isSet
        self.wrongAttempts = wrongAttempts
        self.triesLeft = triesLeft
    }
}

/// Sets and removes the logged-in user's PIN, and unlocks the interactive mode with it.
///
/// The wrong-PIN count belongs to the user and lives in the database: quitting at the prompt and
/// starting again does not reset it. A right PIN resets it; the fifth wrong one in a row ends the
/// session (revoked like `moa auth logout`, session file removed), records a `pin-lockout` security
/// event and resets the count, so the next session — started with the password — gets five tries again.
public struct PinService: SessionUnlocker {
    private let pins: any PinRepository
    private let hasher: any PasswordHasher
    private let sessions: SessionManager
    private let events: any AuthRepository
    private let clock: any WallClock
    public let policy: PinPolicy

    public init(
        pins: any PinRepository, hasher: any PasswordHasher, sessions: SessionManager, events: any AuthRepository,
        clock: any WallClock, policy: PinPolicy = PinPolicy()
    ) {
        self.pins = pins
        self.hasher = hasher
        self.sessions = sessions
        self.events = events
        self.clock = clock
        self.policy = policy
    }

    // MARK: Setting and removing

    /// Checks the rules and that both entries match, then stores the PIN hashed (replacing any
    /// previous one). Needs a logged-in user.
    public func setPin(_ pin: String, repeated: String) async throws -> AuthenticatedUser {
        let user = try await sessions.requireUser()
        let checked = try policy.check(pin)
        guard repeated.trimmingCharacters(in: .whitespacesAndNewlines) == checked else { throw PinError.mismatch }
        let now = clock.now()
        try await pins.savePin(hash: try hasher.hash(checked), for: user.id, at: now)
        try await events.record(SecurityEvent(userID: user.id, email: user.email, kind: .pinSet, at: now))
        return user
    }

    /// Removes the logged-in user's PIN; `removed` is false when there was none.
    public func removePin() async throws -> (user: AuthenticatedUser, removed: Bool) {
        let user = try await sessions.requireUser()
        let removed = try await pins.deletePin(for: user.id)
        if removed {
            try await events.record(SecurityEvent(userID: user.id, email: user.email, kind: .pinRemoved, at: clock.now()))
        }
        return (user, removed)
    }

    public func status() async throws -> PinStatus {
        let user = try await sessions.requireUser()
        guard let record = try await pins.pin(for: user.id) else {
            return PinStatus(user: user, isSet: false, wrongAttempts: 0, triesLeft: nil)
        }
        return PinStatus(user: user, isSet: true, wrongAttempts: record.failures, triesLeft: triesLeft(after: record.failures))
    }

    // MARK: Unlocking (SessionUnlocker)

    public func unlockState() async throws -> UnlockState {
        // A session that cannot be read counts as none: the home then shows the signed-out entries.
        guard let user = try? await sessions.currentUser() else { return .notNeeded }
        guard let record = try await pins.pin(for: user.id) else { return .notNeeded }
        if record.failures >= policy.attemptsBeforeSessionEnds {
            // Counted, but the session outlived it (the process stopped in between): end it now.
            try await endSession(of: user)
            return .notNeeded
        }
        return .pinRequired(user, triesLeft: triesLeft(after: record.failures))
    }

    public func unlock(pin raw: String) async throws -> UnlockAttempt {
        let pin = try policy.wellFormed(raw)
        guard let user = try await sessions.currentUser() else { return .notLoggedIn }
        guard let record = try await pins.pin(for: user.id) else { return .unlocked(user) }
        if hasher.verify(pin, against: record.pinHash) {
            if record.failures > 0 { try await pins.resetWrongPins(for: user.id) }
            if hasher.needsRehash(record.pinHash) {
                try await pins.savePin(hash: try hasher.hash(pin), for: user.id, at: clock.now())
            }
            return .unlocked(user)
        }
        let failures = try await pins.recordWrongPin(for: user.id)
        guard failures >= policy.attemptsBeforeSessionEnds else { return .wrongPin(triesLeft: triesLeft(after: failures)) }
        try await endSession(of: user)
        return .sessionEnded
    }

    // MARK: Helpers

    private func triesLeft(after failures: Int) -> Int {
        max(policy.attemptsBeforeSessionEnds - failures, 0)
    }

    /// The lockout: the event first (so it is recorded even if logging out fails), then the logout, and
    /// only once the session is gone the count starts again (for the next session, begun with the password).
    private func endSession(of user: AuthenticatedUser) async throws {
        try await events.record(SecurityEvent(userID: user.id, email: user.email, kind: .pinLockout, at: clock.now()))
        _ = try await sessions.logOut(everywhere: false)
        try await pins.resetWrongPins(for: user.id)
    }
}
