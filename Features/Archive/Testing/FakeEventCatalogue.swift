import ArchiveInterface
import Foundation
import SharedKit

/// An in-memory `EventCatalogue` for other features' tests and Examples (Search's event search).
///
/// It applies the same query semantics as the SQLite catalogue — both use `EventQuery.matches(_:)`,
/// `CulturalEvent.precedesInCatalogue(_:)` and the clamped paging of ArchiveInterface: every word of
/// `text` in the title, place or organisation (case-insensitive); district and category equal;
/// audience a case-insensitive substring; free/paid; date ranges that overlap; sorted by start date,
/// then title, then id; 1-based pages.
///
/// ```swift
/// let catalogue = FakeEventCatalogue([
///     FakeEventCatalogue.event("뮤지컬 〈명성황후〉", category: "뮤지컬/오페라", district: "종로구", starts: "2026-11-10", ends: "2027-01-04"),
/// ])
/// ```
public final class FakeEventCatalogue: EventCatalogue {
    private struct State {
        var events: [EventID: CulturalEvent] = [:]
        var queries: [EventQuery] = []
        var failure: (any Error & Sendable)?
    }

    private let state: Locked<State>

    public init(_ events: [CulturalEvent] = []) {
        var initial = State()
        for event in events { initial.events[event.id] = event }
        state = Locked(initial)
    }

    /// Adds (or replaces, by id) events.
    public func add(_ events: [CulturalEvent]) {
        state.withLock { state in
            for event in events { state.events[event.id] = event }
        }
    }

    /// Every query received by `search`, in order.
    public var queries: [EventQuery] { state.withLock { $0.queries } }

    /// Makes every call throw `error` from now on (`nil`: answer again).
    public func fail(with error: (any Error & Sendable)?) {
        state.withLock { $0.failure = error }
    }

    public func search(_ query: EventQuery) async throws -> EventPage {
        try state.withLock { state in
            state.queries.append(query)
            if let failure = state.failure { throw failure }
            let matching = state.events.values.filter(query.matches).sorted { $0.precedesInCatalogue($1) }
            let page = Array(matching.dropFirst(min(query.offset, matching.count)).prefix(query.effectivePerPage))
            return EventPage(events: page, total: matching.count, page: query.effectivePage, perPage: query.effectivePerPage)
        }
    }

    public func event(id: EventID) async throws -> CulturalEvent? {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.events[id]
        }
    }

    public func count() async throws -> Int {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.events.count
        }
    }

    /// A ready-made event. Dates are `YYYY-MM-DD` (an invalid one reads as 2026-01-01); the id defaults
    /// to a readable one derived from the title and start date (not the real hash: tests that need the
    /// real id import through ArchiveData).
    public static func event(
        _ title: String, id: String? = nil, category: String = "전시/미술", district: String = "종로구",
        place: String = "", audience: String = "누구나", free: Bool = true, fee: String? = nil,
        starts: String = "2026-01-01", ends: String? = nil, organization: String = ""
    ) -> CulturalEvent {
        let fallback = Day(year: 2026, month: 1, day: 1) ?? Day(Date(timeIntervalSince1970: 1_767_225_600), in: .gmt)
        let startsOn = Day(starts) ?? fallback
        let endsOn = ends.flatMap { Day($0) } ?? startsOn
        return CulturalEvent(
            id: EventID(id ?? "\(starts)-\(title)"), title: title, category: category, district: district, place: place,
            audience: audience, fee: fee ?? (free ? "무료" : "유료"), isFree: free, startsOn: startsOn, endsOn: endsOn,
            organization: organization, link: nil, imageURL: nil)
    }
}
