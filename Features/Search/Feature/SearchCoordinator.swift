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
        case users(query: String, page: Int)
        case user(login: String)
        case eventFilters
        case events(EventSearchInput)
        case event(CulturalEvent)
    }

    let router = Router(root: Route.menu)
    private let screen: Screen
    private let viewModel: SearchViewModel
    private let archiving: any EventArchiving

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
        case .users(let query, let page): await users(query, page: page)
        case .user(let login): await user(login)
        case .eventFilters: eventFilters()
        case .events(let input): await events(input)
        case .event(let event): await eventDetail(event)
        }
    }

    private func menu() -> Navigation<Route> {
        let choice = screen.choose(text("Search", "검색"), [text("Users (GitHub-compatible API)", "사용자 (GitHub 호환 API)"),
                                                             text("Cultural events", "문화 행사")])
        switch choice {
        case 0?: return .push(.userQuery)
        case 1?: return .push(.eventFilters)
        default: return .finish
        }
    }

    private func userQuery() -> Navigation<Route> {
        guard let query = screen.ask(text("Search users for:", "사용자 검색어:")), !query.isEmpty else { return .pop }
        return .replace(.users(query: query, page: 1))
    }

    private func users(_ query: String, page: Int) async -> Navigation<Route> {
        guard case .users(let result)? = await send(.users(query: query, page: page, perPage: nil, sort: nil)) else { return .pop }
        screen.show(SearchScreen.users(result, theme: screen.theme))
        let hasNext = result.nextPage.map { ($0 - 1) * result.request.perPage < UserSearchPage.resultCap } ?? false
        let options = result.users.map { SearchScreen.clean($0.login) } + (hasNext ? [text("Next page", "다음 페이지")] : [])
        guard let choice = screen.choose(text("Show a user", "사용자 보기"), options) else { return .pop }
        if choice < result.users.count { return .push(.user(login: result.users[choice].login)) }
        return .replace(.users(query: query, page: page + 1))
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
        let options = page.events.map { "\(SearchScreen.dates($0)) · \(SearchScreen.clean($0.title))" } + (hasNext ? [text("Next page", "다음 페이지")] : [])
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
            screen.say(screen.theme.paint(text("Archived “\(SearchScreen.clean(ticket.title))” (attended \(ticket.attendedOn)).",
                                               "“\(SearchScreen.clean(ticket.title))”을(를) 보관했습니다(관람일 \(ticket.attendedOn))."), .success))
        } catch {
            screen.showError(SearchFailure.wrap(error))
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
