import ArchiveInterface
import Foundation
import SharedKit

/// Tickets as JSON or CSV (RFC 4180), for `moa archive export`. Field names are stable:
/// `id, event_id, title, category, district, place, audience, free, attended_on, rating, memo, created_at`.
public enum TicketExport {
    /// One exported ticket (what the JSON holds, and the CSV columns in this order).
    public struct Record: Codable, Sendable, Hashable {
        public let id: String
        public let eventID: String?
        public let title: String
        public let category: String
        public let district: String
        public let place: String
        public let audience: String
        public let free: Bool
        public let attendedOn: String
        public let rating: Int?
        public let memo: String?
        public let createdAt: String

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
            free: Bool, attendedOn: String, rating: Int?, memo: String?, createdAt: String
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
            id = ticket.id.rawValue
            eventID = ticket.eventID?.rawValue
            title = ticket.title
            category = ticket.category
            district = ticket.district
            place = ticket.place
            audience = ticket.audience
            free = ticket.isFree
            attendedOn = ticket.attendedOn.description
            rating = ticket.rating
            memo = ticket.memo
            createdAt = TicketExport.timestamp(ticket.createdAt)
        }

        /// Every field is written, `null` included: the JSON always has the same keys.
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

        /// The CSV cells, in ``header`` order (empty for none).
        var cells: [String] {
            [
                id, eventID ?? "", title, category, district, place, audience, free ? "true" : "false", attendedOn,
                rating.map(String.init) ?? "", memo ?? "", createdAt,
            ]
        }
    }

    /// The CSV header.
    public static let header = Record.CodingKeys.allCases.map(\.rawValue)

    /// RFC 4180: a header line, CRLF line ends, a field quoted when it holds a comma, a quote, CR or
    /// LF (quotes doubled), or starts or ends with a space. A field that starts like a formula is
    /// neutralized first (``neutralized(_:)``). UTF-8, without a byte-order mark unless
    /// `byteOrderMark` (U+FEFF, the bytes EF BB BF: what Excel needs to read Hangul as UTF-8).
    public static func csv(_ tickets: [Ticket], byteOrderMark: Bool = false) -> String {
        (byteOrderMark ? Self.byteOrderMark : "")
            + ([header] + tickets.map { Record($0).cells }).map { $0.map(quoted).joined(separator: ",") + "\r\n" }.joined()
    }

    /// U+FEFF, written in UTF-8 as EF BB BF.
    public static let byteOrderMark = "\u{FEFF}"

    /// A pretty-printed JSON array, keys sorted.
    public static func json(_ tickets: [Ticket]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(tickets.map(Record.init)), as: UTF8.self) + "\n"
    }

    /// The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection"):
    /// `=`, `+`, `-`, `@`, a tab or a carriage return.
    static let formulaLeaders: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// `field` as a spreadsheet shows it but never runs it: a cell that starts like a formula gets a
    /// leading `'` (OWASP's rule), so `=HYPERLINK(…)` in a title or memo stays text in Excel.
    static func neutralized(_ field: String) -> String {
        guard let first = field.first, formulaLeaders.contains(first) else { return field }
        return "'" + field
    }

    static func quoted(_ field: String) -> String {
        let field = neutralized(field)
        let needsQuotes =
            field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            || field.first == " " || field.last == " "
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// ISO 8601, UTC, to the second.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
