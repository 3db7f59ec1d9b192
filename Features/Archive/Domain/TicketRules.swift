import ArchiveInterface
import Foundation
import SharedKit

/// A ticket as a client hands it to the store of another machine (`moa-server`): the event's details
/// copied from the client's catalogue, without the id, owner and creation time the server gives it.
public struct TicketDraft: Sendable, Hashable {
    public let eventID: EventID?
    public let title: String
    public let category: String
    public let district: String
    public let place: String
    public let audience: String
    public let isFree: Bool
    public let attendedOn: Day
    public let rating: Int?
    public let memo: String?

    public init(
        eventID: EventID?, title: String, category: String, district: String, place: String, audience: String, isFree: Bool,
        attendedOn: Day, rating: Int?, memo: String?
    ) {
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
    }

    /// What `ticket` hands over.
    public init(_ ticket: Ticket) {
        self.init(
            eventID: ticket.eventID, title: ticket.title, category: ticket.category, district: ticket.district, place: ticket.place,
            audience: ticket.audience, isFree: ticket.isFree, attendedOn: ticket.attendedOn, rating: ticket.rating, memo: ticket.memo)
    }
}

/// The rules every stored ticket meets, written once: ``ArchiveService`` applies them to what a
/// person types, and the server applies them again to what any client sends (``received(_:id:owner:createdAt:latestDay:)``).
public enum TicketRules {
    /// The longest title of a ticket a person adds by hand.
    public static let titleLimit = 200
    /// The longest category or district a person types.
    public static let labelLimit = 40
    /// The longest catalogue event id.
    public static let eventIDLimit = 64
    /// What a server accepts of a ticket's copied text, in Unicode scalars (not characters: one letter
    /// with 30,000 combining marks is one character): the title, place and audience of any catalogue
    /// event, and its category and district.
    public static let receivedTextLimit = 500
    public static let receivedLabelLimit = 100
    /// The most scalars a memo may have before it is trimmed and counted in characters.
    public static let memoScalarLimit = 2_000
    /// The most tickets a server keeps for one person (a lifetime of outings, not a disk's worth).
    public static let maximumPerUser = 10_000

    /// The ticket a server stores for `owner` from a client's draft: every text field tidied
    /// (``EventNormalizer/tidy(_:)``: control and bidirectional characters dropped, whitespace
    /// collapsed) and bounded in scalars; a title always, and a category and district unless the
    /// ticket copies a catalogue event (whose fields may be empty); a memo as ``memo(_:)``; a rating
    /// of 1–5; an event id of lowercase letters, digits and hyphens; and a day no later than
    /// `latestDay` (the client's "today" may be ahead of the server's: the caller gives the latest
    /// day anywhere). Receiving what it returned changes nothing. The same event on the same day
    /// twice is the store's to refuse.
    public static func received(
        _ draft: TicketDraft, id: TicketID, owner: UserID, createdAt: Date, latestDay: Day
    ) throws(ArchiveError) -> Ticket {
        if let eventID = draft.eventID {
            let text = eventID.rawValue
            guard (1...eventIDLimit).contains(text.unicodeScalars.count), text.unicodeScalars.allSatisfy(isEventIDScalar) else {
                throw .invalidText(field: "event_id", value: String(text.prefix(eventIDLimit)), limit: eventIDLimit)
            }
        }
        guard draft.attendedOn <= latestDay else { throw .attendedInFuture(draft.attendedOn, today: latestDay) }
        guard (draft.memo?.unicodeScalars.count ?? 0) <= memoScalarLimit else { throw .memoTooLong(draft.memo?.count ?? 0) }
        let copied = draft.eventID != nil
        return Ticket(
            id: id, owner: owner, eventID: draft.eventID,
            title: try tidied(draft.title, field: "title", limit: receivedTextLimit, emptyAllowed: false),
            category: try tidied(draft.category, field: "category", limit: receivedLabelLimit, emptyAllowed: copied),
            district: try tidied(draft.district, field: "district", limit: receivedLabelLimit, emptyAllowed: copied),
            place: try tidied(draft.place, field: "place", limit: receivedTextLimit, emptyAllowed: true),
            audience: try tidied(draft.audience, field: "audience", limit: receivedTextLimit, emptyAllowed: true),
            isFree: draft.isFree, attendedOn: draft.attendedOn, rating: try rating(draft.rating), memo: try memo(draft.memo),
            createdAt: createdAt)
    }

    /// 1…5, or none.
    public static func rating(_ rating: Int?) throws(ArchiveError) -> Int? {
        guard let rating else { return nil }
        guard (1...5).contains(rating) else { throw .invalidRating(rating) }
        return rating
    }

    /// Trimmed; empty is none; at most ``ArchiveError/memoLimit`` characters; no control or
    /// bidirectional character (refused, not stripped: what is kept is what the person typed).
    public static func memo(_ memo: String?) throws(ArchiveError) -> String? {
        guard let memo else { return nil }
        let trimmed = memo.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.count <= ArchiveError.memoLimit else { throw .memoTooLong(trimmed.count) }
        if let hostile = trimmed.unicodeScalars.first(where: EventNormalizer.isHostile) { throw .memoCharacter(hostile) }
        return trimmed
    }

    /// One line of 1…`limit` characters once cleaned (``EventNormalizer/clean(_:)``).
    public static func text(_ text: String, field: String, limit: Int) throws(ArchiveError) -> String {
        let cleaned = EventNormalizer.clean(text)
        guard (1...limit).contains(cleaned.count), !text.contains(where: \.isNewline) else {
            throw .invalidText(field: field, value: text.trimmingCharacters(in: .whitespaces), limit: limit)
        }
        return cleaned
    }

    /// One line, tidied, of at most `limit` scalars (and not empty unless `emptyAllowed`).
    public static func tidied(_ text: String, field: String, limit: Int, emptyAllowed: Bool) throws(ArchiveError) -> String {
        let tidy = EventNormalizer.tidy(text)
        guard !text.contains(where: \.isNewline), tidy.unicodeScalars.count <= limit, emptyAllowed || !tidy.isEmpty else {
            throw .invalidText(field: field, value: String(text.trimmingCharacters(in: .whitespaces).prefix(limit)), limit: limit)
        }
        return tidy
    }

    /// A day written exactly `YYYY-MM-DD`, digits where digits go (``Day`` alone also reads
    /// `+202-05-01`): how a person, a client and a server all write one.
    public static func day(_ text: String, field: String) throws(ArchiveError) -> Day {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 10,
            scalars.enumerated().allSatisfy({ index, scalar in
                index == 4 || index == 7 ? scalar == "-" : ("0"..."9").contains(scalar)
            }), let day = Day(text)
        else { throw .invalidDate(field: field, value: String(text.prefix(32))) }
        return day
    }

    /// A ticket id of the server's form: 1–64 lowercase letters, digits and hyphens.
    public static func isTicketID(_ text: String) -> Bool {
        (1...64).contains(text.unicodeScalars.count) && text.unicodeScalars.allSatisfy(isEventIDScalar)
    }

    /// A lowercase ASCII letter, a digit or a hyphen: what catalogue event ids and ticket ids are made of.
    public static func isEventIDScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }
}
