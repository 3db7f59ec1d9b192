import ArchiveInterface
import AuthInterface
import Foundation
import SharedKit

/// The ticket use cases: every one acts for the logged-in user, on the user's own tickets.
/// It is also `EventArchiving`, the "archive this event" other features may offer.
public struct ArchiveService: EventArchiving {
    private let tickets: any TicketStore
    private let catalogue: any CatalogueStore
    private let preferenceStore: any PreferenceStore
    private let session: any SessionProvider
    private let clock: any WallClock
    private let timeZone: TimeZone
    private let makeID: @Sendable () -> TicketID

    /// - Parameters:
    ///   - timeZone: where "today" is decided (the user's, by default).
    ///   - makeID: new ticket ids (injected for tests).
    public init(
        tickets: any TicketStore, catalogue: any CatalogueStore, preferences: any PreferenceStore, session: any SessionProvider,
        clock: any WallClock, timeZone: TimeZone = .current, makeID: @escaping @Sendable () -> TicketID = { TicketID.random() }
    ) {
        self.tickets = tickets
        self.catalogue = catalogue
        self.preferenceStore = preferences
        self.session = session
        self.clock = clock
        self.timeZone = timeZone
        self.makeID = makeID
    }

    /// Today, by the injected clock.
    public func today() -> Day { Day(clock.now(), in: timeZone) }

    // MARK: Tickets

