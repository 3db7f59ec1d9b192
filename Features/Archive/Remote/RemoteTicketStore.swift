import APIClient
import ArchiveAPI
import ArchiveDomain
import ArchiveInterface
import Foundation
import SharedKit

/// Archive's tickets when `moa` is a client of `moa-server`: the logged-in user's tickets live on the
/// server, so they follow the user to every machine. ``ArchiveService`` above it is unchanged: it
/// checks an event against this machine's catalogue and hands the server a copy of its details.
///
/// What the server answers is checked by the same rules before anyone sees it (``TicketRules``): a
/// ticket with a control character in its title, or a rating of 9, is an answer this client does not
/// understand, never text on a terminal.
public struct RemoteTicketStore: TicketStore {
    /// Calls that carry the session.
    let api: RemoteAPI

    public init(api: RemoteAPI) { self.api = api }

    /// Sends the ticket's details; the server gives it its id and creation time, and stores it for
    /// the session's user (``ArchiveService`` names that user as `ticket.owner`).
    public func insert(_ ticket: Ticket) async throws -> Ticket {
        let body = Components.Schemas.NewTicket(
            eventId: ticket.eventID?.rawValue, title: ticket.title, category: ticket.category, district: ticket.district,
            place: ticket.place, audience: ticket.audience, free: ticket.isFree, attendedOn: ticket.attendedOn.description,
            rating: ticket.rating, memo: ticket.memo)
        do {
            return try await api.call { client in
                guard case .created(let created) = try await client.addTicket(body: .json(body)) else {
                    throw RemoteAPI.unexpected("the ticket")
                }
                return try Self.ticket(try created.body.json, owner: ticket.owner)
            }
        } catch let problem as RemoteProblem where problem.status == 409 && problem.type == "conflict" {
            throw DuplicateTicket()
        }
    }

    public func tickets(of owner: UserID) async throws -> [Ticket] {
        try await api.call { client in
            guard case .ok(let ok) = try await client.listTickets() else { throw RemoteAPI.unexpected("the tickets") }
            return try ok.body.json.map { try Self.ticket($0, owner: owner) }
        }
    }

    public func delete(_ id: TicketID, of owner: UserID) async throws -> Bool {
        do {
            return try await api.call { client in
                guard case .noContent = try await client.deleteTicket(path: .init(ticketId: id.rawValue)) else {
                    throw RemoteAPI.unexpected("the ticket")
                }
                return true
            }
        } catch let problem as RemoteProblem where problem.status == 404 {
            return false
        }
    }

    /// A ticket from the server, held to the rules of one this machine stores.
    static func ticket(_ wire: TicketRecord, owner: UserID) throws -> Ticket {
        guard let attendedOn = try? TicketRules.day(wire.attendedOn, field: "attended_on"), TicketRules.isTicketID(wire.id) else {
            throw RemoteAPI.unexpected("a ticket")
        }
        let draft = TicketDraft(
            eventID: wire.eventID.map { EventID($0) }, title: wire.title, category: wire.category, district: wire.district,
            place: wire.place, audience: wire.audience, isFree: wire.free, attendedOn: attendedOn, rating: wire.rating, memo: wire.memo)
        // The server's day may be ahead of this machine's: any day a ticket can carry is accepted here.
        // A ticket the rules would change (a control character they would drop) is not one a Moa server stores.
        guard
            let ticket = try? TicketRules.received(
                draft, id: TicketID(wire.id), owner: owner, createdAt: wire.createdAt, latestDay: Day(.distantFuture, in: .gmt)),
            TicketDraft(ticket) == draft
        else { throw RemoteAPI.unexpected("a ticket") }
        return ticket
    }
}

extension RemoteAPI {
    /// One call of ArchiveAPI's generated client, on this API's server, connections and credentials.
    func call<T: Sendable>(_ work: @escaping @Sendable (Client) async throws -> T) async throws -> T {
        let client = Client(serverURL: address.url, configuration: .moa, transport: transport, middlewares: middlewares)
        return try await call { try await work(client) }
    }
}
