import ArchiveInterface
import SharedKit

/// An `EventArchiving` for other features' tests and Examples: records every request and answers
/// with a ticket summary (titled from `catalogue` when the event is there), or throws what it was told to.
public final class FakeEventArchiving: EventArchiving {
    /// One call of `archive`.
    public struct Request: Sendable, Hashable {
        public let event: EventID
        public let rating: Int?
        public let memo: String?
        public let attendedOn: Day?
    }

    private struct State {
        var requests: [Request] = []
        var failure: (any Error & Sendable)?
    }

    private let state = Locked(State())
    private let catalogue: FakeEventCatalogue?
    private let today: Day

    /// - Parameters:
    ///   - catalogue: where titles come from (`nil`: the summary's title is the event id).
    ///   - today: the attended day when none is given.
    public init(catalogue: FakeEventCatalogue? = nil, today: Day) {
        self.catalogue = catalogue
        self.today = today
    }

    /// Every request so far, in order.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// Makes `archive` throw `error` from now on (`nil`: succeed again).
    public func fail(with error: (any Error & Sendable)?) {
        state.withLock { $0.failure = error }
    }

    public func archive(_ event: EventID, rating: Int?, memo: String?, attendedOn: Day?) async throws -> TicketSummary {
        let count = try state.withLock { state in
            state.requests.append(Request(event: event, rating: rating, memo: memo, attendedOn: attendedOn))
            if let failure = state.failure { throw failure }
            return state.requests.count
        }
        let title = try await catalogue?.event(id: event)?.title ?? event.rawValue
        return TicketSummary(
            id: TicketID("fake-ticket-\(count)"), eventID: event, title: title, attendedOn: attendedOn ?? today, rating: rating)
    }
}
