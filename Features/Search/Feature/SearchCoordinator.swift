import ArchiveInterface
import CommandKit
import DesignSystem
import Registry
import SearchDomain
import SearchInterface
import SharedKit
import ViewModelKit

/// Search's entry in the interactive home.
public enum SearchHomeEntryKey: ServiceKey { public typealias Service = HomeEntry }

/// The search flow of the interactive mode: menu → users → a user's card, or menu → events → an
/// event → "archive this event". The coordinator owns the navigation; archiving is Archive's,
/// started only through `EventArchiving` (ArchiveInterface).
///
/// Users have no "archive as favourite": no Interface offers a route or starter for that (Archive's
/// `EventArchiving` takes cultural events only), and Search must not reach into another feature.
/// When one exists (e.g. a favourites starter in an Interface), the user card offers it here.
@MainActor
final class SearchCoordinator: Coordinator {
    enum Route: Hashable, Sendable {
        case menu
        case userQuery
        /// The list of users matching `query`, grown page by page on demand ("n: more").
        case users(query: String)
        case user(login: String)
        case eventFilters
        case events(EventSearchInput)
        case event(CulturalEvent)
    }

    let router = Router(root: Route.menu)
    private let screen: Screen
    private let viewModel: SearchViewModel
    private let archiving: any EventArchiving
    /// The user list's rows shown last and the row opened last: coming back from a user's card shows
    /// the list where it was (`nil`: the next `.users` route starts a new search).
    private var listPosition: (query: String, rows: Range<Int>, opened: Int?)?

    init(screen: Screen, users: UserSearchService, events: EventSearchService, archiving: any EventArchiving) {
        self.screen = screen
        self.viewModel = SearchViewModel(users: users, events: events)
        self.archiving = archiving
    }

    private func text(_ en: String, _ ko: String) -> String { screen.context.text(LocalizedText(en: en, ko: ko)) }

    func show(_ route: Route) async -> Navigation<Route> {
        switch route {
        case .menu: menu()
        case .userQuery: userQuery()
        case .users(let query): await users(query)
        case .user(let login): await user(login)
        case .eventFilters: eventFilters()
        case .events(let input): await events(input)
        case .event(let event): await eventDetail(event)
        }
    }

    private func menu() -> Navigation<Route> {
        let choice = screen.choose(
            text("Search", "검색"),
            [
                text("Users (GitHub-compatible API)", "사용자 (GitHub 호환 API)"),
                text("Cultural events", "문화 행사"),
            ])
        switch choice {
        case 0?: return .push(.userQuery)
        case 1?: return .push(.eventFilters)
        default: return .finish
        }
    }

    private func userQuery() -> Navigation<Route> {
        listPosition = nil
        guard let query = screen.ask(text("Search users for:", "사용자 검색어:")), !query.isEmpty else { return .pop }
        return .replace(.users(query: query))
    }

    /// The users matching `query`: the first page, then one more page each time the person types `n`
    /// at the end of the list (one request at a time; users already listed are dropped), until the
    /// `Link` header has no next page. A failed page leaves the list as it was. A number opens that
    /// user's card; back from the card shows the same rows again, the opened one marked.
    private func users(_ query: String) async -> Navigation<Route> {
        let theme = screen.theme
        if let position = listPosition, position.query == query, let list = viewModel.state.userList, list.query == query {
            screen.show(SearchScreen.userRows(list, rows: position.rows, marked: position.opened, theme: theme))
        } else {
            guard case .userList(let list, _, let dropped)? = await send(.startUsers(query: query)) else { return .pop }
            listPosition = (query, list.users.indices, nil)
            screen.show(rowsWithNotes(list, rows: list.users.indices, dropped: dropped))
        }
        while let list = viewModel.state.userList {
            guard let answer = screen.ask(SearchScreen.listPrompt(list) + " >")?.lowercased() else { return .pop }
            if answer.isEmpty || ["0", "b", "q", "back", "quit"].contains(answer) {
                listPosition = nil
                return .pop
            }
            if ["n", "more", "m"].contains(answer) {
                await more(list)
                continue
            }
            if let number = Int(answer), list.users.indices.contains(number - 1) {
                listPosition?.opened = number - 1
                return .push(.user(login: list.users[number - 1].login))
            }
            screen.say(
                theme.paint(
                    list.users.isEmpty
                        ? text("Type 0 to go back.", "0을 누르면 돌아갑니다.")
                        : text(
                            "Type a number from 1 to \(list.users.count)\(list.nextPage == nil ? "" : ", n for more"), or 0 to go back.",
                            "1부터 \(list.users.count)까지의 번호\(list.nextPage == nil ? "" : ", 더 보려면 n"), 돌아가려면 0을 입력하세요."), .warning))
        }
        return .pop
    }

    /// Loads the next page and shows only the rows it added (the earlier ones are still above).
    private func more(_ list: UserResultList) async {
        let before = list.users.count
        await viewModel.send(.moreUsers)
        if let error = viewModel.state.error {
            screen.showError(error)
            screen.say(
                screen.theme.paint(
                    text(
                        "The \(before) users loaded so far are kept; type n to try again.",
                        "지금까지 불러온 사용자 \(before)명은 그대로입니다. 다시 시도하려면 n을 입력하세요."), .muted))
            return
        }
        switch viewModel.state.outcome {
        case .endOfUsers(let list)?:
            screen.say(screen.theme.paint(SearchScreen.endNotice(list) ?? "", .muted))
        case .userList(let grown, _, let dropped)?:
            let rows = before..<grown.users.count
            listPosition = (grown.query, rows, nil)
            screen.show(rowsWithNotes(grown, rows: rows, dropped: dropped))
        default:
            break
        }
    }

