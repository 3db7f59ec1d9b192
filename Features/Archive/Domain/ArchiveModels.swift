import ArchiveInterface
import Foundation
import SharedKit

/// One row of a `culturalEventInfo` catalogue as published: every field optional, text as given.
/// (ArchiveData decodes it from a file or the live API; ``EventNormalizer`` cleans it.)
public struct RawEvent: Sendable, Hashable {
    /// CODENAME, e.g. "뮤지컬/오페라".
    public var category: String?
    /// GUNAME, e.g. "종로구".
    public var district: String?
    /// TITLE.
    public var title: String?
    /// DATE, e.g. "2025-05-01~2025-05-31" (used when STRTDATE/END_DATE are missing).
    public var date: String?
    /// PLACE.
    public var place: String?
    /// ORG_NAME.
    public var organization: String?
    /// USE_TRGT.
    public var audience: String?
    /// USE_FEE.
    public var fee: String?
    /// IS_FREE: "무료" or "유료".
    public var isFree: String?
    /// STRTDATE, e.g. "2025-05-01 00:00:00.0".
    public var startDate: String?
    /// END_DATE.
    public var endDate: String?
    /// ORG_LINK.
    public var link: String?
    /// HMPG_ADDR (the culture portal's page; the link when ORG_LINK is missing).
    public var homepage: String?
    /// MAIN_IMG.
    public var image: String?

    public init(
        category: String? = nil, district: String? = nil, title: String? = nil, date: String? = nil, place: String? = nil,
        organization: String? = nil, audience: String? = nil, fee: String? = nil, isFree: String? = nil,
        startDate: String? = nil, endDate: String? = nil, link: String? = nil, homepage: String? = nil, image: String? = nil
    ) {
        self.category = category
        self.district = district
        self.title = title
        self.date = date
        self.place = place
        self.organization = organization
        self.audience = audience
        self.fee = fee
        self.isFree = isFree
        self.startDate = startDate
        self.endDate = endDate
        self.link = link
        self.homepage = homepage
        self.image = image
    }

    /// A row from its fields keyed by the API's names (CODENAME, GUNAME, TITLE, …; any case).
    /// Unknown fields (PLAYER, PROGRAM, LOT, …) are ignored.
    public init(fields: [String: String]) {
        var upper: [String: String] = [:]
        for (key, value) in fields { upper[key.uppercased()] = value }
        self.init(
            category: upper["CODENAME"], district: upper["GUNAME"], title: upper["TITLE"], date: upper["DATE"],
            place: upper["PLACE"], organization: upper["ORG_NAME"], audience: upper["USE_TRGT"], fee: upper["USE_FEE"],
            isFree: upper["IS_FREE"], startDate: upper["STRTDATE"], endDate: upper["END_DATE"], link: upper["ORG_LINK"],
            homepage: upper["HMPG_ADDR"], image: upper["MAIN_IMG"])
    }
}

/// A cleaned event and the natural key its id was hashed from.
public struct CatalogueEntry: Sendable, Hashable {
    public let event: CulturalEvent
    /// Normalised `title · place · start date`: equal keys are the same event.
    public let naturalKey: String

    public init(event: CulturalEvent, naturalKey: String) {
        self.event = event
        self.naturalKey = naturalKey
    }
}

/// Why a row of an import was not used.
public enum SkipReason: Error, Sendable, Hashable, CustomStringConvertible {
    case notAnObject
    case noTitle
    case noStartDate
    case invalidStartDate(String)
    case invalidEndDate(String)
    case endBeforeStart(start: Day, end: Day)
    case duplicate(ofRow: Int)
    /// Two different events hashed to the same id (never seen in practice; reported, not merged).
    case idCollision(EventID)

    public var description: String {
        switch self {
        case .notAnObject: "not a JSON object"
        case .noTitle: "no title"
        case .noStartDate: "no start date"
        case .invalidStartDate(let text): "invalid start date “\(text)”"
        case .invalidEndDate(let text): "invalid end date “\(text)”"
        case .endBeforeStart(let start, let end): "ends (\(end)) before it starts (\(start))"
        case .duplicate(let row): "duplicate of row \(row)"
        case .idCollision(let id): "its id \(id) is taken by another event"
        }
    }

    /// A stable code for `--json`.
    public var code: String {
        switch self {
        case .notAnObject: "not_an_object"
        case .noTitle: "no_title"
        case .noStartDate: "no_start_date"
        case .invalidStartDate: "invalid_start_date"
        case .invalidEndDate: "invalid_end_date"
        case .endBeforeStart: "end_before_start"
        case .duplicate: "duplicate"
        case .idCollision: "id_collision"
        }
    }
}

