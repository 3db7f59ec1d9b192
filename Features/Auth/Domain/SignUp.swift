import AuthInterface
import Foundation
import SharedKit

/// What a sign-up or a resend produced: where the code went.
public struct CodeSent: Sendable, Equatable {
    public let email: String
    /// Where the code went: the outbox file (the server's mail: its file name only).
    public let location: String

    public init(email: String, location: String) {
        self.email = email
        self.location = location
    }
}

/// `moa auth signup` and `moa auth verify`: create an unverified account, mail a code, check it.
public struct Registration: Sendable {
    private let repository: any AuthRepository
    private let hasher: any PasswordHasher
    private let secrets: any SecretGenerator
    private let mail: any MailSender
    private let clock: any WallClock
    private let policy: AuthPolicy

    public init(
        repository: any AuthRepository, hasher: any PasswordHasher, secrets: any SecretGenerator,
        mail: any MailSender, clock: any WallClock, policy: AuthPolicy = AuthPolicy()
    ) {
        self.repository = repository
        self.hasher = hasher
        self.secrets = secrets
        self.mail = mail
        self.clock = clock
        self.policy = policy
    }

    /// Creates the account and mails its code: all of it happens, or none of it.
    public func signUp(email raw: String, password: String) async throws -> CodeSent {
        let email = try EmailAddress(raw)
        let normalized = try PasswordPolicy().check(password, for: email)
        if try await repository.user(email: email.value) != nil { throw AuthError.emailTaken(email.value) }
        let now = clock.now()
        let id = UserID(secrets.identifier())
        let code = secrets.verificationCode()
        let user = UserRecord(id: id, email: email.value, passwordHash: try hasher.hash(normalized), createdAt: now, verifiedAt: nil)
        let verification = VerificationRecord(
            userID: id, codeDigest: secrets.digest(code), expiresAt: now.addingTimeInterval(policy.codeLifetime), attempts: 0)
        try await repository.createUser(user, verification: verification)
        do {
            return CodeSent(
                email: email.value,
                location: try await mail.send(Self.codeMail(to: email.value, code: code, minutes: Int(policy.codeLifetime / 60))))
        } catch {
            try? await repository.deleteUnverifiedUser(id)
            throw error
        }
    }

    /// Checks a code: 6 digits, within its lifetime, at most `codeAttempts` wrong tries. Wrong codes
    /// also count toward the address's throttle, as failed logins do, so asking for new codes does
    /// not buy new guesses: the fifth wrong one in a while locks the address for a minute, then longer.
    public func verify(email raw: String, code: String) async throws {
        let email = try EmailAddress(raw)
        let typed = try Self.code(code)
        try await AddressGate.shared.run(email.value) { try await verify(email, typed: typed) }
    }

    private func verify(_ email: EmailAddress, typed: String) async throws {
        guard let user = try await repository.user(email: email.value), user.verifiedAt == nil,
            let verification = try await repository.verification(for: user.id)
        else { throw AuthError.noPendingVerification(email.value) }
        let now = clock.now()
        if let until = try await repository.throttle(for: email.value).lock(at: now) { throw AuthError.codesLocked(until: until) }
        guard verification.attempts < policy.codeAttempts else { throw AuthError.tooManyCodeAttempts }
        guard now < verification.expiresAt else { throw AuthError.codeExpired }
        guard Self.constantTimeEquals(secrets.digest(typed), verification.codeDigest) else {
            let update = try await repository.countFailure(for: email.value, policy: policy, at: now)
            if let until = update.before.lock(at: now) { throw AuthError.codesLocked(until: until) }
            let attempts = try await repository.recordWrongCode(for: user.id)
            if attempts >= policy.codeAttempts { throw AuthError.tooManyCodeAttempts }
            throw AuthError.wrongCode(triesLeft: policy.codeAttempts - attempts)
        }
        if let until = try await repository.clearThrottle(for: email.value, at: now) { throw AuthError.codesLocked(until: until) }
        try await repository.markVerified(user.id, at: now)
        try await repository.deleteVerification(for: user.id)
        try await repository.record(SecurityEvent(userID: user.id, email: user.email, kind: .verified, at: now))
    }

    /// Mails a new code for an address that is still unverified (the old one stops working): not
    /// while the address is locked for wrong codes, and at most one mail a `resetMailInterval`.
    public func resendCode(email raw: String) async throws -> CodeSent {
        let email = try EmailAddress(raw)
        guard let user = try await repository.user(email: email.value), user.verifiedAt == nil else {
            throw AuthError.noPendingVerification(email.value)
        }
        let now = clock.now()
        if let until = try await repository.throttle(for: email.value).lock(at: now) {
            throw AuthError.codesLocked(until: until)
        }
        if let live = try await repository.verification(for: user.id) {
            let sentAt = live.expiresAt.addingTimeInterval(-policy.codeLifetime)
            let next = sentAt.addingTimeInterval(policy.resetMailInterval)
            if now < next { throw AuthError.resendTooSoon(until: next) }
        }
        let code = secrets.verificationCode()
        try await repository.saveVerification(
            VerificationRecord(
                userID: user.id, codeDigest: secrets.digest(code), expiresAt: now.addingTimeInterval(policy.codeLifetime), attempts: 0))
        return CodeSent(
            email: user.email,
            location: try await mail.send(Self.codeMail(to: user.email, code: code, minutes: Int(policy.codeLifetime / 60))))
    }

    static func codeMail(to email: String, code: String, minutes: Int) -> Mail {
        Mail(
            to: email, subject: "Your Moa verification code: \(code)",
            body: """
                Welcome to Moa.

                Your verification code is \(code). It works for \(minutes) minutes:

                    moa auth verify --email \(email) --code \(code)

                If you did not sign up, ignore this message.
                """, purpose: .verification)
    }

    /// A code as typed, without its spaces: exactly 6 ASCII digits, else ``AuthError/malformedCode``.
    static func code(_ typed: String) throws(AuthError) -> String {
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
