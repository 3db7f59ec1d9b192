import AuthInterface
import Foundation
import Persistence
import Registry
import SharedKit

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
