import Foundation
import SharedKit

// The meaning of an `EventQuery`, written once: the SQLite catalogue (ArchiveData) builds its SQL
// from these normalised pieces, and `FakeEventCatalogue` (ArchiveTesting) applies `matches(_:)`
// and `precedesInCatalogue(_:)` in memory — so a test against the fake sees what the app sees.
//
// - text: split on whitespace; every word must occur, case-insensitively (Swift `lowercased()`, then
//   UTF-8 bytes, as SQLite's `instr`), in the title, the place or the organisation;
// - district, category: equal to the event's, after trimming the query (blank = no filter);
// - audience: a case-insensitive substring of the event's USE_TRGT (blank = no filter);
// - free: `true` free only, `false` paid only;
// - from/to: the event's [startsOn, endsOn] overlaps [from, to] (either end open);
// - on: the event runs on that day (startsOn <= on <= endsOn, both edges included);
// - order: start date, then title (by UTF-8 bytes, as SQLite's BINARY collation), then id;
// - paging: `page` below 1 reads as 1, `perPage` is clamped to 1…`EventQuery.maxPerPage`.

extension EventQuery {
    /// The most events one page may hold.
    public static let maxPerPage = 200

    /// The lowercased words of `text` (empty: no text filter).
    public var words: [String] {
        (text ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// `district`, trimmed; `nil` when blank.
    public var districtFilter: String? { Self.trimmedNonEmpty(district) }

    /// `category`, trimmed; `nil` when blank.
    public var categoryFilter: String? { Self.trimmedNonEmpty(category) }

    /// `audience`, trimmed and lowercased; `nil` when blank.
    public var audienceFilter: String? { Self.trimmedNonEmpty(audience)?.lowercased() }

    /// The page actually read (1-based).
    public var effectivePage: Int { max(page, 1) }

    /// The page size actually used.
    public var effectivePerPage: Int { min(max(perPage, 1), Self.maxPerPage) }

    /// How many matching events come before the page.
    public var offset: Int {
        let (product, overflow) = (effectivePage - 1).multipliedReportingOverflow(by: effectivePerPage)
        return overflow ? Int.max : product
    }

    /// Whether `event` passes every filter of this query (paging aside).
    public func matches(_ event: CulturalEvent) -> Bool {
        if let districtFilter, event.district != districtFilter { return false }
        if let categoryFilter, event.category != categoryFilter { return false }
        if let free, event.isFree != free { return false }
        if let from, event.endsOn < from { return false }
        if let to, event.startsOn > to { return false }
        if let on, event.startsOn > on || event.endsOn < on { return false }
        if let audienceFilter, !Self.bytes(of: event.audience.lowercased(), contain: audienceFilter) { return false }
        let words = words
        if !words.isEmpty {
            let fields = [event.title.lowercased(), event.place.lowercased(), event.organization.lowercased()]
            for word in words where !fields.contains(where: { Self.bytes(of: $0, contain: word) }) { return false }
        }
        return true
    }

    /// Whether the UTF-8 bytes of `needle` occur in those of `haystack` (as SQLite's `instr`).
    static func bytes(of haystack: String, contain needle: String) -> Bool {
        let hay = Array(haystack.utf8)
        let pin = Array(needle.utf8)
        guard !pin.isEmpty else { return true }
        guard pin.count <= hay.count else { return false }
        for start in 0...(hay.count - pin.count) where hay[start] == pin[0] {
            if hay[start..<(start + pin.count)].elementsEqual(pin) { return true }
        }
        return false
    }

    private static func trimmedNonEmpty(_ value: String?) -> String? {
        guard let value else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension CulturalEvent {
    /// The catalogue order: start date, then title (UTF-8 bytes), then id.
    public func precedesInCatalogue(_ other: CulturalEvent) -> Bool {
        if startsOn != other.startsOn { return startsOn < other.startsOn }
        if !title.utf8.elementsEqual(other.title.utf8) { return title.utf8.lexicographicallyPrecedes(other.title.utf8) }
        return id.rawValue.utf8.lexicographicallyPrecedes(other.id.rawValue.utf8)
    }
}
