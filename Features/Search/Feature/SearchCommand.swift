import ArchiveInterface
import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Registry
import SearchDomain
import SearchInterface
import SettingsInterface
import SharedKit

/// Search's command group, collected by the App's root.
public enum SearchCommandsKey: ServiceKey {
    public typealias Service = FeatureCommands
}

/// What Search's commands run with.
public struct SearchEnvironment: Sendable {
    let users: UserSearchService
    let events: EventSearchService

    public init(users: UserSearchService, events: EventSearchService) {
        self.users = users
        self.events = events
    }
}

extension UserSearchSort: ExpressibleByArgument {}

/// `moa search …`
public struct SearchCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search users of a GitHub-compatible API, and the cultural-event catalogue.",
        discussion: """
        Users come from search.api-base-url (default https://api.github.com), with search.api-token \
        as a bearer token when set: `moa settings set search.api-token …`.
        """,
        subcommands: [Users.self, User.self, Events.self]
    )

    public init() {}

    struct Users: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search users, page by page (GitHub qualifiers work: `swift location:seoul followers:>100`).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The query; several words are joined with spaces.") var query: [String] = []
        @Option(help: "The page (1-based).") var page = 1
        @Option(name: .customLong("per-page"), help: "Users per page, 1–100 (default: display.page-size, at most 100).") var perPage: Int?
        @Option(help: "followers, repositories or joined (default: best match).") var sort: UserSearchSort?

        func run(in environment: SearchEnvironment, context: CommandContext) async throws {
            try await SearchScreen.show(.users(query: query.joined(separator: " "), page: page, perPage: perPage, sort: sort),
                                        environment, context)
        }
    }

    struct User: ServiceCommand {
        static let configuration = CommandConfiguration(abstract: "Show a user's profile (cached; revalidated with the server's ETag).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The login, e.g. octocat.") var login: String

        func run(in environment: SearchEnvironment, context: CommandContext) async throws {
            try await SearchScreen.show(.user(login: login), environment, context)
        }
    }

    struct Events: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search the imported cultural-event catalogue, sorted by start date.",
            discussion: "The catalogue comes from `moa archive import FILE.json`. Pages hold display.page-size events.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Words that must all appear in the title, place or organiser.") var text: String?
        @Option(help: "A Seoul district, e.g. 종로구.") var region: String?
        @Option(help: "A category, e.g. 전시/미술.") var category: String?
        @Option(help: "Part of the audience, e.g. 누구나.") var audience: String?
        @Flag(help: "Free events only.") var free = false
        @Flag(help: "Paid events only.") var paid = false
        @Option(help: "Events still on at or after this day (YYYY-MM-DD).") var from: String?
        @Option(help: "Events starting at or before this day (YYYY-MM-DD).") var to: String?
        @Option(help: "Events running on this day (YYYY-MM-DD): started on or before it, ending on or after it.") var on: String?
        @Option(help: "The page (1-based).") var page = 1

        func run(in environment: SearchEnvironment, context: CommandContext) async throws {
            let input = EventSearchInput(text: text, region: region, category: category, audience: audience, free: free, paid: paid,
                                         from: from, to: to, on: on, page: page)
            try await SearchScreen.show(.events(input), environment, context)
        }
    }
}

/// What Search's Feature layer provides: the use cases (bound to Settings and Archive's catalogue,
/// through their Interfaces) and the commands.
public struct SearchFeatureModule: FeatureModule {
    public let name = "Search"

    public init() {}

    public var providers: [Provider] {
        [
            .singleton(UserSearchServiceKey.self, requires: SettingsReaderKey.self, UserSearchRepositoryKey.self) {
                UserSearchService(settings: $0, repository: $1)
            },
            .singleton(UserProfileLookupKey.self, requires: UserSearchServiceKey.self) { $0 },
            .singleton(EventSearchServiceKey.self, requires: EventCatalogueKey.self, SettingsReaderKey.self) {
                EventSearchService(catalogue: $0, settings: $1)
            },
            .singleton(SearchCommandsKey.self, requires: UserSearchServiceKey.self, EventSearchServiceKey.self) { users, events in
                FeatureCommands(SearchCommand.self, environment: SearchEnvironment(users: users, events: events))
            },
            // The interactive home's entry; "archive this event" goes through Archive's Interface.
            .singleton(SearchHomeEntryKey.self, requires: UserSearchServiceKey.self, EventSearchServiceKey.self, EventArchivingKey.self) {
                SearchHome.entry(users: $0, events: $1, archiving: $2)
            },
        ]
    }
}
