import ArchiveInterface
import CommandKit
import DesignSystem
import Foundation
import SearchDomain
import SearchInterface
import SharedKit

/// Sends one input and renders the outcome with the design system, or as JSON.
enum SearchScreen {
    @MainActor
    static func show(_ input: SearchViewModel.Input, _ environment: SearchEnvironment, _ context: CommandContext) async throws {
        let viewModel = SearchViewModel(users: environment.users, events: environment.events)
        await viewModel.send(input)
        let state = viewModel.state
        try context.present(
            state.outcome, error: state.error, json: SearchJSON.make,
            paged: { if case .events = $0 { true } else { false } }
        ) { render($0, theme: context.theme) }
    }

    static func render(_ outcome: SearchViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .users(let page): users(page, theme: theme)
        case .user(let fetched): card(fetched, theme: theme)
        case .events(let result): events(result, theme: theme)
        case .userList(let list, _, _), .endOfUsers(let list): userRows(list, rows: list.users.indices, theme: theme)
        }
    }

    // MARK: The interactive list of users

    /// `“swift” · 40 users loaded of 3,450 · page 2`.
    static func listHeading(_ list: UserResultList) -> String {
        let loaded = "\(SearchError.grouped(list.users.count)) \(list.users.count == 1 ? "user" : "users") loaded"
        return
            "“\(clean(list.query))” · \(loaded) of \(SearchError.grouped(list.totalCount)) · \(list.pagesLoaded) \(list.pagesLoaded == 1 ? "page" : "pages")"
    }

    /// Rows `rows` of the list, numbered from 1 over the whole list; `marked` (the user opened last) gets a "›".
    static func userRows(_ list: UserResultList, rows: Range<Int>, marked: Int? = nil, theme: Theme) -> String {
        var table = Table(
            columns: [.init("#", alignment: .right), .init("Login"), .init("Type"), .init("Profile")],
            emptyMessage: "No users match “\(clean(list.query))”.")
        for index in rows where list.users.indices.contains(index) {
            let user = list.users[index]
            table.append([
                (index == marked ? "› " : "") + String(index + 1), clean(user.login), clean(user.type),
                user.htmlURL.map { clean($0.absoluteString) } ?? "",
            ])
        }
        return theme.paint(listHeading(list), .heading) + "\n" + table.render(theme: theme)
    }

    /// What the list says once it cannot grow.
    static func endNotice(_ list: UserResultList) -> String? {
        switch list.end {
        case nil: nil
        case .lastPage?:
            "That was the last page: all \(SearchError.grouped(list.users.count)) \(list.users.count == 1 ? "user is" : "users are") loaded."
        case .resultCap?: "\(SearchError.capSentence.en) (\(SearchError.grouped(list.users.count)) users loaded)."
        }
    }

    /// The prompt under the list.
    static func listPrompt(_ list: UserResultList) -> String {
        var parts = list.users.isEmpty ? [] : ["1–\(list.users.count): open a user"]
        if list.nextPage != nil { parts.append("n: more") }
        parts.append("0: back")
        return parts.joined(separator: " · ")
    }

    // MARK: Users

    static func users(_ page: UserSearchPage, theme: Theme) -> String {
        let request = page.request
        var table = Table(
            columns: [
                .init("Login"), .init("ID", alignment: .right), .init("Type"), .init("Score", alignment: .right),
                .init("URL"),
            ],
            emptyMessage: "No users match “\(clean(request.query))” on this page.")
        for user in page.users {
            table.append([
                clean(user.login), String(user.id), clean(user.type), user.score.map(score) ?? "",
                user.htmlURL.map { clean($0.absoluteString) } ?? "",
            ])
        }
        var lines = [table.render(theme: theme), "", theme.paint(footer(page), .muted)]
        if page.isCapped { lines.append(theme.paint(SearchError.capSentence.en + ".", .warning)) }
        if page.incompleteResults {
            lines.append(theme.paint("The results may be incomplete: the search timed out on the server.", .warning))
        }
        if let next = page.nextPage, (next - 1) * request.perPage < UserSearchPage.resultCap {
            lines.append(theme.paint("Next: " + nextCommand(request, page: next), .muted))
        }
        return lines.joined(separator: "\n")
    }

    /// `page 2 of 34 · 1,000 of 3,450 shown at most`, or `page 1 of 3 · 45 users`.
    static func footer(_ page: UserSearchPage) -> String {
        let position = "page \(page.request.page) of \(max(page.pageCount, 1))"
        if page.totalCount > UserSearchPage.resultCap {
            return "\(position) · \(SearchError.grouped(page.reachableCount)) of \(SearchError.grouped(page.totalCount)) shown at most"
        }
        return "\(position) · \(SearchError.grouped(page.totalCount)) \(page.totalCount == 1 ? "user" : "users")"
    }

    /// The command that shows page `number` of the same search.
    static func nextCommand(_ request: UserSearchRequest, page number: Int) -> String {
        var words = ["moa", "search", "users", shellQuoted(request.query), "--page", String(number), "--per-page", String(request.perPage)]
        if let sort = request.sort { words += ["--sort", sort.rawValue] }
        return words.joined(separator: " ")
    }

    // MARK: One user

    static func card(_ fetched: FetchedUser, theme: Theme) -> String {
        let user = fetched.profile
        var rows: [KeyValueRows.Row] = [.init("Login", clean(user.login)), .init("ID", String(user.id)), .init("Type", clean(user.type))]
        let optional: [(String, String?)] = [
            ("Name", user.name), ("Company", user.company), ("Location", user.location), ("E-mail", user.email),
            ("Blog", user.blog), ("Bio", user.bio),
            ("Repositories", user.publicRepos.map(SearchError.grouped)), ("Followers", user.followers.map(SearchError.grouped)),
            ("Following", user.following.map(SearchError.grouped)), ("Joined", user.createdAt.map { DateText.day($0, in: .gmt) }),
            ("Profile", user.htmlURL?.absoluteString),
        ]
        rows += optional.compactMap { key, value in value.map { KeyValueRows.Row(key, clean($0)) } }
        let source =
            switch fetched.source {
            case .network: "fetched now"
            case .revalidated: "cached copy, confirmed current by the server (304 Not Modified)"
            case .memory: "from this session's cache, no request sent"
            }
        let lines = KeyValueRows(rows).render(theme: theme).components(separatedBy: "\n") + ["", theme.paint(source, .muted)]
        let title = user.name.map { "\(clean($0)) (\(clean(user.login)))" } ?? clean(user.login)
        return Card(title: title, lines: lines).render(theme: theme)
    }

    // MARK: Events

    /// How to fill an empty catalogue.
    static let importHint =
        "The event catalogue is empty: import one with `moa archive import FILE.json` (Seoul Open Data culturalEventInfo JSON)."

    static func events(_ result: EventSearchResult, theme: Theme) -> String {
        guard case .page(let page, let query) = result else { return theme.paint(importHint, .warning) }
        var table = Table(
            columns: [
                .init("Dates"), .init("Title", maxWidth: 40), .init("District"), .init("Category"),
                .init("Audience", maxWidth: 16), .init("Fee", maxWidth: 20),
            ],
            emptyMessage: "No events match these filters.")
        for event in page.events {
            table.append([
                dates(event), clean(event.title), clean(event.district), clean(event.category), clean(event.audience),
                event.isFree ? "free" : clean(event.fee),
            ])
        }
        var lines = [table.render(theme: theme)]
        if page.total > 0 {
            lines += [
                "",
                theme.paint(
                    "page \(page.page) of \(page.pageCount) · \(SearchError.grouped(page.total)) \(page.total == 1 ? "event" : "events")",
                    .muted),
            ]
            if page.events.isEmpty {
                lines.append(theme.paint("Page \(page.page) is past the last page (\(page.pageCount)).", .warning))
            } else if page.page < page.pageCount {
                lines.append(theme.paint("Next: " + nextEventsCommand(query, page: page.page + 1), .muted))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func eventCard(_ event: CulturalEvent, theme: Theme) -> String {
        let rows: [(String, String?)] = [
            ("Dates", dates(event)), ("Category", event.category), ("District", event.district), ("Place", event.place),
            ("Audience", event.audience), ("Fee", event.isFree ? "free" : event.fee), ("Organiser", event.organization),
            ("Link", event.link?.absoluteString),
        ]
        let lines = KeyValueRows(
            rows.compactMap { key, value in
                value.flatMap { $0.isEmpty ? nil : KeyValueRows.Row(key, clean($0)) }
            }
        ).render(theme: theme).components(separatedBy: "\n")
        return Card(title: clean(event.title), lines: lines).render(theme: theme)
    }

    static func dates(_ event: CulturalEvent) -> String {
        event.startsOn == event.endsOn ? event.startsOn.description : "\(event.startsOn) – \(event.endsOn)"
    }

    /// The command that shows page `number` of the same event search.
    static func nextEventsCommand(_ query: EventQuery, page number: Int) -> String {
        var words = ["moa", "search", "events"]
        let options: [(String, String?)] = [
            ("--text", query.text), ("--region", query.district), ("--category", query.category),
            ("--audience", query.audience), ("--from", query.from?.description), ("--to", query.to?.description),
            ("--on", query.on?.description),
        ]
        for (option, value) in options { if let value { words += [option, shellQuoted(value)] } }
        if let free = query.free { words.append(free ? "--free" : "--paid") }
        return (words + ["--page", String(number)]).joined(separator: " ")
    }

    // MARK: Text helpers

    /// Text from the server, made safe for a terminal: control characters (escape sequences,
    /// newlines) become spaces.
    static func clean(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.properties.generalCategory == .control ? " " : scalar
                }))
    }

    static func score(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// `swift`, `종로구`, or `'swift location:seoul'` (POSIX shell single quotes; shell syntax is ASCII).
    static func shellQuoted(_ text: String) -> String {
        let safe = Set("-_.,:/@+=%")
        if !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || safe.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