    /// Rows, then what the person should know: duplicates dropped, the end reached, incomplete results.
    private func rowsWithNotes(_ list: UserResultList, rows: Range<Int>, dropped: Int) -> String {
        let theme = screen.theme
        var lines = [SearchScreen.userRows(list, rows: rows, theme: theme)]
        if dropped > 0 {
            lines.append(
                theme.paint(
                    text(
                        "\(dropped) \(dropped == 1 ? "user was" : "users were") already listed and \(dropped == 1 ? "is" : "are") not repeated.",
                        "이미 목록에 있는 사용자 \(dropped)명은 다시 표시하지 않았습니다."), .muted))
        }
        if list.incompleteResults {
            lines.append(theme.paint("The results may be incomplete: the search timed out on the server.", .warning))
        }
        if let end = SearchScreen.endNotice(list), !list.users.isEmpty { lines.append(theme.paint(end, .muted)) }
        return lines.joined(separator: "\n")
    }

    private func user(_ login: String) async -> Navigation<Route> {
        guard case .user(let fetched)? = await send(.user(login: login)) else { return .pop }
        screen.show(SearchScreen.card(fetched, theme: screen.theme))
        _ = screen.ask(text("Press Enter to go back to the results.", "Enter를 누르면 결과로 돌아갑니다."))
        return .pop
    }

    private func eventFilters() -> Navigation<Route> {
        let words = screen.ask(text("Words (optional):", "검색어(선택):"))
        let region = screen.ask(text("District, e.g. 종로구 (optional):", "자치구, 예: 종로구(선택):"))
        let freeOnly = screen.confirm(text("Free events only?", "무료 행사만 볼까요?"))
        return .replace(.events(EventSearchInput(text: words, region: region, free: freeOnly)))
    }

    private func events(_ input: EventSearchInput) async -> Navigation<Route> {
        guard case .events(let result)? = await send(.events(input)) else { return .pop }
        screen.show(SearchScreen.events(result, theme: screen.theme))
        guard case .page(let page, _) = result, !page.events.isEmpty else {
            _ = screen.ask(text("Press Enter to go back.", "Enter를 누르면 돌아갑니다."))
            return .pop
        }
        let hasNext = page.page < page.pageCount
        let options =
            page.events.map { "\(SearchScreen.dates($0)) · \(SearchScreen.clean($0.title))" }
            + (hasNext ? [text("Next page", "다음 페이지")] : [])
        guard let choice = screen.choose(text("Show an event", "행사 보기"), options) else { return .pop }
        if choice < page.events.count { return .push(.event(page.events[choice])) }
        var next = input
        next.page += 1
        return .replace(.events(next))
    }

    private func eventDetail(_ event: CulturalEvent) async -> Navigation<Route> {
        screen.show(SearchScreen.eventCard(event, theme: screen.theme))
        guard screen.choose(text("What next?", "다음 작업"), [text("Archive this event as attended", "관람한 행사로 보관")]) == 0 else { return .pop }
        let rating = screen.ask(text("Rating 1–5 (optional):", "별점 1–5(선택):")).flatMap { Int($0) }
        let memo = screen.ask(text("Memo (optional):", "메모(선택):")).flatMap { $0.isEmpty ? nil : $0 }
        do {
            let ticket = try await archiving.archive(event.id, rating: rating, memo: memo, attendedOn: nil)
            screen.say(
                screen.theme.paint(
                    text(
                        "Archived “\(SearchScreen.clean(ticket.title))” (attended \(ticket.attendedOn)).",
                        "“\(SearchScreen.clean(ticket.title))”을(를) 보관했습니다(관람일 \(ticket.attendedOn))."), .success))
            // Into the same archive the home opens (Archive's entry, by its id in ArchiveInterface).
            if screen.canOpen(ArchiveHomeLink.id),
                screen.choose(
                    text("What next?", "다음 작업"), [text("Open my archive", "내 보관함 열기")], back: text("Back to the events", "행사 목록으로")) == 0
            {
                await screen.open(ArchiveHomeLink.id)
            }
        } catch {
            screen.showError(SearchViewModel.userFacing(error))
        }
        return .pop
    }

    /// Sends an input to the view model; shows its error, if any.
    private func send(_ input: SearchViewModel.Input) async -> SearchViewModel.Outcome? {
        await viewModel.send(input)
        if let error = viewModel.state.error {
            screen.showError(error)
            return nil
        }
        return viewModel.state.outcome
    }
}

enum SearchHome {
    static func entry(users: UserSearchService, events: EventSearchService, archiving: any EventArchiving) -> HomeEntry {
        HomeEntry(title: LocalizedText(en: "Search users and events", ko: "사용자와 행사 검색"), audience: .anyone) { screen in
            let coordinator = await SearchCoordinator(screen: screen, users: users, events: events, archiving: archiving)
            await coordinator.run()
        }
    }
}
