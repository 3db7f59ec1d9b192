import ArchiveInterface
import Foundation
import SharedKit

/// Tickets as JSON or CSV (RFC 4180), for `moa archive export`: ``TicketRecord``'s fields, whose
/// names are stable: `id, event_id, title, category, district, place, audience, free, attended_on,
/// rating, memo, created_at`.
public enum TicketExport {
    /// The CSV header.
    public static let header = TicketRecord.CodingKeys.allCases.map(\.rawValue)

    /// The CSV cells of `ticket`, in ``header`` order (empty for none).
    static func cells(_ ticket: TicketRecord) -> [String] {
        [
            ticket.id, ticket.eventID ?? "", ticket.title, ticket.category, ticket.district, ticket.place, ticket.audience,
            ticket.free ? "true" : "false", ticket.attendedOn, ticket.rating.map(String.init) ?? "", ticket.memo ?? "",
            timestamp(ticket.createdAt),
        ]
    }

    /// RFC 4180: a header line, CRLF line ends, a field quoted when it holds a comma, a quote, CR or
    /// LF (quotes doubled), or starts or ends with a space. A field that starts like a formula is
    /// neutralized first (``neutralized(_:)``). UTF-8, without a byte-order mark unless
    /// `byteOrderMark` (U+FEFF, the bytes EF BB BF: what Excel needs to read Hangul as UTF-8).
    public static func csv(_ tickets: [Ticket], byteOrderMark: Bool = false) -> String {
        (byteOrderMark ? Self.byteOrderMark : "")
            + ([header] + tickets.map { cells(TicketRecord($0)) }).map { $0.map(quoted).joined(separator: ",") + "\r\n" }.joined()
    }

    /// U+FEFF, written in UTF-8 as EF BB BF.
    public static let byteOrderMark = "\u{FEFF}"

    /// A pretty-printed JSON array, keys sorted.
    public static func json(_ tickets: [Ticket]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(tickets.map(TicketRecord.init)), as: UTF8.self) + "\n"
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
