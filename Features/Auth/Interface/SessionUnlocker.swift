import Registry
import SharedKit

// MARK: - Quick unlock with a PIN (the interactive mode)

/// Whether the interactive mode must ask for the PIN before it shows the home screen.
public enum UnlockState: Sendable, Equatable {
    /// Nothing to ask: nobody is logged in, the session (its refresh token) has expired, or the
    /// user has not set a PIN. The home shows what it shows today.
    case notNeeded
    /// The session is alive and its user has a PIN: ask for it (`triesLeft` before the session ends).
    case pinRequired(AuthenticatedUser, triesLeft: Int)
}

/// What one PIN entered at the unlock prompt did.
public enum UnlockAttempt: Sendable, Equatable {
    /// The PIN is right: continue as this user (the wrong-PIN count starts again from zero).
    case unlocked(AuthenticatedUser)
    /// The PIN is wrong; `triesLeft` more wrong ones end the session.
    case wrongPin(triesLeft: Int)
    /// That was the last wrong PIN in a row: the session is revoked (as by `moa auth logout`) and its
    /// file removed. The person must sign in with the password.
    case sessionEnded
    /// There is no session to unlock any more (it expired or was ended elsewhere).
    case notLoggedIn
}

/// Unlocks the session of the person at the terminal with their PIN, instead of the password.
/// Auth implements it; the App asks it before showing the interactive home.
public protocol SessionUnlocker: Sendable {
    /// Whether the current session waits for a PIN.
    func unlockState() async throws -> UnlockState
    /// Checks `pin` for the current session's user. Wrong PINs are counted in the database (so
    /// quitting does not reset them); the fifth wrong one in a row ends the session. Something that
    /// cannot be a PIN at all (not 6 digits) is refused with an error and not counted.
    func unlock(pin: String) async throws -> UnlockAttempt
}

public enum SessionUnlockerKey: ServiceKey {
    public typealias Service = any SessionUnlocker
}
