import ArgumentParser
import AuthDomain
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Registry

/// Sends one input to the view model and renders the outcome: a line or a card, or JSON.
enum AuthScreen {
    static func show(_ input: AuthViewModel.Input, _ environment: AuthEnvironment, _ context: CommandContext) async throws {
        let viewModel = AuthViewModel(registration: environment.registration, sessions: environment.sessions)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(state.outcome, error: state.error, json: AuthOutput.init) { render($0, theme: context.theme) }
    }

    static func render(_ outcome: AuthViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .codeSent(let email, let location):
            // The same words for every address: whether it has an account is nobody's business here.
            return theme.paint("A verification code is on its way to \(email).", .success)
                + (location.map { "\nThe code was mailed to: \($0)" } ?? "") + "\n"
                + theme.paint("Next: moa auth verify --email \(email) --code CODE (it asks for the password you want)", .muted)
        case .verified(let email):
            return theme.paint("\(email) is verified.", .success) + "\n" + theme.paint("Next: moa auth login --email \(email)", .muted)
        case .loggedIn(let user):
            return theme.paint("Logged in as \(user.email).", .success)
        case .loggedOut(let user, let everywhere):
            guard let user else { return "Nobody was logged in." }
            return everywhere ? "Logged out \(user.email) everywhere: every session is revoked." : "Logged out \(user.email)."
        case .session(let user, let validUntil):
            return Card(
                title: "Logged in",
                lines: KeyValueRows([
                    "E-mail": user.email,
                    "User ID": user.id.rawValue,
                    "Session until": ISO8601DateFormatter().string(from: validUntil),
                ]).render(theme: theme).components(separatedBy: "\n")
            ).render(theme: theme)
        }
    }
}
