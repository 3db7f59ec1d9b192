import AuthInterface
import Foundation
import InboxInterface
import SharedKit

/// Entering a mailed code with a new password — a sign-up's code or a reset's: either proves the
/// mailbox, so whoever holds it chooses the password. One rule for ``Registration/verify(email:code:password:)``
/// and ``PasswordReset/complete(email:code:newPassword:)``.
struct CodeRedemption: Sendable {
    let repository: any AuthStore
    let hasher: any PasswordHasher
    let secrets: any SecretGenerator
    let clock: any WallClock
    let policy: AuthPolicy
    let inbox: (any InboxPublisher)?
    let origin: any ClientOrigin

    /// Checks `code` (6 digits) for `email` and sets `password` (already checked by the policy):
    /// the address becomes verified, every session of the user ends, and the event is recorded — a
    /// verification for an address that was waiting, a reset (with its notice) for one that was
    /// not — in one transaction. A wrong, expired or used-up code, or an address without a code, is
    /// `rejected`, after the same work; wrong codes count against this client (`locked` once it is
    /// locked out of the address), never against the owner.
    func redeem(
        _ email: EmailAddress, code: String, password: String, locked: @escaping @Sendable (Date) -> any Error, rejected: any Error
    ) async throws -> UserRecord {
        let now = clock.now()
        let limits = GuessLimits(
            .code, repository: repository, policy: policy, inbox: inbox, address: email.value, origin: origin, locked: locked)
        try await limits.admit(at: now)
        let typed = secrets.digest(code)
        let user = try await repository.user(email: email.value)
        var accepted = false
        if let user, let pending = try await repository.verification(for: user.id), pending.attempts < policy.codeAttempts,
            now < pending.expiresAt
        {
            accepted = Registration.constantTimeEquals(typed, pending.codeDigest)
            if !accepted {
                do {
                    _ = try await repository.recordWrongCode(for: user.id)
                } catch AuthError.noPendingVerification {
                    // Entered (or replaced) at the same moment: this code is wrong all the same.
                }
            }
        }
        guard let user, accepted else {
            try await limits.fail(user: user, at: now)
            throw rejected
        }
        try await limits.succeed(at: now)
        let hash = try hasher.hash(password)
        if user.verifiedAt == nil {
            try await repository.replacePassword(
                of: user.id, with: hash, at: now, newSession: nil,
                event: SecurityEvent(userID: user.id, email: user.email, kind: .verified, at: now), alongside: { _ in })
        } else {
            try await repository.replacePassword(
                of: user.id, with: hash, at: now, newSession: nil,
                event: SecurityEvent(userID: user.id, email: user.email, kind: .passwordReset, at: now),
                alongside: SecurityNotices.publishing(
                    SecurityNotices.passwordChanged(user.id, email: user.email, at: now, byReset: true), through: inbox))
        }
        return user
    }
}
