import AuthDomain
import AuthInterface
import Foundation
import SharedKit
import ViewModelKit

/// The sign-in screens' view model: every `moa auth …` command (and the interactive mode's login)
/// sends it an input and renders its state. No rule lives here: the use cases decide.
@MainActor
public final class AuthViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = "Sign-in failed unexpectedly"

    public enum Input: Sendable {
        case signUp(email: String, password: String, repeated: String?)
        /// The code from the mail and the password the account gets with it.
        case verify(email: String, code: String, password: String, repeated: String?)
        case resendCode(email: String)
        case logIn(email: String, password: String)
        case logOut(everywhere: Bool)
        case whoAmI
    }

    public typealias Action = Input

    /// What happened, for the screen to show.
    public enum Outcome: Sendable, Equatable {
        /// A code is on its way (`location`: where, when this machine's own bank mailed one now).
        case codeSent(email: String, location: String?)
        case verified(email: String)
        case loggedIn(AuthenticatedUser)
        case loggedOut(AuthenticatedUser?, everywhere: Bool)
        case session(AuthenticatedUser, validUntil: Date)
    }

    public typealias State = OutcomeState<Outcome>

    public private(set) var state = State()
    private let registration: any RegistrationUseCases
    private let sessions: SessionManager

    public nonisolated init(registration: any RegistrationUseCases, sessions: SessionManager) {
        self.registration = registration
        self.sessions = sessions
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State(outcome: nil, error: nil, isWorking: true)
        defer { state.isWorking = false }
        switch action {
        case .signUp(let email, let password, let repeated):
            if let repeated, repeated != password { throw AuthError.passwordsDoNotMatch }
            let sent = try await registration.signUp(email: email, password: password)
            state.outcome = .codeSent(email: sent.email, location: sent.location)
        case .verify(let email, let code, let password, let repeated):
            if let repeated, repeated != password { throw AuthError.passwordsDoNotMatch }
            try await registration.verify(email: email, code: code, password: password)
            state.outcome = .verified(email: try EmailAddress(email).value)
        case .resendCode(let email):
            let sent = try await registration.resendCode(email: email)
            state.outcome = .codeSent(email: sent.email, location: sent.location)
        case .logIn(let email, let password):
            state.outcome = .loggedIn(try await sessions.logIn(email: email, password: password))
        case .logOut(let everywhere):
            state.outcome = .loggedOut(try await sessions.logOut(everywhere: everywhere), everywhere: everywhere)
        case .whoAmI:
            guard let details = try await sessions.sessionDetails() else { throw NotLoggedInError() }
            state.outcome = .session(details.user, validUntil: details.refreshExpiresAt)
        }
    }

    public func show(_ error: any UserFacingError) {
        state.fail(with: error)
    }
}
