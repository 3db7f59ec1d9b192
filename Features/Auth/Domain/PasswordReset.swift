import AuthInterface
import Foundation
import InboxInterface
import Registry
import SharedKit

/// `moa auth password reset`: mail a code to an address, then set a new password with it.
///
/// The code uses the sign-up verification machinery: 6 random digits, stored only as a digest in
/// the user's pending-code slot (for a verified user that slot only ever holds a reset code), valid
/// for `codeLifetime`, dead after `codeAttempts` wrong tries, replaced by a newer request. Wrong
/// codes lock out the client that enters them (``AuthPolicy/codeLock``), counted apart from
/// passwords: login failures never stand in the way of a reset, which proves the mailbox. An
/// address still waiting for its sign-up code gets a code too: entering it sets the password and
/// verifies the address, whoever signed up with it.
///
/// Nothing tells whether an address has an account: a request answers the same for every valid
/// address, and a code for an address without one is simply wrong. An address gets at most one
/// reset mail per `resetMailInterval` (a minute).
public struct PasswordReset: Sendable {
    private let repository: any AuthStore
    private let hasher: any PasswordHasher
    private let secrets: any SecretGenerator
    private let mail: any MailSender
    private let clock: any WallClock
    private let policy: AuthPolicy
    private let inbox: (any InboxPublisher)?
    private let origin: any ClientOrigin

    public init(
        repository: any AuthStore, hasher: any PasswordHasher, secrets: any SecretGenerator, mail: any MailSender,
        clock: any WallClock, policy: AuthPolicy = AuthPolicy(), inbox: (any InboxPublisher)? = nil,
        origin: any ClientOrigin = ThisTerminal()
    ) {
        self.origin = origin
        self.repository = repository
        self.hasher = hasher
        self.secrets = secrets
        self.mail = mail
        self.clock = clock
        self.policy = policy
        self.inbox = inbox
    }

    /// Mails a reset code if `email` belongs to an account (verified or waiting); returns the normalised address
    /// either way (the same answer for every address, so it cannot be used to find accounts).
    public func request(email raw: String) async throws -> String {
        let email = try EmailAddress(raw)
        // The same work up to the lookup for every address: a code, its digest, its expiry.
        let code = secrets.verificationCode()
        let pending = secrets.digest(code)
        let expiry = clock.now().addingTimeInterval(policy.codeLifetime)
        guard let user = try await repository.user(email: email.value) else { return email.value }
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
    /// session of the user is revoked (log in again), the address is verified, the event is recorded
    /// and `.passwordChanged` is published, in one transaction. A wrong, expired or used-up code — or
    /// an address without one — is ``AccountSecurityError/resetCodeInvalid``; wrong codes lock out the
    /// client that enters them (``AccountSecurityError/resetLocked(until:)``, and the owner of a known
    /// address finds a `login-lockout` notice in their inbox), never the owner, and wrong passwords
    /// never block a reset. A code that is not 6 digits is ``AuthError/malformedCode`` (bad data,
    /// 65), before anything is looked up or counted.
    public func complete(email raw: String, code: String, newPassword: String) async throws -> AuthenticatedUser {
        let email = try EmailAddress(raw)
        let code = try Registration.code(code)
        let normalized = try PasswordPolicy().check(newPassword, for: email)
        let redemption = CodeRedemption(
            repository: repository, hasher: hasher, secrets: secrets, clock: clock, policy: policy, inbox: inbox, origin: origin)
        let user = try await AddressGate.shared.run(email.value) {
            try await redemption.redeem(
                email, code: code, password: normalized, locked: { AccountSecurityError.resetLocked(until: $0) },
                rejected: AccountSecurityError.resetCodeInvalid)
        }
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
