import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import SharedKit
import TransferDomain
import TransferInterface
import ViewModelKit

/// `moa transfer recipients …`: the user's favourites (an alias per account number) and the
/// accounts they sent to lately. `--to @alias` sends to a favourite.
struct RecipientsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipients",
        abstract: "Your favourite recipients (send to them with --to @alias) and the accounts you sent to lately.",
        subcommands: [List.self, Add.self, Remove.self],
        defaultSubcommand: List.self)

    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show your favourites (alias, account number, date added) and your last 10 recipients, newest first.")
        @OptionGroup var global: GlobalOptions

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await RecipientsScreen.show(.list, environment, context)
        }
    }

    struct Add: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save an account number as a favourite under an alias.",
            discussion: """
            The alias is 1 to 20 letters, digits, “-” or “_”, unique among your favourites whatever the \
            case (Mom and mom are the same alias). The number is checked like a transfer's destination.
            """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account number, e.g. 110-1234-5678-9.") var number: String
        @Option(help: "The name to send to it by, e.g. mom (then: moa transfer send --to @mom …).") var alias: String

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await RecipientsScreen.show(.add(number: number, alias: alias), environment, context)
        }
    }

    struct Remove: ServiceCommand {
        static let configuration = CommandConfiguration(abstract: "Forget a favourite (your transfers to it stay).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The favourite's alias (with or without @).") var alias: String

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await RecipientsScreen.show(.remove(alias: alias), environment, context)
        }
    }
}

/// The recipients screens' view model: list, add, remove. The rules are RecipientBook's.
@MainActor
public final class RecipientsViewModel: AsyncViewModel {
    public enum Input: Sendable {
        case list
        case add(number: String, alias: String)
        case remove(alias: String)
    }

    public typealias Action = Input

    public enum Outcome: Sendable, Equatable {
        case list(Recipients)
        case added(FavouriteRecipient)
        case removed(FavouriteRecipient)
    }

    public struct State: Sendable {
        public var outcome: Outcome?
        public var error: (any UserFacingError)?
        public var isWorking = false
    }

    public private(set) var state = State()
    private let book: RecipientBook

    public nonisolated init(book: RecipientBook) {
        self.book = book
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State(outcome: nil, error: nil, isWorking: true)
        defer { state.isWorking = false }
        switch action {
        case .list: state.outcome = .list(try await book.recipients())
        case .add(let number, let alias): state.outcome = .added(try await book.add(number: number, alias: alias))
        case .remove(let alias): state.outcome = .removed(try await book.remove(alias: alias))
        }
    }

    public func handleError(_ error: any Error) {
        state.outcome = nil
        state.error = TransferFailure.wrap(error)
    }
}

enum RecipientsScreen {
    static func show(_ input: RecipientsViewModel.Input, _ environment: TransferEnvironment, _ context: CommandContext) async throws {
        let viewModel = RecipientsViewModel(book: environment.recipients)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(state.outcome, error: state.error, json: { outcome -> any Encodable in
            switch outcome {
            case .list(let recipients): RecipientsJSON.List(recipients)
            case .added(let favourite): RecipientsJSON.Favourite(favourite)
            case .removed(let favourite): RecipientsJSON.Favourite(favourite)
            }
        }) { render($0, theme: context.theme) }
    }

    static func render(_ outcome: RecipientsViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .added(let favourite):
            return theme.paint("Saved @\(favourite.alias) → \(favourite.accountNumber).", .success)
                + " Send to it with `moa transfer send --to @\(favourite.alias) …`."
        case .removed(let favourite):
            return "Removed @\(favourite.alias) (\(favourite.accountNumber)) from your favourites."
        case .list(let recipients):
            var favourites = Table(columns: [.init("Alias"), .init("Account number"), .init("Added")],
                                   emptyMessage: "No favourites yet: add one with `moa transfer recipients add NUMBER --alias NAME`.")
            for favourite in recipients.favourites {
                favourites.append(["@" + favourite.alias, favourite.accountNumber, DateText.day(favourite.addedAt)])
            }
            var recents = Table(columns: [.init("Account number"), .init("Favourite"), .init("Last sent")],
                                emptyMessage: "No transfers yet.")
            for recent in recipients.recents {
                let alias = recipients.favourites.first { $0.accountNumber == recent.accountNumber }.map { "@" + $0.alias } ?? ""
                recents.append([recent.accountNumber, alias, DateText.second(recent.lastSentAt)])
            }
            return [theme.paint("Favourites", .heading), favourites.render(theme: theme), "",
                    theme.paint("Recent recipients", .heading), recents.render(theme: theme)].joined(separator: "\n")
        }
    }
}

/// `--json`: `{"favourites": [{"alias", "account_number", "added_at"}], "recents": [{"account_number",
/// "last_sent_at", "alias"}]}` — aliases without the `@`; a recent's `alias` is its favourite's, or null.
enum RecipientsJSON {
    struct Favourite: Encodable {
        let alias: String
        let accountNumber: String
        let addedAt: Date

        init(_ favourite: FavouriteRecipient) {
            alias = favourite.alias
            accountNumber = favourite.accountNumber
            addedAt = favourite.addedAt
        }
    }

    struct Recent: Encodable {
        let accountNumber: String
        let lastSentAt: Date
        let alias: String?

        enum CodingKeys: String, CodingKey { case accountNumber, lastSentAt, alias }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(accountNumber, forKey: .accountNumber)
            try container.encode(lastSentAt, forKey: .lastSentAt)
            try container.encode(alias, forKey: .alias)
        }
    }

    struct List: Encodable {
        let favourites: [Favourite]
        let recents: [Recent]

        init(_ recipients: Recipients) {
            favourites = recipients.favourites.map(Favourite.init)
            recents = recipients.recents.map { recent in
                Recent(accountNumber: recent.accountNumber, lastSentAt: recent.lastSentAt,
                       alias: recipients.favourites.first { $0.accountNumber == recent.accountNumber }?.alias)
            }
        }
    }
}
