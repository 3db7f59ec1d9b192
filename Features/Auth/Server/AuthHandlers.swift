import APIServing
import AuthAPI
import AuthDomain
import AuthInterface
import Foundation
import OpenAPIRuntime
import SharedKit

/// The operations of docs/api/openapi.yaml tagged Auth (the generated `APIProtocol` of AuthAPI),
/// on Auth's use cases: the same ones `moa` runs, so every rule holds where no client can skip it.
///
/// Sign-up, verification, resend and reset answer alike for every address — the same body, never
/// the outbox file, and no sooner than ``AlikeTime/floor`` — so neither the answer nor its time
/// tells whether an address has an account.
public struct AuthHandlers: APIProtocol {
    let tokens: SessionTokens
    let registration: any RegistrationUseCases
    let passwordReset: any PasswordResetUseCases
    let deletion: any AccountDeletionUseCases
    /// Where the requests that hash a password run (off the cooperative pool, one per core).
    let passwordWork: PasswordWork

    public init(
        tokens: SessionTokens, registration: any RegistrationUseCases, passwordReset: any PasswordResetUseCases,
        deletion: any AccountDeletionUseCases, passwordWork: PasswordWork
    ) {
        self.tokens = tokens
        self.registration = registration
        self.passwordReset = passwordReset
        self.deletion = deletion
        self.passwordWork = passwordWork
    }

    public func signUp(_ input: Operations.SignUp.Input) async throws -> Operations.SignUp.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let (email, password) = (try Bound.email(body.email), try Bound.password(body.password, "/password"))
        let registration = registration
        let sent = try await AlikeTime.answer { try await registration.signUp(email: email, password: password) }
        return .created(.init(body: .json(.init(status: .codeSent, email: sent.email))))
    }

    public func verifyEmail(_ input: Operations.VerifyEmail.Input) async throws -> Operations.VerifyEmail.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let email = try Bound.email(body.email)
        let (code, password) = (try Bound.text(body.code, "/code", 32), try Bound.password(body.password, "/password"))
        let (registration, passwordWork) = (registration, passwordWork)
        try await AlikeTime.answer {
            try await passwordWork.run { try await registration.verify(email: email, code: code, password: password) }
        }
        return .ok(.init(body: .json(.init(status: .verified, email: try EmailAddress(email).value))))
    }

    public func resendVerificationCode(_ input: Operations.ResendVerificationCode.Input) async throws
        -> Operations.ResendVerificationCode.Output
    {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let email = try Bound.email(body.email)
        let registration = registration
        let sent = try await AlikeTime.answer { try await registration.resendCode(email: email) }
        return .ok(.init(body: .json(.init(status: .codeSent, email: sent.email))))
    }

    public func logIn(_ input: Operations.LogIn.Input) async throws -> Operations.LogIn.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let (email, password) = (try Bound.email(body.email), try Bound.password(body.password, "/password"))
        let tokens = tokens
        let session = try await passwordWork.run { try await tokens.logIn(email: email, password: password) }
        return .ok(.init(body: .json(.init(session))))
    }

    public func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let token = try Bound.text(body.refreshToken, "/refresh_token", BearerToken.maximumLength)
        guard let session = try await tokens.refresh(refreshToken: token) else {
            throw Problem.unauthenticated(NotLoggedInError().message, tokenGiven: true)
        }
        return .ok(.init(body: .json(.init(session))))
    }

    public func logOut(_ input: Operations.LogOut.Input) async throws -> Operations.LogOut.Output {
        let everywhere =
            switch input.body {
            case .json(let body): body.everywhere ?? false
            case nil: false
            }
        let (user, session) = try RequestUser.authenticated()
        try await tokens.logOut(session, user: user, everywhere: everywhere)
        return .ok(.init(body: .json(.init(status: .loggedOut, email: user.email, userId: user.id.rawValue, everywhere: everywhere))))
    }

    public func getSession(_ input: Operations.GetSession.Input) async throws -> Operations.GetSession.Output {
        let (user, session) = try RequestUser.authenticated()
        return .ok(
            .init(
                body: .json(
                    .init(status: .loggedIn, email: user.email, userId: user.id.rawValue, sessionUntil: session.refreshExpiresAt))))
    }

    public func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let (user, _) = try RequestUser.authenticated()
        let current = try Bound.password(body.currentPassword, "/current_password")
        let new = try Bound.password(body.newPassword, "/new_password")
        let tokens = tokens
        let session = try await passwordWork.run { try await tokens.changePassword(of: user, current: current, new: new) }
        return .ok(.init(body: .json(.init(session))))
    }

    public func requestPasswordReset(_ input: Operations.RequestPasswordReset.Input) async throws
        -> Operations.RequestPasswordReset.Output
    {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let address = try Bound.email(body.email)
        let reset = passwordReset
        let email = try await AlikeTime.answer { try await reset.request(email: address) }
        return .accepted(.init(body: .json(.init(status: .resetCodeRequested, email: email))))
    }

    public func completePasswordReset(_ input: Operations.CompletePasswordReset.Input) async throws
        -> Operations.CompletePasswordReset.Output
    {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let (email, code) = (try Bound.email(body.email), try Bound.text(body.code, "/code", 32))
        let newPassword = try Bound.password(body.newPassword, "/new_password")
        let (reset, passwordWork) = (passwordReset, passwordWork)
        let user = try await AlikeTime.answer {
            try await passwordWork.run { try await reset.complete(email: email, code: code, newPassword: newPassword) }
        }
        return .ok(
            .init(body: .json(.init(status: .passwordReset, email: user.email, userId: user.id.rawValue, sessions: "all-revoked"))))
    }

    public func deleteUser(_ input: Operations.DeleteUser.Input) async throws -> Operations.DeleteUser.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        _ = try RequestUser.authenticated()
        let report = try await deletion.delete(confirmation: try Bound.text(body.confirmation, "/confirmation", 320))
        return .ok(
            .init(
                body: .json(
                    .init(status: .deleted, email: report.user.email, userId: report.user.id.rawValue, erased: report.erased))))
    }
}

extension Components.Schemas.Session {
    init(_ session: StoredSession) {
        self.init(
            userId: session.userID.rawValue, email: session.email, tokenType: .bearer, accessToken: session.accessToken,
            accessExpiresAt: session.accessExpiresAt, refreshToken: session.refreshToken, refreshExpiresAt: session.refreshExpiresAt)
    }
}

/// Answers that must not tell, by their time, whether an address has an account: each takes at
/// least ``floor`` from its start, success or error alike (the work behind them — a lookup, a code
/// saved, a mail written — takes a few milliseconds, and differs by address).
public enum AlikeTime {
    public static let floor: Duration = .milliseconds(250)

    static func answer<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        let result: Result<T, any Error>
        do {
            result = .success(try await work())
        } catch {
            result = .failure(error)
        }
        try? await Task.sleep(until: start + floor, clock: .continuous)
        return try result.get()
    }
}

extension AuthHandlers {
    /// The operations that act for nobody yet (`security: []` in docs/api/openapi.yaml): a request
    /// without a token reaches them; every other route under `/v1/` answers 401 without one.
    public static let openPaths: Set<String> = [
        "/v1/auth/signup", "/v1/auth/verify", "/v1/auth/verify/resend", "/v1/auth/login", "/v1/auth/refresh",
        "/v1/auth/password/reset", "/v1/auth/password/reset/complete",
    ]
}
