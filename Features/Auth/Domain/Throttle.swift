import Foundation
import InboxInterface
import Registry

/// Who is asking, as far as guessing is concerned: the client address of a `moa-server` request
/// (its peer, or the address a configured proxy forwarded), or this terminal.
///
/// Guesses are limited per client and per (address, client), so the guesser is stopped while the
/// owner, from anywhere else, is not; guesses at one address from everywhere together are only
/// spaced out by a short delay (``AuthPolicy/addressDelay``), never locked.
public protocol ClientOrigin: Sendable {
    /// The client of the work being done (an IP address, or ``ThisTerminal/name``).
    func client() -> String
    /// Told of a security event of that work as it happens — a client locked out of an address, a
    /// refresh token used twice, a sign-up with an address that has an account — for an operator's
    /// log (`moa-server` writes a warning line with the request's id and client). The event is
    /// recorded in the repository either way; by default nobody else is told.
    func witness(_ event: SecurityEvent)
}

extension ClientOrigin {
    public func witness(_ event: SecurityEvent) {}
}

/// The client of `moa` on its embedded bank: the one person at this terminal.
public struct ThisTerminal: ClientOrigin {
    public static let name = "terminal"
    public init() {}
    public func client() -> String { Self.name }
}

public enum ClientOriginKey: ServiceKey { public typealias Service = any ClientOrigin }

/// How failures under one key slow down what follows: after `freeFailures` failures within
/// `window`, the key waits — `firstWait`, doubling each time, at most `longestWait`.
public struct ThrottleRule: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        /// A lock for a guesser: after the free failures the key is locked, the count starts again,
        /// and each further lock lasts twice as long (until a success clears the key).
        case lock
        /// A delay, never a lock: every failure past the free ones in the window makes the next
        /// attempt wait, twice as long as the last, at most `longestWait`.
        case delay
    }

    public var mode: Mode
    public var freeFailures: Int
    public var window: TimeInterval
    public var firstWait: TimeInterval
    public var longestWait: TimeInterval

    public init(_ mode: Mode, freeFailures: Int, window: TimeInterval, firstWait: TimeInterval, longestWait: TimeInterval) {
        self.mode = mode
        self.freeFailures = freeFailures
        self.window = window
        self.firstWait = firstWait
        self.longestWait = longestWait
    }

    /// The state after one more failure at `now`.
    public func failing(_ state: ThrottleState, at now: Date) -> ThrottleState {
        var state = state
        if let start = state.windowStart, now.timeIntervalSince(start) < window {
            state.failures += 1
        } else {
            state.failures = 1
            state.windowStart = now
        }
        switch mode {
        case .lock:
            guard state.failures >= freeFailures else { return state }
            state.lockouts += 1
            state.lockedUntil = now.addingTimeInterval(wait(doublings: state.lockouts - 1))
            state.failures = 0
            state.windowStart = nil
        case .delay:
            guard state.failures > freeFailures else { return state }
            state.lockouts += 1
            state.lockedUntil = now.addingTimeInterval(wait(doublings: state.failures - freeFailures - 1))
        }
        return state
    }

    private func wait(doublings: Int) -> TimeInterval {
        min(firstWait * pow(2, Double(min(max(doublings, 0), 30))), longestWait)
    }
}

/// The keys failures are counted under, in the store's throttle table.
public enum ThrottleKey {
    /// Every failure of one client, whatever the address (a client spraying many addresses).
    public static func client(_ client: String) -> String { "client:" + client }
    /// Wrong passwords for one address from one client (the guesser's own lock).
    public static func guesser(_ address: String, client: String) -> String { "guess:" + address + " " + client }
    /// Wrong codes for one address from one client (never counted with passwords: a reset proves
    /// the mailbox, and login failures must never stand in its way).
    public static func codes(_ address: String, client: String) -> String { "codes:" + address + " " + client }
    /// Wrong passwords for one address from everywhere (a short delay, never a lock).
    public static func address(_ address: String) -> String { "address:" + address }
    /// Wrong codes for one address from everywhere (a delay, never a lock).
    public static func addressCodes(_ address: String) -> String { "address-codes:" + address }
    /// When the owner of an address was last told that someone tried to sign up with it.
    public static func signUpNotice(_ address: String) -> String { "notice:" + address }

    /// Every key that names `address` (erased with its user) is one of these or starts with one of `prefixes`.
    public static func keys(of address: String) -> (exact: [String], prefixes: [String]) {
        (
            [Self.address(address), addressCodes(address), signUpNotice(address), address],
            ["guess:" + address + " ", "codes:" + address + " "]
        )
    }
}

