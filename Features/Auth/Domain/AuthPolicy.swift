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
