import Foundation

/// Auth's time limits and thresholds (the values of the Auth issue; tests may shorten none of them
/// except by moving the clock).
public struct AuthPolicy: Sendable {
    public var accessTokenLifetime: TimeInterval = 15 * 60
    public var refreshTokenLifetime: TimeInterval = 14 * 24 * 3600
    public var codeLifetime: TimeInterval = 10 * 60
    /// Wrong tries a code survives, from every client together: more than one client's
    /// ``codeLock`` allows, so no single guesser can use up the owner's code.
    public var codeAttempts = 10
    /// At most one mail (a code, or a notice that the address already has an account) per address
    /// in this time: a request within it sends nothing new and answers the same, so nobody can flood
    /// someone's mailbox.
    public var resetMailInterval: TimeInterval = 60
    /// Wrong passwords for one address from one client: five, then that client is locked out of
    /// that address for a minute, doubling with each lock up to a day. Only the guesser waits.
    public var guesserLock = ThrottleRule(.lock, freeFailures: 5, window: 15 * 60, firstWait: 60, longestWait: 24 * 3600)
    /// Wrong codes (verification or reset) for one address from one client: counted apart from
    /// passwords, so login failures never stand in the way of a reset. Five, then ten minutes — a
    /// code's whole life — doubling: one client never gets the ten tries that use up a code.
    public var codeLock = ThrottleRule(.lock, freeFailures: 5, window: 15 * 60, firstWait: 10 * 60, longestWait: 24 * 3600)
    /// Wrong codes for one address from everywhere: past twenty in a day, each delays the next code
    /// at the address by a minute, doubling up to an hour. A new code a minute and many clients
    /// would otherwise allow 14,400 guesses a day at a one-in-a-million code; this keeps it near
    /// fifty (the owner's login is never affected).
    public var addressCodeDelay = ThrottleRule(.delay, freeFailures: 20, window: 24 * 3600, firstWait: 60, longestWait: 3600)
    /// Failures of one client across every address (spraying): fifty in a window, then a lock for
    /// a minute, doubling up to an hour.
    public var clientLock = ThrottleRule(.lock, freeFailures: 50, window: 15 * 60, firstWait: 60, longestWait: 3600)
    /// Wrong passwords for one address from everywhere: past five in a window, each one delays the
    /// next attempt at the address — a second, doubling, at most eight. Guesses at one address from
    /// any number of clients stay bounded, and its owner still logs in within seconds.
    public var addressDelay = ThrottleRule(.delay, freeFailures: 5, window: 15 * 60, firstWait: 1, longestWait: 8)

    public init() {}
}
