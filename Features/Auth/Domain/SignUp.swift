import AuthInterface
import Foundation
import SharedKit

/// What a sign-up or a resend answered: the same for every address, whether or not it has an
/// account, is waiting for its code, or was mailed a moment ago.
public struct CodeSent: Sendable, Equatable {
    public let email: String
    /// Where a new code went (the outbox file), when one was mailed now; `nil` when nothing new was
    /// mailed. Only this machine's own bank shows it: a server never tells.
    public let location: String?

    public init(email: String, location: String?) {
        self.email = email
        self.location = location
    }
}

/// `moa auth signup` and `moa auth verify`: mail a code to an address, and set the account's
/// password with it.
///
/// The code proves the mailbox, so **whoever enters the code chooses the password** (given with
/// the code): a sign-up by someone else with your address sets nothing, and no unverified sign-up
/// stands between an address and its owner. The password given at sign-up is checked against the
/// policy there (so a weak one is refused before any mail) and takes effect only with the code.
///
/// Nothing tells whether an address has an account: a sign-up answers alike for a new address, a
/// pending one and a verified one (whose owner is mailed that someone tried), a resend alike for
/// every address, and a wrong code alike whatever the reason.
public struct Registration: Sendable {
    /// The password hash of a sign-up whose code was not entered yet: matches no password.
    static let noPassword = "!unverified"

    private let repository: any AuthStore
    private let hasher: any PasswordHasher
    private let secrets: any SecretGenerator
    private let mail: any MailSender
    private let clock: any WallClock
    private let policy: AuthPolicy
    private let origin: any ClientOrigin

    public init(
        repository: any AuthStore, hasher: any PasswordHasher, secrets: any SecretGenerator,
        mail: any MailSender, clock: any WallClock, policy: AuthPolicy = AuthPolicy(), origin: any ClientOrigin = ThisTerminal()
    ) {
        self.repository = repository
        self.hasher = hasher
        self.secrets = secrets
        self.mail = mail
        self.clock = clock
        self.policy = policy
        self.origin = origin
    }

    /// Checks the password against the policy and mails a code to the address: for a new address
    /// it creates the pending account (all of it happens, or none of it); for one already waiting
    /// it mails a new code (at most one a minute); for one that has an account it tells the owner
    /// that someone tried. The answer is the same in every case.
    public func signUp(email raw: String, password: String) async throws -> CodeSent {
        let email = try EmailAddress(raw)
        _ = try PasswordPolicy().check(password, for: email)
        let now = clock.now()
        if let user = try await repository.user(email: email.value) {
            if user.verifiedAt != nil { return try await tellOwner(user, at: now) }
            return try await mailCode(to: user, at: now)
        }
        let id = UserID(secrets.identifier())
        let code = secrets.verificationCode()
        let user = UserRecord(id: id, email: email.value, passwordHash: Self.noPassword, createdAt: now, verifiedAt: nil)
        let verification = VerificationRecord(
            userID: id, codeDigest: secrets.digest(code), expiresAt: now.addingTimeInterval(policy.codeLifetime), attempts: 0)
        do {
            try await repository.createUser(user, verification: verification)
        } catch AuthError.emailTaken {
            return CodeSent(email: email.value, location: nil) // a sign-up at the same moment mails its code
        }
        do {
            return CodeSent(
                email: email.value,
                location: try await mail.send(Self.codeMail(to: email.value, code: code, minutes: Int(policy.codeLifetime / 60))))
        } catch {
            try? await repository.deleteUnverifiedUser(id)
            throw error
        }
    }

    /// Sets the account's password with a mailed code (a sign-up's, or a reset's: either proves the
    /// mailbox) and marks the address verified, in one transaction. The password policy applies. A
    /// wrong, expired or used-up code — or an address nothing waits for — is
    /// ``AuthError/codeRejected``; wrong codes lock out the client that guesses
    /// (``AuthError/codesLocked(until:)``), never the owner.
    public func verify(email raw: String, code: String, password: String) async throws {
        let email = try EmailAddress(raw)
        let typed = try Self.code(code)
        let normalized = try PasswordPolicy().check(password, for: email)
        try await AddressGate.shared.run(email.value) {
            _ = try await redemption.redeem(
                email, code: typed, password: normalized, locked: { AuthError.codesLocked(until: $0) }, rejected: AuthError.codeRejected)
        }
    }

