import ArchiveDomain
import ArchiveInterface
import Foundation
import SettingsInterface
import SharedKit
import ViewModelKit

/// The catalogue filters as typed on the command line (`moa archive events`, and Search's `moa search events`).
public struct EventFilters: Sendable, Hashable {
    public var text: String?
    public var region: String?
    public var category: String?
    public var audience: String?
    public var free: Bool?
    public var from: String?
    public var to: String?
    /// Events running on this day (YYYY-MM-DD).
    public var on: String?
    public var page: Int
    /// `nil`: the `display.page-size` setting.
    public var perPage: Int?

    public init(
        text: String? = nil, region: String? = nil, category: String? = nil, audience: String? = nil, free: Bool? = nil,
        from: String? = nil, to: String? = nil, on: String? = nil, page: Int = 1, perPage: Int? = nil
    ) {
        self.text = text
        self.region = region
        self.category = category
        self.audience = audience
        self.free = free
        self.from = from
        self.to = to
        self.on = on
        self.page = page
        self.perPage = perPage
    }

    /// The query, validated: dates are `YYYY-MM-DD` and in order, page ≥ 1, per page 1…200.
    public func query(defaultPerPage: Int) throws(ArchiveError) -> EventQuery {
        let from = try from.map { text throws(ArchiveError) in try ArchiveService.day(text, field: "--from") }
        let to = try to.map { text throws(ArchiveError) in try ArchiveService.day(text, field: "--to") }
        if let from, let to, from > to { throw .invalidDateRange(from: from, to: to) }
        let on = try on.map { text throws(ArchiveError) in try ArchiveService.day(text, field: "--on") }
        guard page >= 1 else { throw .invalidPage(page) }
        let perPage = perPage ?? min(max(defaultPerPage, 1), EventQuery.maxPerPage)
        guard (1...EventQuery.maxPerPage).contains(perPage) else { throw .invalidPerPage(perPage, max: EventQuery.maxPerPage) }
        return EventQuery(
            text: text, district: region.map(SeoulDistricts.normalized), category: category, audience: audience, free: free,
            from: from, to: to, on: on, page: page, perPage: perPage)
    }
}
