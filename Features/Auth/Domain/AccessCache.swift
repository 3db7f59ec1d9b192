import AuthInterface
import Foundation
import Persistence
import Registry
import SharedKit

/// The access tokens a server found live lately, so that a request is let in without a database
/// read (``SessionTokens/liveUser(accessToken:)``).
///
/// **How a revoked token stops.** Every revocation made through this process — logging out, out
/// everywhere, a refresh (which retires the previous access token), a reused refresh token, a
/// password changed or reset, the user deleted — goes through ``ForgettingAuthStore``, which forgets
/// the sessions it touched once it wrote: the next request on this server reads the database again. A revocation made through **another** server sharing the database is seen here when the
/// entry is next read, at most ``lifetime`` after it was: that long, and no longer, a revoked token
/// may still be served by this one. An entry is never used past its token's own expiry.
///
/// Bounded: at most ``capacity`` entries; when full, the expired ones go, and if fewer than a
/// quarter had expired, all do (SharedKit's `ExpiringCache`).
public final class AccessCache: Sendable {
    /// How long an access token found live is believed without asking the database again.
    public static let lifetime: TimeInterval = 5
    public static let capacity = 10_000

    private let entries: ExpiringCache<String, Live>

    private struct Live: Sendable {
        let session: SessionRecord
        let user: AuthenticatedUser
    }

    public var lifetime: TimeInterval { entries.lifetime }

    public init(lifetime: TimeInterval = AccessCache.lifetime, capacity: Int = AccessCache.capacity) {
        entries = ExpiringCache(lifetime: lifetime, capacity: capacity)
    }

    /// The session and user remembered for the token with `digest`, if checked less than
    /// ``lifetime`` before `now` and not expired by `now`.
    func live(_ digest: String, at now: Date) -> (SessionRecord, AuthenticatedUser)? {
        entries.value(for: digest, at: now) { now < $0.session.accessExpiresAt }.map { ($0.session, $0.user) }
    }

    /// Where forgetting stands: pass it back to ``remember(_:session:user:checkedAt:since:)``.
    var generation: Int { entries.generation }

    /// Remembers a token found live at `checkedAt` by a read that began at `generation`, unless
    /// something was forgotten since (that read may predate the revocation).
    func remember(_ digest: String, session: SessionRecord, user: AuthenticatedUser, checkedAt: Date, since generation: Int) {
        entries.remember(Live(session: session, user: user), for: digest, readAt: checkedAt, since: generation)
    }

    /// Forgets every session `matches` picks.
    func forget(where matches: (SessionRecord) -> Bool) {
        entries.forget { matches($1.session) }
    }

    /// How many tokens are remembered now.
    public var count: Int { entries.count }
}

/// `AccessCacheKey`: the server's one ``AccessCache``.
public enum AccessCacheKey: ServiceKey { public typealias Service = AccessCache }

/// Auth's store as a server's use cases write through it: each revocation forgets, in `cache`, the
/// sessions it ends once it has written them (a request that read them before does not remember
/// what it read, ``AccessCache``); the erasure of a user, which commits with the caller's
/// transaction, is forgotten again by the deletion once it committed. Everything else goes to
/// `base` unchanged.
public struct ForgettingAuthStore: AuthStore {
    let base: any AuthStore
    let cache: AccessCache

    public init(_ base: any AuthStore, cache: AccessCache) {
        self.base = base
        self.cache = cache
    }

    public func rotate(_ id: String, to next: SessionRecord, at: Date) async throws -> Bool {
        defer { cache.forget { $0.id == id } }
        return try await base.rotate(id, to: next, at: at)
    }

    public func revokeFamily(_ familyID: String, at: Date) async throws {
        defer { cache.forget { $0.familyID == familyID } }
        try await base.revokeFamily(familyID, at: at)
    }

    public func revokeAllSessions(of user: UserID, at: Date) async throws {
        defer { cache.forget { $0.userID == user } }
        try await base.revokeAllSessions(of: user, at: at)
    }

    public func replacePassword(
        of user: UserID, with hash: String, at: Date, newSession: SessionRecord?, event: SecurityEvent,
        alongside: @Sendable (any Transaction) throws -> Void
    ) async throws {
        defer { cache.forget { $0.userID == user } }
        try await base.replacePassword(of: user, with: hash, at: at, newSession: newSession, event: event, alongside: alongside)
    }

    /// Forgets now, and ``AccountDeletion`` (``forgetSessions(of:)``) again once the deletion committed.
    public func eraseUser(_ id: UserID, email: String, in transaction: any Transaction) throws {
        forgetSessions(of: id)
        try base.eraseUser(id, email: email, in: transaction)
    }

    /// Forgets every remembered session of `user`.
    public func forgetSessions(of user: UserID) {
        cache.forget { $0.userID == user }
    }

    // Everything else, as the base store does it.

    public func createUser(_ user: UserRecord, verification: VerificationRecord) async throws {
        try await base.createUser(user, verification: verification)
    }
    public func deleteUnverifiedUser(_ id: UserID) async throws { try await base.deleteUnverifiedUser(id) }
    public func user(email: String) async throws -> UserRecord? { try await base.user(email: email) }
    public func user(id: UserID) async throws -> UserRecord? { try await base.user(id: id) }
    public func markVerified(_ id: UserID, at: Date) async throws { try await base.markVerified(id, at: at) }
    public func updatePasswordHash(_ id: UserID, to hash: String) async throws { try await base.updatePasswordHash(id, to: hash) }
    public func verification(for id: UserID) async throws -> VerificationRecord? { try await base.verification(for: id) }
    public func saveVerification(_ verification: VerificationRecord) async throws { try await base.saveVerification(verification) }
    public func recordWrongCode(for id: UserID) async throws -> Int { try await base.recordWrongCode(for: id) }
    public func deleteVerification(for id: UserID) async throws { try await base.deleteVerification(for: id) }
    public func insertSession(_ session: SessionRecord) async throws { try await base.insertSession(session) }
    public func session(accessDigest: String) async throws -> SessionRecord? { try await base.session(accessDigest: accessDigest) }
    public func session(refreshDigest: String) async throws -> SessionRecord? { try await base.session(refreshDigest: refreshDigest) }
    public func throttle(for email: String) async throws -> ThrottleState { try await base.throttle(for: email) }
    public func updateThrottle(for email: String, _ change: @Sendable (ThrottleState) -> ThrottleState) async throws -> ThrottleUpdate {
        try await base.updateThrottle(for: email, change)
    }
    public func record(_ event: SecurityEvent) async throws { try await base.record(event) }
    public func insertSession(
        _ session: SessionRecord, recording event: SecurityEvent, clearingWrongPins: Bool,
        alongside: @Sendable (any Transaction) throws -> Void
    ) async throws {
        try await base.insertSession(session, recording: event, clearingWrongPins: clearingWrongPins, alongside: alongside)
    }
    public func record(_ event: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void) async throws {
        try await base.record(event, alongside: alongside)
    }
}
