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
    let login: GitHubLogin

    public init(users: UserSearchService, events: EventSearchService, login: GitHubLogin) {
        self.users = users
        self.events = events
        self.login = login
    }
}

extension UserSearchSort: ExpressibleByArgument {}

/// `moa search …`
public struct SearchCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search users of a GitHub-compatible API, and the cultural-event catalogue.",
        discussion: """
            Users come from search.api-base-url (default https://api.github.com), with a bearer token when there \
            is one: search.api-token when set, else the token of `moa search login`.
            """,
        subcommands: [Users.self, User.self, Events.self, Login.self, Logout.self, Status.self]
    )

    public init() {}

    struct Users: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "users",
            abstract: "Search users, page by page (GitHub qualifiers work: `swift location:seoul followers:>100`).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The query; several words are joined with spaces.") var query: [String] = []
        @Option(help: "The page (1-based).") var page = 1
        @Option(name: .customLong("per-page"), help: "Users per page, 1–100 (default: display.page-size, at most 100).") var perPage: Int?
        @Option(help: "followers, repositories or joined (default: best match).") var sort: UserSearchSort?

        func run(in environment: SearchEnvironment, context: CommandContext) async throws {
            try await SearchScreen.show(
                .users(query: query.joined(separator: " "), page: page, perPage: perPage, sort: sort),
                environment, context)
        }
    }

    struct User: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "user", abstract: "Show a user's profile (cached; revalidated with the server's ETag).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The login, e.g. octocat.") var login: String

        func run(in environment: SearchEnvironment, context: CommandContext) async throws {
            try await SearchScreen.show(.user(login: login), environment, context)
        }
    }

    struct Events: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "events",
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
            let input = EventSearchInput(
                text: text, region: region, category: category, audience: audience, free: free, paid: paid,
                from: from, to: to, on: on, page: page)
            try await SearchScreen.show(.events(input), environment, context)
        }
    }
}

/// The `--json` shapes (stable snake_case field names).
enum SearchJSON {
    struct User: Encodable {
        let login: String, id: Int64, type: String, score: Double?, htmlUrl: String?, avatarUrl: String?
        init(_ hit: UserHit) {
            (login, id, type, score) = (hit.login, hit.id, hit.type, hit.score)
            (htmlUrl, avatarUrl) = (hit.htmlURL?.absoluteString, hit.avatarURL?.absoluteString)
        }
    }

    struct Users: Encodable {
        let query: String, page: Int, perPage: Int, sort: String?
        let totalCount: Int, incompleteResults: Bool, pageCount: Int, nextPage: Int?, lastPage: Int?
        /// The 1,000-result cap matters for this search.
        let capped: Bool
        let users: [User]
        init(_ p: UserSearchPage) {
            (query, page, perPage, sort) = (p.request.query, p.request.page, p.request.perPage, p.request.sort?.rawValue)
            (totalCount, incompleteResults, pageCount, nextPage, lastPage) = (
                p.totalCount, p.incompleteResults, p.pageCount, p.nextPage, p.lastPage
            )
            capped = p.isCapped
            users = p.users.map(User.init)
        }
    }

    /// The interactive list, as loaded so far.
    struct UserList: Encodable {
        let query: String, perPage: Int, pagesLoaded: Int, totalCount: Int, nextPage: Int?, duplicatesDropped: Int, users: [User]
        init(_ l: UserResultList) {
            (query, perPage, pagesLoaded, totalCount, nextPage) = (l.query, l.perPage, l.pagesLoaded, l.totalCount, l.nextPage)
            (duplicatesDropped, users) = (l.duplicatesDropped, l.users.map(User.init))
        }
    }

    struct Profile: Encodable {
        let login: String, id: Int64, type: String, name: String?, company: String?, blog: String?, location: String?
        let email: String?, bio: String?, publicRepos: Int?, followers: Int?, following: Int?, createdAt: Date?
        let htmlUrl: String?, avatarUrl: String?
        /// `network`, `revalidated` (304) or `memory`.
        let source: String
        init(_ fetched: FetchedUser) {
            let u = fetched.profile
            (login, id, type, name, company, blog, location) = (u.login, u.id, u.type, u.name, u.company, u.blog, u.location)
            (email, bio, publicRepos, followers, following, createdAt) = (
                u.email, u.bio, u.publicRepos, u.followers, u.following, u.createdAt
            )
            (htmlUrl, avatarUrl, source) = (u.htmlURL?.absoluteString, u.avatarURL?.absoluteString, fetched.source.rawValue)
        }
    }

    struct Event: Encodable {
        let id: String, title: String, category: String, district: String, place: String, audience: String
        let fee: String, isFree: Bool, startsOn: Day, endsOn: Day, organization: String, link: String?, imageUrl: String?
        init(_ e: CulturalEvent) {
            (id, title, category, district, place, audience) = (e.id.rawValue, e.title, e.category, e.district, e.place, e.audience)
            (fee, isFree, startsOn, endsOn, organization) = (e.fee, e.isFree, e.startsOn, e.endsOn, e.organization)
            (link, imageUrl) = (e.link?.absoluteString, e.imageURL?.absoluteString)
        }
    }

    struct Events: Encodable {
        let page: Int, perPage: Int, pageCount: Int, total: Int
        /// Nothing imported yet (`hint` says how to import).
        let catalogueEmpty: Bool
        let hint: String?
        let events: [Event]
        init(_ result: EventSearchResult) {
            switch result {
            case .emptyCatalogue(let query):
                (page, perPage, pageCount, total, catalogueEmpty) = (query.effectivePage, query.effectivePerPage, 0, 0, true)
                (hint, events) = (SearchScreen.importHint, [])
            case .page(let p, _):
                (page, perPage, pageCount, total, catalogueEmpty) = (p.page, p.perPage, p.pageCount, p.total, false)
                (hint, events) = (nil, p.events.map(Event.init))
            }
        }
    }

    static func make(_ outcome: SearchViewModel.Outcome) -> any Encodable {
        switch outcome {
        case .users(let page): Users(page)
        case .user(let fetched): Profile(fetched)
        case .events(let result): Events(result)
        case .userList(let list, _, _), .endOfUsers(let list): UserList(list)
        }
    }
}
