import AuthInterface
import Foundation
import InboxInterface
import Persistence
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
public protocol PinStore: Sendable {
    func pin(for user: UserID) async throws -> PinRecord?
    /// Stores (or replaces) the user's PIN hash, with no wrong PINs counted.
    func savePin(hash: String, for user: UserID, at date: Date) async throws
    /// Removes the user's PIN; if there was one, records `event` and runs `alongside` (e.g. publishing
    /// an inbox notice) in the same transaction. Returns whether there was one.
    func deletePin(for user: UserID, recording event: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void)
        async throws -> Bool
    /// Counts one more wrong PIN, atomically, and returns the new count (0 when the user has no PIN).
    /// The wrong PIN that brings the count to `limit` also records `lockout` and runs `alongside`, in
    /// the same transaction: the lockout is recorded exactly once, exactly when it happens.
    func recordWrongPin(
        for user: UserID, limit: Int, lockout: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void
    ) async throws -> Int
    /// Forgets the wrong PINs counted so far.
    func resetWrongPins(for user: UserID) async throws
}

/// What proves, before the PIN is removed, that the person at the terminal is its owner.
public enum PinProof: Sendable, Equatable, CustomStringConvertible {
    /// The current PIN: a wrong one counts like one at the unlock prompt.
    case pin(String)
    /// The password: a wrong one counts as a failed login.
    case password(String)

    /// Which proof, never the secret.
    public var description: String {
        switch self {
        case .pin: "PIN"
        case .password: "password"
        }
    }
}

public enum PinStoreKey: ServiceKey { public typealias Service = any PinStore }
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
/// starting again does not reset it. A right PIN resets it; the fifth wrong one in a row — at the
/// unlock prompt or to confirm `moa auth pin remove` — records a `pin-lockout` security event and
/// publishes its inbox notice (with the count, in one transaction), then ends the session (revoked
/// like `moa auth logout`, session file removed) and resets the count, so the next session — started
/// with the password — gets five tries again. Removing the PIN needs the PIN or the password, and
/// is recorded and published too.
public struct PinService: SessionUnlocker {
    private let pins: any PinStore
    private let hasher: any PasswordHasher
    private let sessions: SessionManager
    private let events: any AuthStore
    private let clock: any WallClock
    private let inbox: (any InboxPublisher)?
    public let policy: PinPolicy

    /// - Parameter inbox: where the PIN lockout and PIN removal notices go, in the event's transaction.
    ///   The app always gives one (``provider``); `nil` only for tests of other concerns.
    public init(
        pins: any PinStore, hasher: any PasswordHasher, sessions: SessionManager, events: any AuthStore,
        clock: any WallClock, policy: PinPolicy = PinPolicy(), inbox: (any InboxPublisher)? = nil
    ) {
        self.pins = pins
        self.hasher = hasher
        self.sessions = sessions
        self.events = events
        self.clock = clock
        self.policy = policy
        self.inbox = inbox
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

    /// Removes the logged-in user's PIN once `proof` shows it is theirs; `removed` is false when there
    /// was none (then nothing is checked, and `proof` may be `nil`).
    ///
    /// A wrong PIN is ``PinError/wrongPin(triesLeft:)`` and counts like one at the unlock prompt: the
    /// fifth in a row ends the session (``PinError/tooManyWrongPins``). A wrong password is
    /// ``AccountSecurityError/wrongCurrentPassword`` and counts as a failed login. Without a proof
    /// while there is a PIN: ``PinError/confirmationNeeded``. The removal, its `pin-removed` event and
    /// its inbox notice are one transaction.
    public func removePin(_ proof: PinProof?) async throws -> (user: AuthenticatedUser, removed: Bool) {
        let user = try await sessions.requireUser()
        guard let record = try await pins.pin(for: user.id) else { return (user, false) }
        guard let proof else { throw PinError.confirmationNeeded }
        switch proof {
        case .pin(let raw):
            let pin = try policy.wellFormed(raw)
            switch try await check(pin, against: record, of: user) {
            case .right: break
            case .wrong(let triesLeft): throw PinError.wrongPin(triesLeft: triesLeft)
            case .sessionEnded: throw PinError.tooManyWrongPins
            }
        case .password(let password):
            _ = try await sessions.confirmPassword(password)
        }
        let now = clock.now()
        let removed = try await pins.deletePin(
            for: user.id, recording: SecurityEvent(userID: user.id, email: user.email, kind: .pinRemoved, at: now),
            alongside: SecurityNotices.publishing(
                SecurityNotices.pinRemoved(user.id, email: user.email, confirmedWith: proof, at: now), through: inbox))
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
            // Counted (and recorded), but the session outlived it (the process stopped in between): end it now.
            try await endSession(of: user)
            return .notNeeded
        }
        return .pinRequired(user, triesLeft: triesLeft(after: record.failures))
    }

    public func unlock(pin raw: String) async throws -> UnlockAttempt {
        let pin = try policy.wellFormed(raw)
        guard let user = try await sessions.currentUser() else { return .notLoggedIn }
        guard let record = try await pins.pin(for: user.id) else { return .unlocked(user) }
        switch try await check(pin, against: record, of: user) {
        case .right:
            if record.failures > 0 { try await pins.resetWrongPins(for: user.id) }
            if hasher.needsRehash(record.pinHash) {
                try await pins.savePin(hash: try hasher.hash(pin), for: user.id, at: clock.now())
            }
            return .unlocked(user)
        case .wrong(let triesLeft):
            return .wrongPin(triesLeft: triesLeft)
        case .sessionEnded:
            return .sessionEnded
        }
    }

    // MARK: Helpers

    /// What checking one PIN did.
    private enum Check {
        case right
        case wrong(triesLeft: Int)
        /// That wrong PIN was the last one allowed (or the count had already run out): the session ended.
        case sessionEnded
    }

    /// Checks `pin` (well-formed) against the user's: a wrong one is counted, and the one that reaches
    /// the limit records the lockout with its notice (one transaction with the count), then ends the session.
    private func check(_ pin: String, against record: PinRecord, of user: AuthenticatedUser) async throws -> Check {
        let limit = policy.attemptsBeforeSessionEnds
        if record.failures >= limit {
            try await endSession(of: user)
            return .sessionEnded
        }
        if hasher.verify(pin, against: record.pinHash) { return .right }
        let now = clock.now()
        let failures = try await pins.recordWrongPin(
            for: user.id, limit: limit, lockout: SecurityEvent(userID: user.id, email: user.email, kind: .pinLockout, at: now),
            alongside: SecurityNotices.publishing(
                SecurityNotices.pinLockout(user.id, email: user.email, attempts: limit, at: now), through: inbox))
        guard failures >= limit else { return .wrong(triesLeft: triesLeft(after: failures)) }
        try await endSession(of: user)
        return .sessionEnded
    }

    private func triesLeft(after failures: Int) -> Int {
        max(policy.attemptsBeforeSessionEnds - failures, 0)
    }

    /// After a lockout (already recorded with the count): the logout, and only once the session is gone
    /// the count starts again (for the next session, begun with the password).
    private func endSession(of user: AuthenticatedUser) async throws {
        _ = try await sessions.logOut(everywhere: false)
        try await pins.resetWrongPins(for: user.id)
    }
}
