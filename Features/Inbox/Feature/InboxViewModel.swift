import InboxDomain
import SharedKit
import ViewModelKit

/// The inbox screen's view model: `moa inbox …` commands send it inputs and render its state.
@MainActor
public final class InboxViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = "The inbox operation failed"

    public enum Input: Sendable, Equatable {
        /// A page of notices, newest first.
        case list(unreadOnly: Bool, limit: Int, before: String?)
        /// Mark one notice read, by the id the listing shows.
        case read(String)
        /// Mark every unread notice read.
        case readAll
    }

    public typealias Action = Input

    public enum Outcome: Sendable, Equatable {
        case notices(InboxPage, unreadOnly: Bool)
        case read(InboxReadResult)
        case readAll(count: Int)
    }

    public typealias State = OutcomeState<Outcome>

    public private(set) var state = State()
    private let service: any InboxUseCases

    public nonisolated init(service: any InboxUseCases) {
        self.service = service
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State()
        switch action {
        case .list(let unreadOnly, let limit, let before):
            state.outcome = .notices(try await service.list(unreadOnly: unreadOnly, limit: limit, before: before), unreadOnly: unreadOnly)
        case .read(let id):
            state.outcome = .read(try await service.markRead(id))
        case .readAll:
            state.outcome = .readAll(count: try await service.markAllRead())
        }
    }

    public func show(_ error: any UserFacingError) {
        state.fail(with: error)
    }
}