    /// Archives a catalogue event. Without `attendedOn`: today, or the event's last day if it is over.
    public func add(eventID reference: String, rating: Int? = nil, memo: String? = nil, attendedOn: Day? = nil) async throws -> Ticket {
        let user = try await session.requireUser()
        let id = EventID(reference.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
        guard !id.rawValue.isEmpty, let event = try await catalogue.event(id: id) else { throw ArchiveError.unknownEvent(reference) }
        let today = today()
        let rating = try TicketRules.rating(rating)
        let memo = try TicketRules.memo(memo)
        let day: Day
        if let attendedOn {
            guard attendedOn <= today else { throw ArchiveError.attendedInFuture(attendedOn, today: today) }
            guard attendedOn >= event.startsOn, attendedOn <= event.endsOn else {
                throw ArchiveError.attendedOutsideRun(attendedOn, title: event.title, startsOn: event.startsOn, endsOn: event.endsOn)
            }
            day = attendedOn
        } else {
            guard event.startsOn <= today else { throw ArchiveError.eventNotStarted(title: event.title, startsOn: event.startsOn) }
            day = min(today, event.endsOn)
        }
        let ticket = Ticket(
            id: makeID(), owner: user.id, eventID: event.id, title: event.title, category: event.category,
            district: event.district, place: event.place, audience: event.audience, isFree: event.isFree,
            attendedOn: day, rating: rating, memo: memo, createdAt: clock.now())
        return try await insert(ticket)
    }

    /// Archives something that is not in the catalogue.
    public func addManual(_ input: ManualTicket) async throws -> Ticket {
        let user = try await session.requireUser()
        let today = today()
        let title = try TicketRules.text(input.title, field: "title", limit: 200)
        let category = try TicketRules.text(input.category, field: "category", limit: 40)
        let district = SeoulDistricts.normalized(try TicketRules.text(input.district, field: "region", limit: 40))
        guard input.attendedOn <= today else { throw ArchiveError.attendedInFuture(input.attendedOn, today: today) }
        let ticket = Ticket(
            id: makeID(), owner: user.id, eventID: nil, title: title, category: category, district: district, place: "",
            audience: "", isFree: input.isFree, attendedOn: input.attendedOn, rating: try TicketRules.rating(input.rating),
            memo: try TicketRules.memo(input.memo), createdAt: clock.now())
        return try await insert(ticket)
    }

    /// The user's tickets, most recently attended first.
    public func list() async throws -> [Ticket] {
        try await tickets.tickets(of: try await session.requireUser().id)
    }

    /// Removes one of the user's tickets, named by its id or a unique prefix of it (4 characters or more).
    public func remove(_ reference: String) async throws -> Ticket {
        let user = try await session.requireUser()
        let ticket = try Self.find(reference, in: try await tickets.tickets(of: user.id))
        guard try await tickets.delete(ticket.id, of: user.id) else { throw ArchiveError.unknownTicket(reference) }
        return ticket
    }

    // MARK: Taste and recommendations

    public func taste() async throws -> TasteProfile {
        TasteProfile.make(tickets: try await list(), today: today())
    }

    /// Current and upcoming events the user has not archived. With fewer than
    /// ``Recommender/coldStartTickets`` tickets and preferences set: from the preferences alone; else
    /// ranked by the taste card, boosted (boundedly) by the preferences when set.
    public func recommend(limit: Int = 10) async throws -> RecommendationList {
        guard Self.recommendationLimits.contains(limit) else { throw ArchiveError.invalidLimit(limit, range: Self.recommendationLimits) }
        let user = try await session.requireUser()
        let mine = try await tickets.tickets(of: user.id)
        let chosen = try await preferenceStore.preferences(of: user.id)
        let today = today()
        let profile = TasteProfile.make(tickets: mine, today: today)
        if mine.count < Recommender.coldStartTickets, let chosen {
            let candidates = try await catalogue.events(endingOnOrAfter: today)
            let items = Recommender.recommend(preferences: chosen, tickets: mine, candidates: candidates, today: today, limit: limit)
            return RecommendationList(
                status: items.isEmpty ? .noCandidates : .ok, profile: profile, items: items, basis: .preferences,
                preferences: chosen)
        }
        guard !mine.isEmpty else { return RecommendationList(status: .noTickets, profile: profile, items: []) }
        let candidates = try await catalogue.events(endingOnOrAfter: today)
        let items = Recommender.recommend(profile: profile, tickets: mine, candidates: candidates, limit: limit, preferences: chosen)
        return RecommendationList(
            status: items.isEmpty ? .noCandidates : .ok, profile: profile, items: items,
            basis: chosen == nil ? .taste : .blended, preferences: chosen)
    }

    public static let recommendationLimits = 1...100

    // MARK: Preferences

    /// The user's preferences, or `nil` when none are set.
    public func preferences() async throws -> ArchivePreferences? {
        try await preferenceStore.preferences(of: try await session.requireUser().id)
    }

    /// Sets the user's preferences from comma-separated lists: 1–3 of Seoul's 25 districts and 1–3 of the
    /// catalogue's categories (see ``PreferenceInput``), known before any import. Replaces what was set before.
    public func setPreferences(districts: String, categories: String) async throws -> ArchivePreferences {
        let user = try await session.requireUser()
        let districts = try PreferenceInput.districts(districts)
        let categories = try PreferenceInput.categories(
            categories, available: CultureCategories.merged(with: try await catalogue.categories()))
        let preferences = ArchivePreferences(districts: districts, categories: categories, updatedAt: clock.now())
        try await preferenceStore.save(preferences, of: user.id, at: clock.now())
        return preferences
    }

    /// Removes the user's preferences; `false` when none were set.
    public func clearPreferences() async throws -> Bool {
        try await preferenceStore.clear(of: try await session.requireUser().id)
    }

    /// What may be chosen: the districts (always 25) and the categories (the catalogue's, and any other
    /// the imported events use).
    public func preferenceChoices() async throws -> (districts: [String], categories: [String]) {
        (SeoulDistricts.romanised.map(\.name), CultureCategories.merged(with: try await catalogue.categories()))
    }

    // MARK: Export

    /// Your tickets as `format`; `byteOrderMark`: a CSV starts with U+FEFF (for Excel), JSON never does.
    public func export(_ format: ExportFormat, byteOrderMark: Bool = false) async throws -> ExportDocument {
        let mine = try await list()
        let text =
            switch format {
            case .csv: TicketExport.csv(mine, byteOrderMark: byteOrderMark)
            case .json: try TicketExport.json(mine)
            }
        return ExportDocument(format: format, text: text, ticketCount: mine.count)
    }

    // MARK: EventArchiving

    public func archive(_ event: EventID, rating: Int?, memo: String?, attendedOn: Day?) async throws -> TicketSummary {
        try await add(eventID: event.rawValue, rating: rating, memo: memo, attendedOn: attendedOn).summary
    }

    // MARK: Rules

    private func insert(_ ticket: Ticket) async throws -> Ticket {
        do {
            return try await tickets.insert(ticket)
        } catch is DuplicateTicket {
            throw ArchiveError.alreadyArchived(title: ticket.title, on: ticket.attendedOn)
        }
    }

    static func find(_ reference: String, in tickets: [Ticket]) throws(ArchiveError) -> Ticket {
        let wanted = reference.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if let exact = tickets.first(where: { $0.id.rawValue == wanted }) { return exact }
        guard wanted.count >= 4 else { throw .unknownTicket(reference) }
        let matching = tickets.filter { $0.id.rawValue.hasPrefix(wanted) }
        guard let first = matching.first else { throw .unknownTicket(reference) }
        guard matching.count == 1 else { throw .ambiguousTicket(reference, matches: matching.count) }
        return first
    }

    /// A date typed by the user: exactly `YYYY-MM-DD`.
    public static func day(_ text: String, field: String) throws(ArchiveError) -> Day {
        do {
            return try TicketRules.day(text.trimmingCharacters(in: .whitespaces), field: field)
        } catch {
            throw .invalidDate(field: field, value: text)
        }
    }
}
