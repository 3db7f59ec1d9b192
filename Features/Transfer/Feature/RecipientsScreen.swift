import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import SharedKit
import TransferDomain
import TransferInterface
import ViewModelKit

enum RecipientsScreen {
    static func show(_ input: RecipientsViewModel.Input, _ environment: TransferEnvironment, _ context: CommandContext) async throws {
        let viewModel = RecipientsViewModel(book: environment.recipients)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(
            state.outcome, error: state.error,
            json: { outcome -> any Encodable in
                switch outcome {
                case .list(let recipients): RecipientsJSON.List(recipients)
                case .added(let favourite): RecipientsJSON.Favourite(favourite)
                case .removed(let favourite): RecipientsJSON.Favourite(favourite)
                }
            }
        ) { render($0, theme: context.theme) }
    }

    static func render(_ outcome: RecipientsViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .added(let favourite):
            return theme.paint("Saved @\(favourite.alias) → \(favourite.accountNumber).", .success)
                + " Send to it with `moa transfer send --to @\(favourite.alias) …`."
        case .removed(let favourite):
            return "Removed @\(favourite.alias) (\(favourite.accountNumber)) from your favourites."
        case .list(let recipients):
            var favourites = Table(
                columns: [.init("Alias"), .init("Account number"), .init("Added")],
                emptyMessage: "No favourites yet: add one with `moa transfer recipients add NUMBER --alias NAME`.")
            for favourite in recipients.favourites {
                favourites.append(["@" + favourite.alias, favourite.accountNumber, DateText.day(favourite.addedAt)])
            }
            var recents = Table(
                columns: [.init("Account number"), .init("Favourite"), .init("Last sent")],
                emptyMessage: "No transfers yet.")
            for recent in recipients.recents {
                let alias = recipients.favourites.first { $0.accountNumber == recent.accountNumber }.map { "@" + $0.alias } ?? ""
                recents.append([recent.accountNumber, alias, DateText.second(recent.lastSentAt)])
            }
            return [
                theme.paint("Favourites", .heading), favourites.render(theme: theme), "",
                theme.paint("Recent recipients", .heading), recents.render(theme: theme),
            ].joined(separator: "\n")
        }
    }
}
