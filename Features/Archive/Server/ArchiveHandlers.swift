import APIServing
import ArchiveAPI
import ArchiveDomain
import ArchiveInterface
import AuthInterface
import Foundation
import OpenAPIRuntime
import SharedKit

/// The operations of docs/api/openapi.yaml tagged Archive (ArchiveAPI's `APIProtocol`): the request's
/// user's tickets and preferences. What a client sends is checked again here by Archive's own rules
/// (``TicketRules``, ``PreferenceInput``): the server trusts no client to have done it.
public struct ArchiveHandlers: APIProtocol {
    let tickets: any TicketStore
    let preferences: any PreferenceStore
    let session: any SessionProvider
    let clock: any WallClock
    let makeID: @Sendable () -> TicketID
    /// The most tickets one person may keep here.
    let maximumTickets: Int

    public init(
        tickets: any TicketStore, preferences: any PreferenceStore, session: any SessionProvider, clock: any WallClock,
        maximumTickets: Int = TicketRules.maximumPerUser, makeID: @escaping @Sendable () -> TicketID = { TicketID.random() }
    ) {
        self.maximumTickets = maximumTickets
        self.tickets = tickets
        self.preferences = preferences
        self.session = session
        self.clock = clock
        self.makeID = makeID
    }

    /// The latest day a client anywhere may call today: the day in UTC+14, the first time zone to
    /// reach it.
    static let easternmost = TimeZone(secondsFromGMT: 14 * 3_600) ?? .gmt

    public func listTickets(_ input: Operations.ListTickets.Input) async throws -> Operations.ListTickets.Output {
        let user = try await session.requireUser()
        return .ok(.init(body: .json(try await tickets.tickets(of: user.id).map(TicketRecord.init))))
    }

    public func addTicket(_ input: Operations.AddTicket.Input) async throws -> Operations.AddTicket.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let user = try await session.requireUser()
        let (text, label) = (TicketRules.receivedTextLimit, TicketRules.receivedLabelLimit)
        let draft = TicketDraft(
            eventID: try body.eventId.map { EventID(try Bound.text($0, "/event_id", TicketRules.eventIDLimit)) },
            title: try Bound.text(body.title, "/title", text), category: try Bound.text(body.category, "/category", label),
            district: try Bound.text(body.district, "/district", label), place: try Bound.text(body.place, "/place", text),
            audience: try Bound.text(body.audience, "/audience", text), isFree: body.free,
            attendedOn: try TicketRules.day(body.attendedOn, field: "attended_on"),
            rating: body.rating, memo: try body.memo.map { try Bound.text($0, "/memo", TicketRules.memoScalarLimit) })
        let now = clock.now()
        let ticket = try TicketRules.received(
            draft, id: makeID(), owner: user.id, createdAt: now, latestDay: Day(now, in: Self.easternmost))
        guard try await tickets.tickets(of: user.id).count < maximumTickets else {
            throw ArchiveError.tooManyTickets(limit: maximumTickets)
        }
        do {
            return .created(.init(body: .json(TicketRecord(try await tickets.insert(ticket)))))
        } catch is DuplicateTicket {
            throw ArchiveError.alreadyArchived(title: ticket.title, on: ticket.attendedOn)
        }
    }

    public func deleteTicket(_ input: Operations.DeleteTicket.Input) async throws -> Operations.DeleteTicket.Output {
        let user = try await session.requireUser()
        let id = input.path.ticketId
        // Ticket ids are the server's own (lowercase letters, digits, hyphens): anything else names no ticket.
        guard TicketRules.isTicketID(id), try await tickets.delete(TicketID(id), of: user.id)
        else { throw ArchiveError.unknownTicket(String(id.prefix(64))) }
        return .noContent(.init())
    }

    public func getPreferences(_ input: Operations.GetPreferences.Input) async throws -> Operations.GetPreferences.Output {
        let user = try await session.requireUser()
        return .ok(.init(body: .json(.init(try await preferences.preferences(of: user.id)))))
    }

    public func putPreferences(_ input: Operations.PutPreferences.Input) async throws -> Operations.PutPreferences.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let user = try await session.requireUser()
        let (districts, categories) = try PreferenceInput.received(districts: body.districts, categories: body.categories)
        let now = clock.now()
        let chosen = ArchivePreferences(districts: districts, categories: categories, updatedAt: now)
        try await preferences.save(chosen, of: user.id, at: now)
        return .ok(.init(body: .json(.init(chosen))))
    }

    public func clearPreferences(_ input: Operations.ClearPreferences.Input) async throws -> Operations.ClearPreferences.Output {
        let user = try await session.requireUser()
        guard try await preferences.clear(of: user.id) else { throw NoPreferences() }
        return .noContent(.init())
    }
}

/// `DELETE /v1/archive/preferences` when none are set (404 `not-found`).
struct NoPreferences: Error, UserFacingError {
    var message: String { "No preferences are set." }
    var hint: String? { nil }
    var exitStatus: ExitStatus { .unavailable }
}

extension Components.Schemas.ArchivePreferences {
    /// `moa archive preferences --json`'s shape: `set` false and empty lists when none are set.
    init(_ chosen: ArchivePreferences?) {
        self.init(
            set: chosen != nil,
            districts: (chosen?.districts ?? []).map { .init(name: $0, romanized: SeoulDistricts.romanisedName($0)) },
            categories: chosen?.categories ?? [], updatedAt: chosen?.updatedAt)
    }
}
