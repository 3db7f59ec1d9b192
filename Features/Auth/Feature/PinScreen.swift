import ArgumentParser
import AuthDomain
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import SharedKit

/// Sends one input to the PIN view model and renders the outcome: a line or a card, or JSON.
enum PinScreen {
    static func show(_ input: PinViewModel.Input, _ environment: AuthEnvironment, _ context: CommandContext) async throws {
        let viewModel = PinViewModel(pins: environment.pins)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(state.outcome, error: state.error, json: PinOutput.init) { render($0, theme: context.theme) }
    }

    static func render(_ outcome: PinViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .pinSet(let user):
            return theme.paint("PIN set for \(user.email).", .success) + "\n"
                + theme.paint("`moa` now asks for it when it starts with your session.", .muted)
        case .pinRemoved(let user, let hadPin):
            return hadPin ? "PIN removed for \(user.email)." : "\(user.email) had no PIN."
        case .status(let status):
            var rows = [KeyValueRows.Row("E-mail", status.user.email), KeyValueRows.Row("PIN", status.isSet ? "set" : "not set")]
            if let triesLeft = status.triesLeft { rows.append(KeyValueRows.Row("Wrong PINs left", String(triesLeft))) }
            return Card(title: "PIN", lines: KeyValueRows(rows).render(theme: theme).components(separatedBy: "\n")).render(theme: theme)
        }
    }
}
