import Foundation
import Registry
import SharedKit

// What other features may use of Archive: the cultural-event catalogue (searched by Search) and
// "archive this event" (offered by other screens).

/// A stable event id: a hash of title, place and start date, so a re-import keeps it.
public enum EventTag {}
public typealias EventID = Identifier<EventTag>

/// One event of the catalogue (Seoul Open Data `culturalEventInfo` shape, cleaned).
public struct CulturalEvent: Sendable, Hashable, Codable {
    public let id: EventID
    public let title: String
    /// CODENAME, e.g. "뮤지컬/오페라", "전시/미술".
    public let category: String
    /// GUNAME, one of Seoul's 25 districts, e.g. "종로구".
    public let district: String
    public let place: String
    /// USE_TRGT, e.g. "누구나", "8세 이상".
    public let audience: String
    /// USE_FEE as published (free text).
    public let fee: String
    public let isFree: Bool
    public let startsOn: Day
    public let endsOn: Day
    public let organization: String
    public let link: URL?
    public let imageURL: URL?

    public init(
        id: EventID, title: String, category: String, district: String, place: String, audience: String,
        fee: String, isFree: Bool, startsOn: Day, endsOn: Day, organization: String, link: URL?, imageURL: URL?
    ) {
        self.id = id
        self.title = title
        self.category = category
        self.district = district
        self.place = place
        self.audience = audience
        self.fee = fee
        self.isFree = isFree
        self.startsOn = startsOn
        self.endsOn = endsOn
        self.organization = organization
        self.link = link
        self.imageURL = imageURL
    }
}

/// A catalogue search: every filter is optional; results are sorted by start date (then title).
public struct EventQuery: Sendable, Hashable {
    /// Words that must all appear in the title, place or organisation (case-insensitive).
    public var text: String?
    public var district: String?
    public var category: String?
    /// Matched as a substring of USE_TRGT.
    public var audience: String?
    /// `true`: free only; `false`: paid only; `nil`: both.
    public var free: Bool?
    /// Events overlapping [from, to] (either end open).
    public var from: Day?
    public var to: Day?
    /// Events running on this day (`startsOn <= on <= endsOn`); combines with every other filter.
    public var on: Day?
    /// 1-based.
    public var page: Int
    public var perPage: Int

    public init(
        text: String? = nil, district: String? = nil, category: String? = nil, audience: String? = nil,
        free: Bool? = nil, from: Day? = nil, to: Day? = nil, on: Day? = nil, page: Int = 1, perPage: Int = 20
    ) {
        self.text = text
        self.district = district
        self.category = category
        self.audience = audience
        self.free = free
        self.from = from
        self.to = to
        self.on = on
        self.page = page
        self.perPage = perPage
    }
}

/// One page of results and the total number of matches.
public struct EventPage: Sendable, Hashable {
    public let events: [CulturalEvent]
    public let total: Int
    public let page: Int
    public let perPage: Int

    public init(events: [CulturalEvent], total: Int, page: Int, perPage: Int) {
        self.events = events
        self.total = total
        self.page = page
        self.perPage = perPage
    }

    public var pageCount: Int { total == 0 ? 0 : (total + perPage - 1) / perPage }
}

/// The imported catalogue, read-only.
public protocol EventCatalogue: Sendable {
    func search(_ query: EventQuery) async throws -> EventPage
    func event(id: EventID) async throws -> CulturalEvent?
    /// How many events the catalogue holds (0: nothing imported yet).
    func count() async throws -> Int
}

/// A ticket: an event the user attended, archived.
public enum TicketTag {}
public typealias TicketID = Identifier<TicketTag>

public struct TicketSummary: Sendable, Hashable, Codable {
    public let id: TicketID
    public let eventID: EventID?
    public let title: String
    public let attendedOn: Day
    public let rating: Int?

    public init(id: TicketID, eventID: EventID?, title: String, attendedOn: Day, rating: Int?) {
        self.id = id
        self.eventID = eventID
        self.title = title
        self.attendedOn = attendedOn
        self.rating = rating
    }
}

/// "Archive this event" for the logged-in user (a starter other features' screens may offer).
public protocol EventArchiving: Sendable {
    func archive(_ event: EventID, rating: Int?, memo: String?, attendedOn: Day?) async throws -> TicketSummary
}

public enum EventCatalogueKey: ServiceKey { public typealias Service = any EventCatalogue }
public enum EventArchivingKey: ServiceKey { public typealias Service = any EventArchiving }

/// The archive's entry in the interactive home, by name: another feature's flow leads into it with
/// `Screen.open(ArchiveHomeLink.id)` (Search does after "archive this event").
public enum ArchiveHomeLink {
    public static let id = "archive"
}
