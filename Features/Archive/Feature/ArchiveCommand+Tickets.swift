import ArchiveDomain
import ArchiveInterface
import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Registry
import SettingsInterface
import SharedKit
import Synchronization

extension ArchiveCommand {
    struct Add: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Archive an event you attended: from the catalogue by id, or by hand.",
            usage: """
                moa archive add EVENT_ID [--rating 1-5] [--memo M] [--attended DATE]
                moa archive add --title T --category C --region DISTRICT --date DATE [--free] [--rating 1-5] [--memo M]
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "An event id from `moa archive events`.") var eventID: String?
        @Option(help: "Manual ticket: the title.") var title: String?
        @Option(help: "Manual ticket: the category, e.g. 연극.") var category: String?
        @Option(help: "Manual ticket: the district, e.g. 종로구.") var region: String?
        @Flag(help: "Manual ticket: it was free.") var free = false
        @Option(
            name: [.customLong("attended"), .customLong("date")],
            help: "The day you went, YYYY-MM-DD (from the catalogue, default: today, or the last day of an event that is over).")
        var attended: String?
        @Option(parsing: .unconditional, help: "Your rating, 1 to 5.") var rating: Int?
        @Option(help: "A note, up to 500 characters.") var memo: String?

        func validate() throws {
            let manual = title != nil || category != nil || region != nil || free
            if eventID != nil, manual {
                throw ValidationError(
                    "Give either an EVENT_ID from the catalogue, or --title, --category, --region and --date for a ticket by hand, not both."
                )
            }
            if eventID == nil {
                let missing = [("--title", title), ("--category", category), ("--region", region), ("--date", attended)].filter {
                    $0.1 == nil
                }.map(\.0)
                if !manual {
                    throw ValidationError("Give an EVENT_ID (see `moa archive events`), or --title, --category, --region and --date.")
                }
                if !missing.isEmpty { throw ValidationError("A ticket by hand also needs \(missing.joined(separator: ", ")).") }
            }
        }

        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            let input: ArchiveViewModel.Input =
                if let eventID {
                    .addFromCatalogue(eventID: eventID, rating: rating, memo: memo, attended: attended)
                } else {
                    .addManual(
                        title: title ?? "", category: category ?? "", region: region ?? "", date: attended ?? "", free: free,
                        rating: rating, memo: memo)
                }
            try await ArchiveScreen.show(input, environment, context)
        }
    }

    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List your tickets, most recent first.")
        @OptionGroup var global: GlobalOptions
        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.list, environment, context)
        }
    }

    struct Remove: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove one of your tickets.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The ticket id (or its first characters, at least 4) from `moa archive list`.") var ticket: String
        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.remove(ticket), environment, context)
        }
    }
}

extension ArchiveJSON {
    struct Removed: Encodable { let removed: TicketRecord }
}
