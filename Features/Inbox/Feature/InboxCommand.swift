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

    struct Read: Encodable {
        let notice: Notice
        let wasUnread: Bool
    }
    struct ReadAll: Encodable { let marked: Int }

    static func make(_ outcome: InboxViewModel.Outcome) -> any Encodable {
        switch outcome {
        case .notices(let page, _): Page(notices: page.notices.map(Notice.init), unreadCount: page.unreadCount, nextBefore: page.nextBefore)
        case .read(let result): Read(notice: Notice(result.notice), wasUnread: result.wasUnread)
        case .readAll(let count): ReadAll(marked: count)
        }
    }
}