/// One skipped row (1-based, in the order of the source).
public struct SkippedRow: Sendable, Hashable {
    public let row: Int
    public let title: String?
    public let reason: SkipReason

    public init(row: Int, title: String?, reason: SkipReason) {
        self.row = row
        self.title = title
        self.reason = reason
    }
}

/// What an import did. Every row is counted exactly once: `rows == new + updated + unchanged + skipped.count`.
public struct ImportReport: Sendable, Hashable {
    /// Where the rows came from ("events.json", "Seoul Open Data API, rows 1–3000").
    public let source: String
    public let rows: Int
    public let new: Int
    public let updated: Int
    public let unchanged: Int
    public let skipped: [SkippedRow]
    /// Events in the catalogue after the import.
    public let catalogueCount: Int

    public init(source: String, rows: Int, new: Int, updated: Int, unchanged: Int, skipped: [SkippedRow], catalogueCount: Int) {
        self.source = source
        self.rows = rows
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
        self.catalogueCount = catalogueCount
    }
}

/// How far an import is.
public enum ImportProgress: Sendable, Hashable {
    /// Rows fetched from the live API so far, of the total it announced.
    case fetched(rows: Int, of: Int)
    /// Rows read from a file (decoding done).
    case read(rows: Int)
    /// Events written so far, of those to write (all in one transaction).
    case writing(done: Int, of: Int)
}

/// What the store did with one event.
public enum UpsertOutcome: Sendable, Hashable {
    case inserted
    case updated
    case unchanged
    /// The id exists for another natural key: nothing written for this event.
    case collision
}

/// A ticket: an event the user attended. It keeps a copy of the event's attributes, so the taste
/// card does not change when the catalogue is re-imported, and manual tickets work the same way.
public struct Ticket: Sendable, Hashable {
    public let id: TicketID
    public let owner: UserID
    /// The catalogue event, or `nil` for a ticket added by hand.
    public let eventID: EventID?
    public let title: String
    public let category: String
    public let district: String
    public let place: String
    public let audience: String
    public let isFree: Bool
    public let attendedOn: Day
    /// 1…5, or `nil` when not rated.
    public let rating: Int?
    public let memo: String?
    public let createdAt: Date

    public init(
        id: TicketID, owner: UserID, eventID: EventID?, title: String, category: String, district: String, place: String,
        audience: String, isFree: Bool, attendedOn: Day, rating: Int?, memo: String?, createdAt: Date
    ) {
        self.id = id
        self.owner = owner
        self.eventID = eventID
        self.title = title
        self.category = category
        self.district = district
        self.place = place
        self.audience = audience
        self.isFree = isFree
        self.attendedOn = attendedOn
        self.rating = rating
        self.memo = memo
        self.createdAt = createdAt
    }

    public var summary: TicketSummary {
        TicketSummary(id: id, eventID: eventID, title: title, attendedOn: attendedOn, rating: rating)
    }
}

/// A ticket for something not in the catalogue.
public struct ManualTicket: Sendable, Hashable {
    public var title: String
    public var category: String
    public var district: String
    public var isFree: Bool
    public var attendedOn: Day
    public var rating: Int?
    public var memo: String?

    public init(title: String, category: String, district: String, isFree: Bool, attendedOn: Day, rating: Int? = nil, memo: String? = nil) {
        self.title = title
        self.category = category
        self.district = district
        self.isFree = isFree
        self.attendedOn = attendedOn
        self.rating = rating
        self.memo = memo
    }
}

/// The export formats of `moa archive export`.
public enum ExportFormat: String, Sendable, CaseIterable {
    case json
    case csv
}

/// An export, rendered.
public struct ExportDocument: Sendable, Hashable {
    public let format: ExportFormat
    public let text: String
    public let ticketCount: Int

    public init(format: ExportFormat, text: String, ticketCount: Int) {
        self.format = format
        self.text = text
        self.ticketCount = ticketCount
    }
}

/// Seoul's 25 districts (GUNAME values).
public enum SeoulDistricts {
    public static let all = [
        "강남구", "강동구", "강북구", "강서구", "관악구", "광진구", "구로구", "금천구", "노원구", "도봉구", "동대문구", "동작구", "마포구",
        "서대문구", "서초구", "성동구", "성북구", "송파구", "양천구", "영등포구", "용산구", "은평구", "종로구", "중구", "중랑구",
    ]

    /// "종로" → "종로구"; anything else unchanged.
    public static func normalized(_ name: String) -> String {
        if all.contains(name) { return name }
        if all.contains(name + "구") { return name + "구" }
        return name
    }
}
