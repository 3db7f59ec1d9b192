import Foundation

/// Auth's time limits and thresholds (the values of the Auth issue; tests may shorten none of them
/// except by moving the clock).
public struct AuthPolicy: Sendable {
    public var accessTokenLifetime: TimeInterval = 15 * 60
    public var refreshTokenLifetime: TimeInterval = 14 * 24 * 3600
    public var codeLifetime: TimeInterval = 10 * 60
    public var codeAttempts = 5
    /// At most one password-reset mail per address in this time (a request within it sends nothing
    /// new and answers the same), so nobody can flood someone's mailbox with codes.
    public var resetMailInterval: TimeInterval = 60
    public var failedLoginsBeforeLockout = 5
    public var failureWindow: TimeInterval = 15 * 60
    /// The first lockout; each further one doubles, up to `longestLockout`.
    public var firstLockout: TimeInterval = 60
    public var longestLockout: TimeInterval = 24 * 3600

    public init() {}

    /// The state after one more failed login at `now`: counted in its window, locked on the fifth.
    func failing(_ state: ThrottleState, at now: Date) -> ThrottleState {
        var state = state
        if let start = state.windowStart, now.timeIntervalSince(start) < failureWindow {
            state.failures += 1
        } else {
            state.failures = 1
            state.windowStart = now
        }
        if state.failures >= failedLoginsBeforeLockout {
            state.lockouts += 1
            let exponent = Double(min(state.lockouts - 1, 30))
            state.lockedUntil = now.addingTimeInterval(min(firstLockout * pow(2, exponent), longestLockout))
            state.failures = 0
            state.windowStart = nil
        }
        return state
    }
}

extension AuthRepository {
    /// Counts one more failure for the address `key` at `now`, in one transaction. An address that
    /// a concurrent attempt (in this process or another sharing the store) locked meanwhile is left
    /// as it is, and the returned `before` says until when it is locked: nothing more is counted.
    func countFailure(for key: String, policy: AuthPolicy, at now: Date) async throws -> ThrottleUpdate {
        try await updateThrottle(for: key) { state in state.lock(at: now) == nil ? policy.failing(state, at: now) : state }
    }

    /// After a right password or code: clears the address's count in one transaction — unless a
    /// concurrent attempt locked it meanwhile; then the lock stays, and its end is returned.
    func clearThrottle(for key: String, at now: Date) async throws -> Date? {
        try await updateThrottle(for: key) { state in state.lock(at: now) == nil ? .fresh : state }.before.lock(at: now)
    }
}
