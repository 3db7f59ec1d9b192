import AuthInterface
import Foundation
import InboxInterface
import Registry
import SharedKit

/// `moa auth password reset`: mail a code to a verified address, then set a new password with it.
///
/// The code uses the sign-up verification machinery: 6 random digits, stored only as a digest in
/// the user's pending-code slot (for a verified user that slot only ever holds a reset code), valid
/// for `codeLifetime`, dead after `codeAttempts` wrong tries, replaced by a newer request. Wrong
/// codes also count toward the address's login throttle, so guessing across many requested codes
/// is slowed down like password guessing.
///
/// Nothing tells whether an address has an account: a request answers the same for every valid
/// address, and a code for an address without one is simply wrong. An address gets at most one
/// reset mail per `resetMailInterval` (a minute).
public struct PasswordReset: Sendable {
    private let repository: any AuthRepository
    private let hasher: any PasswordHasher
    private let secrets: any SecretGenerator
    private let mail: any MailSender
    private let clock: any WallClock
    private let policy: AuthPolicy
    private let inbox: (any InboxPublisher)?

    public init(
        repository: any AuthRepository, hasher: any PasswordHasher, secrets: any SecretGenerator, mail: any MailSender,
        clock: any WallClock, policy: AuthPolicy = AuthPolicy(), inbox: (any InboxPublisher)? = nil
    ) {
        self.repository = repository
        self.hasher = hasher
        self.secrets = secrets
        self.mail = mail
        self.clock = clock
        self.policy = policy
        self.inbox = inbox
    }

    /// Mails a reset code if `email` belongs to a verified account; returns the normalised address
    /// either way (the same answer for every address, so it cannot be used to find accounts).
    public func request(email raw: String) async throws -> String {
        let email = try EmailAddress(raw)
        // The same work up to the lookup for every address: a code, its digest, its expiry.
        let code = secrets.verificationCode()
        let pending = secrets.digest(code)
        let expiry = clock.now().addingTimeInterval(policy.codeLifetime)
        guard let user = try await repository.user(email: email.value), user.verifiedAt != nil else { return email.value }
        if let live = try await repository.verification(for: user.id), clock.now() < live.expiresAt,
            live.expiresAt.addingTimeInterval(policy.resetMailInterval) > expiry
        {
            return email.value // a code went out less than `resetMailInterval` ago and still works
        }
        try await repository.saveVerification(VerificationRecord(userID: user.id, codeDigest: pending, expiresAt: expiry, attempts: 0))
        do {
            _ = try await mail.send(Self.resetMail(to: user.email, code: code, minutes: Int(policy.codeLifetime / 60)))
        } catch {
            try? await repository.deleteVerification(for: user.id)
            throw error
        }
        return email.value
    }

    /// Sets a new password with a mailed code: the sign-up password policy applies; on success every
    /// session of the user is revoked (log in again), the event is recorded and `.passwordChanged`
    /// is published, in one transaction. A wrong, expired or used-up code — or an address without an
    /// account — is ``AccountSecurityError/resetCodeInvalid``; wrong codes count toward the address's
    /// throttle, and a locked address is ``AccountSecurityError/resetLocked(until:)`` (the owner of a
    /// known address finds a `login-lockout` notice in their inbox). A code that is not 6 digits is
    /// ``AuthError/malformedCode`` (bad data, 65), before anything is looked up or counted.
    public func complete(email raw: String, code: String, newPassword: String) async throws -> AuthenticatedUser {
        let email = try EmailAddress(raw)
        let code = try Registration.code(code)
        let normalized = try PasswordPolicy().check(newPassword, for: email)
        return try await AddressGate.shared.run(email.value) { try await complete(email, code: code, normalized: normalized) }
    }

    private func complete(_ email: EmailAddress, code: String, normalized: String) async throws -> AuthenticatedUser {
        let key = email.value
        let now = clock.now()
        if let until = try await repository.throttle(for: key).lock(at: now) { throw AccountSecurityError.resetLocked(until: until) }

        let typed = secrets.digest(code)
        let user = try await repository.user(email: email.value)
        var accepted = false
        if let user, user.verifiedAt != nil, let pending = try await repository.verification(for: user.id),
            pending.attempts < policy.codeAttempts, now < pending.expiresAt
        {
            accepted = Registration.constantTimeEquals(typed, pending.codeDigest)
            if !accepted { _ = try await repository.recordWrongCode(for: user.id) }
        }
        guard let user, accepted else {
            let update = try await repository.countFailure(for: key, policy: policy, at: now)
            if let until = update.before.lock(at: now) { throw AccountSecurityError.resetLocked(until: until) }
            if update.after.lockouts > update.before.lockouts {
                // The owner of a known address is told in their inbox; the answer here stays the same.
                try await repository.recordLockout(
                    of: email.value, user: user, until: update.after.lockedUntil, cause: .resetCodes, at: now, inbox: inbox)
            }
            throw AccountSecurityError.resetCodeInvalid
        }
        if let until = try await repository.clearThrottle(for: key, at: now) { throw AccountSecurityError.resetLocked(until: until) }
        try await repository.replacePassword(
            of: user.id, with: try hasher.hash(normalized), at: now, newSession: nil,
            event: SecurityEvent(userID: user.id, email: user.email, kind: .passwordReset, at: now),
            alongside: SecurityNotices.publishing(
                SecurityNotices.passwordChanged(user.id, email: user.email, at: now, byReset: true),
                through: inbox))
        return AuthenticatedUser(id: user.id, email: user.email)
    }

    static func resetMail(to email: String, code: String, minutes: Int) -> Mail {
        Mail(
            to: email, subject: "Your Moa password reset code: \(code)",
            body: """
                Someone asked to reset the password of your Moa account.

                Your reset code is \(code). It works for \(minutes) minutes:

                    moa auth password reset --email \(email) --code \(code)

                Every session of your account will be logged out. If you did not ask for this, ignore this
                message: your password stays as it is.
                """, purpose: .passwordReset)
    }
}

/// Password reset by mailed code.
public enum PasswordResetKey: ServiceKey { public typealias Service = any PasswordResetUseCases }
