import ArchiveDomain
import ArchiveInterface
import Foundation
import GRDB
import SharedKit
import Storage

/// Tickets in SQLite.
public struct SQLiteTicketStore: TicketStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    static let columns =
        "id, owner_id, event_id, title, category, district, place, audience, is_free, attended_on, rating, memo, created_at"

    public func insert(_ ticket: Ticket) async throws -> Ticket {
        do {
            try await database.write { db in
                try db.execute(
                    sql: "INSERT INTO archive_tickets (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    arguments: [
                        ticket.id.rawValue, ticket.owner.rawValue, ticket.eventID?.rawValue, ticket.title, ticket.category, ticket.district,
                        ticket.place, ticket.audience, ticket.isFree, ticket.attendedOn.description, ticket.rating, ticket.memo,
                        ticket.createdAt,
                    ])
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw DuplicateTicket()
        }
        return ticket
    }

    public func tickets(of owner: UserID) async throws -> [Ticket] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.columns) FROM archive_tickets WHERE owner_id = ? ORDER BY attended_on DESC, created_at DESC, id",
                arguments: [owner.rawValue]
            ).map(Self.ticket)
        }
    }

    public func delete(_ id: TicketID, of owner: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM archive_tickets WHERE id = ? AND owner_id = ?", arguments: [id.rawValue, owner.rawValue])
            return db.changesCount == 1
        }
    }

    static func ticket(_ row: Row) throws -> Ticket {
        let attended: String = row["attended_on"]
        guard let attendedOn = Day(attended) else { throw CorruptCatalogueRow(id: row["id"]) }
        let eventID: String? = row["event_id"]
        return Ticket(
            id: TicketID(row["id"] as String), owner: UserID(row["owner_id"] as String), eventID: eventID.map { EventID($0) },
            title: row["title"], category: row["category"], district: row["district"], place: row["place"],
            audience: row["audience"], isFree: row["is_free"], attendedOn: attendedOn, rating: row["rating"], memo: row["memo"],
            createdAt: row["created_at"])
    }
}