    private var redemption: CodeRedemption {
        CodeRedemption(repository: repository, hasher: hasher, secrets: secrets, clock: clock, policy: policy, inbox: nil, origin: origin)
    }

    /// Mails a new code for an address still waiting for one (the old one stops working), at most
    /// one a `resetMailInterval`. The answer is the same for every address.
    public func resendCode(email raw: String) async throws -> CodeSent {
        let email = try EmailAddress(raw)
        guard let user = try await repository.user(email: email.value), user.verifiedAt == nil else {
            return CodeSent(email: email.value, location: nil)
        }
        return try await mailCode(to: user, at: clock.now())
    }

    /// A new code for a pending `user`, unless one went out less than `resetMailInterval` ago.
    private func mailCode(to user: UserRecord, at now: Date) async throws -> CodeSent {
        if let live = try await repository.verification(for: user.id),
            now < live.expiresAt.addingTimeInterval(policy.resetMailInterval - policy.codeLifetime)
        {
            return CodeSent(email: user.email, location: nil)
        }
        let code = secrets.verificationCode()
        try await repository.saveVerification(
            VerificationRecord(
                userID: user.id, codeDigest: secrets.digest(code), expiresAt: now.addingTimeInterval(policy.codeLifetime), attempts: 0))
        return CodeSent(
            email: user.email,
            location: try await mail.send(Self.codeMail(to: user.email, code: code, minutes: Int(policy.codeLifetime / 60))))
    }

    /// Someone signed up with the address of an existing account: its owner is told (at most once a
    /// `resetMailInterval`), and nothing else changes.
    private func tellOwner(_ user: UserRecord, at now: Date) async throws -> CodeSent {
        let interval = policy.resetMailInterval
        let update = try await repository.updateThrottle(for: ThrottleKey.signUpNotice(user.email)) { state in
            state.lock(at: now) == nil
                ? ThrottleState(failures: 0, windowStart: nil, lockedUntil: now.addingTimeInterval(interval), lockouts: 0) : state
        }
        guard update.before.lock(at: now) == nil else { return CodeSent(email: user.email, location: nil) }
        // Told and recorded as often as the owner is mailed, no more: a flood of sign-ups is not a
        // flood of warnings, nor of rows.
        let event = SecurityEvent(userID: user.id, email: user.email, kind: .signUpRefused, at: now)
        origin.witness(event)
        // Not recorded (the database failing) still answers as a new address is answered: an error
        // here would tell a taken address from a free one. The witness has logged it either way.
        try? await repository.record(event)
        return CodeSent(email: user.email, location: try await mail.send(Self.alreadyRegisteredMail(to: user.email)))
    }

    static func codeMail(to email: String, code: String, minutes: Int) -> Mail {
        Mail(
            to: email, subject: "Your Moa verification code: \(code)",
            body: """
                Welcome to Moa.

                Your verification code is \(code). It works for \(minutes) minutes; enter it with the
                password you want for your account:

                    moa auth verify --email \(email) --code \(code)

                If you did not sign up, ignore this message: without this code nobody can use your address.
                """, purpose: .verification)
    }

    static func alreadyRegisteredMail(to email: String) -> Mail {
        Mail(
            to: email, subject: "Someone tried to sign up to Moa with your address",
            body: """
                Someone asked to create a Moa account with \(email), which already has one.

                If it was you, log in (moa auth login --email \(email)), or reset a forgotten password
                (moa auth password reset --email \(email)).

                If it was not you, ignore this message: nothing about your account changed.
                """, purpose: .other)
    }

    /// A code as typed, without its spaces: exactly 6 ASCII digits, else ``AuthError/malformedCode``.
    public static func code(_ typed: String) throws(AuthError) -> String {
        let code = typed.filter { !$0.isWhitespace }
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .malformedCode
        }
        return code
    }

    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
