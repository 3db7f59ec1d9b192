import ArgumentParser
import AuthDomain
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import SharedKit
import ViewModelKit

/// The view model of `moa auth password …` and `moa auth delete`: the commands send it an input
/// and render its state. No rule lives here: the use cases decide.
@MainActor
public final class AccountSecurityViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = AuthViewModel.unexpectedErrorSentence

    public enum Input: Sendable {
        /// `repeated`: the second typing of the new password on a terminal (`nil` from standard input).
        case changePassword(current: String, new: String, repeated: String?)
        case requestReset(email: String)
        case resetPassword(email: String, code: String, new: String, repeated: String?)
        case deleteAccount(confirmation: String)
    }

    public typealias Action = Input

    public enum Outcome: Sendable, Equatable {
        case passwordChanged(AuthenticatedUser)
        /// The same for every address: it does not tell whether an account exists.
        case resetRequested(email: String)
        case passwordReset(AuthenticatedUser)
        case deleted(DeletionReport)
    }

    public typealias State = OutcomeState<Outcome>

    public private(set) var state = State()
    private let sessions: SessionManager
    private let reset: any PasswordResetUseCases
    private let deletion: any AccountDeletionUseCases

    public nonisolated init(sessions: SessionManager, reset: any PasswordResetUseCases, deletion: any AccountDeletionUseCases) {
        self.sessions = sessions
        self.reset = reset
        self.deletion = deletion
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State(outcome: nil, error: nil, isWorking: true)
        defer { state.isWorking = false }
        switch action {
        case .changePassword(let current, let new, let repeated):
            if let repeated, repeated != new { throw AuthError.passwordsDoNotMatch }
            state.outcome = .passwordChanged(try await sessions.changePassword(current: current, new: new))
        case .requestReset(let email):
            state.outcome = .resetRequested(email: try await reset.request(email: email))
        case .resetPassword(let email, let code, let new, let repeated):
            if let repeated, repeated != new { throw AuthError.passwordsDoNotMatch }
            state.outcome = .passwordReset(try await reset.complete(email: email, code: code, newPassword: new))
        case .deleteAccount(let confirmation):
            state.outcome = .deleted(try await deletion.delete(confirmation: confirmation))
        }
    }

    public func show(_ error: any UserFacingError) {
        state.fail(with: error)
    }
}
