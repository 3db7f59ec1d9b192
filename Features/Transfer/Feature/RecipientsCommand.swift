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
            commandName: "list",
            abstract: "Show your favourites (alias, account number, date added) and your last 10 recipients, newest first.")
        @OptionGroup var global: GlobalOptions

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await RecipientsScreen.show(.list, environment, context)
        }
    }

    struct Add: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
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
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Forget a favourite (your transfers to it stay).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The favourite's alias (with or without @).") var alias: String

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await RecipientsScreen.show(.remove(alias: alias), environment, context)
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
                Recent(
                    accountNumber: recent.accountNumber, lastSentAt: recent.lastSentAt,
                    alias: recipients.favourites.first { $0.accountNumber == recent.accountNumber }?.alias)
            }
        }
    }
}
