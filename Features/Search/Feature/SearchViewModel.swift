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
public final class SearchViewModel: AsyncViewModel {
    public enum Input: Sendable {
        case users(query: String, page: Int, perPage: Int?, sort: UserSearchSort?)
        case user(login: String)
        case events(EventSearchInput)
    }

    public typealias Action = Input

    public enum Outcome: Sendable, Equatable {
        case users(UserSearchPage)
        case user(FetchedUser)
        case events(EventSearchResult)
    }

    public struct State: Sendable {
        public var outcome: Outcome?
        public var error: (any UserFacingError)?
    }

    public private(set) var state = State()
    private let users: UserSearchService
    private let events: EventSearchService

    public nonisolated init(users: UserSearchService, events: EventSearchService) {
        self.users = users
        self.events = events
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State()
        switch action {
        case .users(let query, let page, let perPage, let sort):
            state.outcome = .users(try await users.search(query, page: page, perPage: perPage, sort: sort))
        case .user(let login):
            state.outcome = .user(try await users.user(login))
        case .events(let input):
            state.outcome = .events(try await events.search(input))
        }
    }

    public func handleError(_ error: any Error) {
        state.outcome = nil
        state.error = SearchFailure.wrap(error)
    }
}

/// Errors reaching the screen: the typed ones as they are, anything else as one sentence.
enum SearchFailure: UserFacingError {
    case unexpected(String)

    static func wrap(_ error: any Error) -> any UserFacingError {
        (error as? any UserFacingError) ?? SearchFailure.unexpected(String(describing: error))
    }

    var message: String {
        switch self {
        case .unexpected(let reason): "The search failed: \(reason)."
        }
    }

    var exitStatus: ExitStatus { .software }
}
