import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import InboxDomain
import InboxInterface
import Registry
import SharedKit

/// Inbox's command group, collected by the App's root.
public enum InboxCommandsKey: ServiceKey {
    public typealias Service = FeatureCommands
}

/// What Inbox's commands run with.
public struct InboxEnvironment: Sendable {
    let service: any InboxUseCases

    public init(service: any InboxUseCases) {
        self.service = service
    }
}

/// `moa inbox …`
public struct InboxCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "Your notices: money received, large transfers sent, sign-ins and security events.",
        subcommands: [List.self, Read.self],
        defaultSubcommand: List.self
    )

    public init() {}

    /// `moa inbox [list] [--unread] [--limit N] [--before ID]` (a bare `moa inbox` lists).
    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List your notices, newest first (the default of `moa inbox`).",
            discussion: """
                Unread notices are marked with ●. Mark them read with `moa inbox read ID` or `moa inbox read --all`. \
                With --json: {"notices": [{"id", "kind", "title", "body", "created_at", "read", "read_at"}], \
                "unread_count", "next_before"}; pass next_before to --before for the next page.
                """)
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Only the notices not read yet.") var unread = false
        @Option(parsing: .unconditional, help: "Notices per page (1–\(InboxService.maximumLimit)).") var limit = InboxService.defaultLimit
        @Option(help: ArgumentHelp("Only notices older than this one (the id printed under the previous page).", valueName: "id"))
        var before: String?

        func run(in environment: InboxEnvironment, context: CommandContext) async throws {
            try await InboxScreen.show(.list(unreadOnly: unread, limit: limit, before: before), environment, context)
        }
    }

    /// `moa inbox read ID` or `moa inbox read --all`.
    struct Read: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "read", abstract: "Mark a notice read (by its id), or every notice with --all.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The notice's id, as `moa inbox` shows it.") var id: String?
        @Flag(help: "Mark every unread notice read.") var all = false

        func validate() throws {
            switch (id, all) {
            case (nil, false): throw ValidationError("Give the id of a notice (see `moa inbox`), or --all.")
            case (.some, true): throw ValidationError("Give either a notice id or --all, not both.")
            default: break
            }
        }

        func run(in environment: InboxEnvironment, context: CommandContext) async throws {
            if all {
                try await InboxScreen.show(.readAll, environment, context)
            } else if let id {
                try await InboxScreen.show(.read(id), environment, context)
            } else {
                throw CommandError.usage("Give the id of a notice (see `moa inbox`), or --all.")
            }
        }
    }
}

/// The `--json` shapes: InboxDomain's records, the shapes the API answers with too (one each,
/// written once; `read_at` and `next_before` are `null` when there is none).
enum InboxJSON {
    static func make(_ outcome: InboxViewModel.Outcome) -> any Encodable {
        switch outcome {
        case .notices(let page, _): page
        case .read(let result): result
        case .readAll(let count): MarkedAllRead(marked: count)
        }
    }
}
