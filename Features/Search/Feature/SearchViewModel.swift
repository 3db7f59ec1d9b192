import ArchiveInterface
import SearchDomain
import SearchInterface
import SharedKit
import ViewModelKit

/// The search screens' view model: `moa search users/user/events` send it inputs and render its
/// state (and so will the interactive mode's search screen).
///
/// "Archive as favourite" from a user result is deliberately absent: Archive's Interface offers
/// `EventArchiving` for cultural events only, and no route or starter for users. Search may only
/// start another feature's flow through that feature's Interface, so the action waits for such a
/// route (e.g. a `FavouriteArchiving` starter in ArchiveInterface); it must not reach into Archive.
@MainActor
public final class SearchViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = "The search failed"

    public enum Input: Sendable {
        case users(query: String, page: Int, perPage: Int?, sort: UserSearchSort?)
        case user(login: String)
        case events(EventSearchInput)
        /// The interactive list: the first page of `query` (the list starts over).
        case startUsers(query: String)
        /// The interactive list: the next page, appended. One request at a time: asking again while a
        /// page is on its way waits for that page instead of sending another request.
        case moreUsers
    }

    public typealias Action = Input

    public enum Outcome: Sendable, Equatable {
        case users(UserSearchPage)
        case user(FetchedUser)
        case events(EventSearchResult)
        /// The interactive list after its first page or a further one: `added` users were new,
        /// `dropped` were already in the list.
        case userList(UserResultList, added: Int, dropped: Int)
        /// More was asked for, but the list has reached its end.
        case endOfUsers(UserResultList)
    }

    public struct State: Sendable {
        public var outcome: Outcome?
        public var error: (any UserFacingError)?
        /// The interactive list of users loaded so far. It survives other inputs (a user's card) and
        /// failed pages, so the person never loses what is already shown.
        public var userList: UserResultList?
    }

    public private(set) var state = State()
    private let users: UserSearchService
    private let events: EventSearchService
    /// The next page on its way, if any (at most one at a time).
    private var pageInFlight: Task<Void, Never>?

    /// Whether a next page is being loaded.
    public var isLoadingMore: Bool { pageInFlight != nil }

    public nonisolated init(users: UserSearchService, events: EventSearchService) {
        self.users = users
        self.events = events
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        if case .moreUsers = action {
            await loadMore()
            return
        }
        state = State(userList: state.userList)
        switch action {
        case .users(let query, let page, let perPage, let sort):
            state.outcome = .users(try await users.search(query, page: page, perPage: perPage, sort: sort))
        case .user(let login):
            state.outcome = .user(try await users.user(login))
        case .events(let input):
            state.outcome = .events(try await events.search(input))
        case .startUsers(let query):
            state.userList = nil
            let list = UserResultList(first: try await users.search(query))
            state.userList = list
            state.outcome = .userList(list, added: list.users.count, dropped: list.duplicatesDropped)
        case .moreUsers:
            break
        }
    }

    /// Loads the next page of the list, or joins the load already under way.
    private func loadMore() async {
        if let pageInFlight {
            await pageInFlight.value
            return
        }
        state.outcome = nil
        state.error = nil
        guard let list = state.userList else { return }
        guard let next = list.nextPage else {
            state.outcome = .endOfUsers(list)
            return
        }
        let users = self.users
        let task = Task { @MainActor [weak self] in
            do {
                let page = try await users.search(list.query, page: next, perPage: list.perPage, sort: list.sort)
                guard let self, var current = self.state.userList, current.query == list.query else { return }
                let droppedBefore = current.duplicatesDropped
                let added = current.append(page)
                self.state.userList = current
                self.state.outcome = .userList(current, added: added, dropped: current.duplicatesDropped - droppedBefore)
            } catch {
                self?.handleError(error)
            }
        }
        pageInFlight = task
        await task.value
        pageInFlight = nil
    }

    public func show(_ error: any UserFacingError) {
        state.outcome = nil
        state.error = error
    }
}
