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
    let service: InboxService

    public init(service: InboxService) {
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
            abstract: "List your notices, newest first (the default of `moa inbox`).",
            discussion: """
            Unread notices are marked with ●. Mark them read with `moa inbox read ID` or `moa inbox read --all`. \
            With --json: {"notices": [{"id", "kind", "title", "body", "created_at", "read", "read_at"}], \
            "unread_count", "next_before"}; pass next_before to --before for the next page.
            """)
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Only the notices not read yet.") var unread = false
        @Option(help: "Notices per page (1–\(InboxService.maximumLimit)).") var limit = InboxService.defaultLimit
        @Option(help: ArgumentHelp("Only notices older than this one (the id printed under the previous page).", valueName: "id"))
        var before: String?

        func run(in environment: InboxEnvironment, context: CommandContext) async throws {
            try await InboxScreen.show(.list(unreadOnly: unread, limit: limit, before: before), environment, context)
        }
    }

    /// `moa inbox read ID` or `moa inbox read --all`.
    struct Read: ServiceCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a notice read (by its id), or every notice with --all.")
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

/// Sends one input and renders the outcome with the design system, or as JSON.
enum InboxScreen {
    static func show(_ input: InboxViewModel.Input, _ environment: InboxEnvironment, _ context: CommandContext) async throws {
        let viewModel = InboxViewModel(service: environment.service)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(state.outcome, error: state.error, json: InboxJSON.make) { render($0, theme: context.theme) }
    }

    /// The mark of an unread notice.
    static let unreadMark = "●"

    static func render(_ outcome: InboxViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .notices(let page, let unreadOnly):
            return renderPage(page, unreadOnly: unreadOnly, theme: theme)
        case .read(let result):
            let title = "“\(result.notice.title)”"
            let status = result.wasUnread
                ? theme.paint("Marked notice \(result.notice.id) as read: \(title).", .success)
                : "Notice \(result.notice.id) (\(title)) was already read."
            // The list cuts long details to fit; reading one shows them whole.
            return status + "\n" + result.notice.body
        case .readAll(let count):
            switch count {
            case 0: return "Nothing to mark: you have no unread notices."
            case 1: return theme.paint("Marked 1 notice as read.", .success)
            default: return theme.paint("Marked \(count) notices as read.", .success)
            }
        }
    }

    /// `commandHints`: end with the commands for more and for marking read (not in the interactive mode,
    /// which offers them as choices).
    static func renderPage(_ page: InboxPage, unreadOnly: Bool, theme: Theme, commandHints: Bool = true) -> String {
        let empty = unreadOnly
            ? "No unread notices: you are all caught up."
            : "Your inbox is empty: notices about money you receive, large transfers you send and sign-ins to your account will appear here."
        var table = Table(columns: [.init(""), .init("ID", alignment: .right), .init("Date"), .init("Notice", maxWidth: 40),
                                    .init("Details", maxWidth: 60)],
                          emptyMessage: empty)
        for notice in page.notices {
            table.append([notice.isRead ? "" : theme.paint(unreadMark, .accent), String(notice.id), DateText.minute(notice.createdAt),
                          notice.title, notice.body])
        }
        var lines = [theme.paint("Inbox", .heading) + " · " + unreadSummary(page.unreadCount), table.render(theme: theme)]
        if commandHints, let next = page.nextBefore {
            lines.append(theme.paint("More: moa inbox\(unreadOnly ? " --unread" : "") --before \(next)", .muted))
        }
        if commandHints, page.unreadCount > 0, !page.notices.isEmpty {
            lines.append(theme.paint("Read one in full (and mark it read): moa inbox read ID · mark all: moa inbox read --all", .muted))
        }
        return lines.joined(separator: "\n")
    }

    static func unreadSummary(_ count: Int) -> String {
        switch count {
        case 0: "nothing unread"
        default: "\(count) unread"
        }
    }
}

/// The `--json` shapes (stable, documented field names; dates ISO 8601; `read_at` is `null` when unread).
enum InboxJSON {
    struct Notice: Encodable {
        let id: Int64, kind: String, title: String, body: String, createdAt: Date, read: Bool, readAt: Date?

        init(_ item: InboxItem) {
            (id, kind, title, body) = (item.id, item.kind.rawValue, item.title, item.body)
            (createdAt, read, readAt) = (item.createdAt, item.isRead, item.readAt)
        }

        enum CodingKeys: String, CodingKey { case id, kind, title, body, createdAt, read, readAt }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(title, forKey: .title)
            try container.encode(body, forKey: .body)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(read, forKey: .read)
            try container.encode(readAt, forKey: .readAt) // null, not absent, when unread
        }
    }

    struct Page: Encodable {
        let notices: [Notice], unreadCount: Int, nextBefore: Int64?

        enum CodingKeys: String, CodingKey { case notices, unreadCount, nextBefore }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(notices, forKey: .notices)
            try container.encode(unreadCount, forKey: .unreadCount)
            try container.encode(nextBefore, forKey: .nextBefore) // null on the last page
        }
    }

    struct Read: Encodable { let notice: Notice; let wasUnread: Bool }
    struct ReadAll: Encodable { let marked: Int }

    static func make(_ outcome: InboxViewModel.Outcome) -> any Encodable {
        switch outcome {
        case .notices(let page, _): Page(notices: page.notices.map(Notice.init), unreadCount: page.unreadCount, nextBefore: page.nextBefore)
        case .read(let result): Read(notice: Notice(result.notice), wasUnread: result.wasUnread)
        case .readAll(let count): ReadAll(marked: count)
        }
    }
}

/// What Inbox's Feature layer provides: its use cases (bound to the session), its commands, and its
/// share in deleting a user.
public struct InboxFeatureModule: FeatureModule {
    public let name = "Inbox"

    public init() {}

    public var providers: [Provider] {
        [
            .singleton(InboxServiceKey.self, requires: InboxStoreKey.self, SessionProviderKey.self, WallClockKey.self) {
                InboxService(store: $0, session: $1, clock: $2)
            },
            .singleton(InboxCommandsKey.self, requires: InboxServiceKey.self) { service in
                FeatureCommands(InboxCommand.self, environment: InboxEnvironment(service: service))
            },
            .singleton(InboxUserDataKey.self, requires: InboxStoreKey.self) { InboxUserData.owner(store: $0) },
            .singleton(InboxHomeEntryKey.self, requires: InboxServiceKey.self) { InboxHome.entry(service: $0) },
        ]
    }
}
