import ArchiveInterface
import Foundation
import Registry
import SettingsInterface
import SharedKit

/// What `moa search events` asks for, as typed: every filter optional, dates as text.
public struct EventSearchInput: Sendable, Hashable {
    public var text: String?
    public var region: String?
    public var category: String?
    public var audience: String?
    public var free: Bool
    public var paid: Bool
    public var from: String?
    public var to: String?
    /// Events running on this day (YYYY-MM-DD).
    public var on: String?
    public var page: Int

    public init(
        text: String? = nil, region: String? = nil, category: String? = nil, audience: String? = nil,
        free: Bool = false, paid: Bool = false, from: String? = nil, to: String? = nil, on: String? = nil, page: Int = 1
    ) {
        self.text = text
        self.region = region
        self.category = category
        self.audience = audience
        self.free = free
        self.paid = paid
        self.from = from
        self.to = to
        self.on = on
        self.page = page
    }
}

/// The outcome of an event search.
public enum EventSearchResult: Sendable, Equatable {
    /// Nothing has been imported yet: there is nothing to search.
    case emptyCatalogue(EventQuery)
    /// A page of matches, sorted by start date (possibly empty: nothing matches, or past the last page).
    case page(EventPage, EventQuery)
}

/// Searches the cultural-event catalogue that Archive imported, through `ArchiveInterface` only.
/// Validates the filters first (a bad date names the value; `--free` with `--paid` is refused);
/// the page size is the `display.page-size` setting.
public struct EventSearchService: Sendable {
    private let catalogue: any EventCatalogue
    private let settings: any SettingsReader

    public init(catalogue: any EventCatalogue, settings: any SettingsReader) {
        self.catalogue = catalogue
        self.settings = settings
    }

    public func search(_ input: EventSearchInput) async throws -> EventSearchResult {
        var query = try Self.query(from: input)
        query.perPage = min(max(try await settings.snapshot().pageSize, 1), EventQuery.maxPerPage)
        let page = try await catalogue.search(query)
        if page.total == 0, try await catalogue.count() == 0 { return .emptyCatalogue(query) }
        return .page(page, query)
    }

    /// The catalogue query for `input` (its page size left at the default), or the usage error.
    public static func query(from input: EventSearchInput) throws(SearchError) -> EventQuery {
        guard !(input.free && input.paid) else { throw .freeAndPaid }
        guard input.page >= 1 else { throw .invalidPage(input.page) }
        let from = try day(input.from, option: "--from")
        let to = try day(input.to, option: "--to")
        if let from, let to, from > to { throw .invertedDates(from: from, to: to) }
        let on = try day(input.on, option: "--on")
        return EventQuery(
            text: blankIsNil(input.text), district: blankIsNil(input.region), category: blankIsNil(input.category),
            audience: blankIsNil(input.audience), free: input.free ? true : (input.paid ? false : nil),
            from: from, to: to, on: on, page: input.page)
    }

    private static func day(_ text: String?, option: String) throws(SearchError) -> Day? {
        guard let text = blankIsNil(text) else { return nil }
        guard text.count == 10, let day = Day(text) else { throw .invalidDate(option: option, value: text) }
        return day
    }

    private static func blankIsNil(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}

/// The event search use case, for Search's commands and screens.
public enum EventSearchServiceKey: ServiceKey { public typealias Service = EventSearchService }
