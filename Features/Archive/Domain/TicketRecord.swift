import Foundation

/// A ticket as JSON shows it — the one shape of `moa archive tickets/add/remove --json`,
/// `moa archive export --format json` (and the CSV's columns, in this order), and the API's
/// `ArchiveTicket` (docs/api/openapi.yaml names this type on the schema). Every key is written,
/// `null` included, so a script always finds the same keys.
public struct TicketRecord: Codable, Sendable, Hashable {
    public var id: String
    /// The catalogue event; `nil` for a ticket added by hand.
    public var eventID: String?
    public var title: String
    public var category: String
    public var district: String
    public var place: String
    public var audience: String
    public var free: Bool
    /// `YYYY-MM-DD`.
    public var attendedOn: String
    public var rating: Int?
    public var memo: String?
    public var createdAt: Date

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case eventID = "event_id"
        case title, category, district, place, audience, free
        case attendedOn = "attended_on"
        case rating, memo
        case createdAt = "created_at"
    }

    public init(
        id: String, eventID: String?, title: String, category: String, district: String, place: String, audience: String,
        free: Bool, attendedOn: String, rating: Int?, memo: String?, createdAt: Date
    ) {
        self.id = id
        self.eventID = eventID
        self.title = title
        self.category = category
        self.district = district
        self.place = place
        self.audience = audience
        self.free = free
        self.attendedOn = attendedOn
        self.rating = rating
        self.memo = memo
        self.createdAt = createdAt
    }

    public init(_ ticket: Ticket) {
        self.init(
            id: ticket.id.rawValue, eventID: ticket.eventID?.rawValue, title: ticket.title, category: ticket.category,
            district: ticket.district, place: ticket.place, audience: ticket.audience, free: ticket.isFree,
            attendedOn: ticket.attendedOn.description, rating: ticket.rating, memo: ticket.memo, createdAt: ticket.createdAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(eventID, forKey: .eventID)
        try container.encode(title, forKey: .title)
        try container.encode(category, forKey: .category)
        try container.encode(district, forKey: .district)
        try container.encode(place, forKey: .place)
        try container.encode(audience, forKey: .audience)
        try container.encode(free, forKey: .free)
        try container.encode(attendedOn, forKey: .attendedOn)
        try container.encode(rating, forKey: .rating)
        try container.encode(memo, forKey: .memo)
        try container.encode(createdAt, forKey: .createdAt)
    }
}