extension AuthStore {
    /// Counts one more failure under `key` by `rule`, in one transaction. A key that a concurrent
    /// attempt (in this process or another sharing the store) locked meanwhile is left as it is,
    /// and the returned `before` says until when: nothing more is counted.
    func countFailure(under key: String, _ rule: ThrottleRule, at now: Date) async throws -> ThrottleUpdate {
        try await updateThrottle(for: key) { state in state.lock(at: now) == nil ? rule.failing(state, at: now) : state }
    }

    /// After a right password or code: clears `key` in one transaction — unless a concurrent attempt
    /// locked it meanwhile; then the lock stays, and its end is returned.
    func clearThrottle(under key: String, at now: Date) async throws -> Date? {
        try await updateThrottle(for: key) { state in state.lock(at: now) == nil ? .fresh : state }.before.lock(at: now)
    }

    /// The latest end of a lock in force at `now` under any of `keys`.
    func lock(under keys: [String], at now: Date) async throws -> Date? {
        var latest: Date?
        for key in keys {
            if let until = try await throttle(for: key).lock(at: now), until > (latest ?? .distantPast) { latest = until }
        }
        return latest
    }
}

/// The limits on one attempt to prove who one is — with a password or a mailed code — for one
/// address from one client: the client's own locks (per address, and across addresses), and for
/// passwords the address's delay. Checked before any secret is, counted after a wrong one.
struct GuessLimits: Sendable {
    enum Secret: Sendable {
        case password
        case code
    }

    let repository: any AuthStore
    let policy: AuthPolicy
    let inbox: (any InboxPublisher)?
    let address: String
    let origin: any ClientOrigin
    let client: String
    let secret: Secret
    /// The error of this client's own lock.
    let locked: @Sendable (Date) -> any Error

    init(
        _ secret: Secret, repository: any AuthStore, policy: AuthPolicy, inbox: (any InboxPublisher)?, address: String,
        origin: any ClientOrigin, locked: @escaping @Sendable (Date) -> any Error
    ) {
        self.secret = secret
        self.locked = locked
        self.repository = repository
        self.policy = policy
        self.inbox = inbox
        self.address = address
        self.origin = origin
        self.client = origin.client()
    }

    private var ownKey: String {
        switch secret {
        case .password: ThrottleKey.guesser(address, client: client)
        case .code: ThrottleKey.codes(address, client: client)
        }
    }

    private var ownRule: ThrottleRule {
        switch secret {
        case .password: policy.guesserLock
        case .code: policy.codeLock
        }
    }

    /// Refuses an attempt this client may not make yet — its own lock (`locked`), or for a password
    /// the address's delay (``AuthError/loginDelayed(until:)``) — before any secret is checked.
    ///
    /// A client that already failed at this address and tries again within the address's delay has
    /// that attempt counted as a failure too: polling for the moment the delay ends costs the
    /// guesser its own lock, while a client that never failed here (the owner) is only asked to wait.
    func admit(at now: Date) async throws {
        if let until = try await repository.lock(under: [ThrottleKey.client(client), ownKey], at: now) { throw locked(until) }
        if let until = try await repository.throttle(for: addressKey).lock(at: now) {
            let own = try await repository.throttle(for: ownKey)
            if own.failures > 0 || own.lockouts > 0 {
                let update = try await repository.countFailure(under: ownKey, ownRule, at: now)
                if let ownLock = update.after.lock(at: now) { throw locked(ownLock) }
            }
            throw secret == .password ? AuthError.loginDelayed(until: until) : locked(until)
        }
    }

    private var addressKey: String {
        switch secret {
        case .password: ThrottleKey.address(address)
        case .code: ThrottleKey.addressCodes(address)
        }
    }

    /// Counts a wrong secret: for the client, for this client at this address (whose lock, when it
    /// starts, is recorded and told to the owner), and for a password the address's delay. When
    /// another process locked this client out of the address meanwhile, nothing more is counted and
    /// the answer is that lock.
    func fail(user: UserRecord?, at now: Date) async throws {
        let update = try await repository.countFailure(under: ownKey, ownRule, at: now)
        if let until = update.before.lock(at: now) { throw locked(until) }
        _ = try await repository.countFailure(under: ThrottleKey.client(client), policy.clientLock, at: now)
        _ = try await repository.countFailure(
            under: addressKey, secret == .password ? policy.addressDelay : policy.addressCodeDelay, at: now)
        if update.after.lockouts > update.before.lockouts {
            origin.witness(SecurityEvent(userID: user?.id, email: address, kind: .loginLockout, at: now))
            try await repository.recordLockout(
                of: address, by: client, user: user, until: update.after.lockedUntil, cause: secret == .password ? .passwords : .codes,
                at: now, inbox: inbox)
        }
    }

    /// After the right secret: this client's count at this address starts again — unless another
    /// process locked this client out of it meanwhile: then the lock is the answer.
    func succeed(at now: Date) async throws {
        if let until = try await repository.clearThrottle(under: ownKey, at: now) { throw locked(until) }
    }
}
