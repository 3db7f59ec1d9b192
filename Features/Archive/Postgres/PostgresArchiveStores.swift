import ArchiveDomain
import ArchiveInterface
import Foundation
import Persistence
import PostgresNIO
import PostgresStorage
import Registry
import SharedKit

/// Archive on PostgreSQL, for `moa-server --database`: what the server keeps of Archive — each
/// user's tickets and preferences, never the catalogue, which stays on each machine — and its
/// store keys, which the server's composition (`App/MoaPostgres`'s `PostgresStores`) gathers with
/// the other features'.
public enum ArchivePostgresStores: PostgresFeatureStores {
    /// Archive's per-user schema on PostgreSQL: the tickets and preferences of `ArchiveMigrations`
    /// (SQLite), in one step. Days are `date`; the preference lists `text[]`.
    public static var migrations: PostgresMigrationSet {
        PostgresMigrationSet(
            feature: "Archive",
            steps: [
                .init(
                    "v1-create-tickets-and-preferences",
                    [
                        """
                        CREATE TABLE archive_tickets (
                            id text PRIMARY KEY,
                            owner_id text NOT NULL,
                            event_id text,
                            title text NOT NULL,
                            category text NOT NULL,
                            district text NOT NULL,
                            place text NOT NULL,
                            audience text NOT NULL,
                            is_free boolean NOT NULL,
                            attended_on date NOT NULL,
                            rating integer CHECK (rating BETWEEN 1 AND 5),
                            memo text,
                            created_at timestamptz NOT NULL
                        )
                        """,
                        "CREATE INDEX archive_tickets_by_owner ON archive_tickets (owner_id, attended_on)",
                        // The same event on the same day once per user (a ticket added by hand has no event).
                        """
                        CREATE UNIQUE INDEX archive_tickets_once_a_day ON archive_tickets (owner_id, event_id, attended_on)
                            WHERE event_id IS NOT NULL
                        """,
                        """
                        CREATE TABLE archive_preferences (
                            owner_id text PRIMARY KEY,
                            districts text[] NOT NULL,
                            categories text[] NOT NULL,
                            updated_at timestamptz NOT NULL
                        )
                        """,
                    ])
            ])
    }

    /// Archive's per-user store keys, on `database`: `TicketStoreKey`, `PreferenceStoreKey` and
    /// `ArchiveUserDataStoreKey`.
    public static func providers(_ database: PostgresAppDatabase) -> [Provider] {
        [
            .singleton(TicketStoreKey.self) { PostgresTicketStore(database: database) },
            .singleton(PreferenceStoreKey.self) { PostgresPreferenceStore(database: database) },
            .singleton(ArchiveUserDataStoreKey.self) { PostgresArchiveUserDataStore() },
        ]
    }
}

/// Tickets in PostgreSQL (the same contract as `SQLiteTicketStore`).
struct PostgresTicketStore: TicketStore {
    let database: PostgresAppDatabase

    func insert(_ ticket: Ticket) async throws -> Ticket {
        let inserted = try await database.write { transaction in
            try transaction.rows(
                """
                INSERT INTO archive_tickets
                    (id, owner_id, event_id, title, category, district, place, audience, is_free, attended_on, rating, memo, created_at)
                VALUES (\(ticket.id.rawValue), \(ticket.owner.rawValue), \(ticket.eventID?.rawValue), \(ticket.title), \(ticket.category),
                        \(ticket.district), \(ticket.place), \(ticket.audience), \(ticket.isFree), \(ticket.attendedOn.description)::date,
                        \(ticket.rating), \(ticket.memo), \(ticket.createdAt))
                ON CONFLICT (owner_id, event_id, attended_on) WHERE event_id IS NOT NULL DO NOTHING RETURNING id
                """
            ).count
        }
        guard inserted == 1 else { throw DuplicateTicket() }
        return ticket
    }

    func tickets(of owner: UserID) async throws -> [Ticket] {
        try await database.read { transaction in
            try transaction.rows(
                """
                SELECT id, event_id, title, category, district, place, audience, is_free, to_char(attended_on, 'YYYY-MM-DD'),
                       rating, memo, created_at
                FROM archive_tickets WHERE owner_id = \(owner.rawValue)
                ORDER BY attended_on DESC, created_at DESC, id
                """
            ).map { try Self.ticket($0, owner: owner) }
        }
    }

    func delete(_ id: TicketID, of owner: UserID) async throws -> Bool {
        try await database.write { transaction in
            try transaction.rows(
                "DELETE FROM archive_tickets WHERE id = \(id.rawValue) AND owner_id = \(owner.rawValue) RETURNING id"
            ).count == 1
        }
    }

    private static func ticket(_ row: PostgresRow, owner: UserID) throws -> Ticket {
        let (id, eventID, title, category, district, place, audience, isFree, attended, rating, memo, createdAt) = try row.decode(
            (String, String?, String, String, String, String, String, Bool, String, Int?, String?, Date).self)
        guard let attendedOn = Day(attended) else { throw UnreadableTicketRow(id: id) }
        return Ticket(
            id: TicketID(id), owner: owner, eventID: eventID.map { EventID($0) }, title: title, category: category, district: district,
            place: place, audience: audience, isFree: isFree, attendedOn: attendedOn, rating: rating, memo: memo, createdAt: createdAt)
    }
}

/// A ticket row whose day does not read as one (never written by this code).
struct UnreadableTicketRow: Error, CustomStringConvertible {
    let id: String
    var description: String { "The ticket row \(id) has an unreadable date." }
}

/// Each user's preferences in PostgreSQL: one row per user (the same contract as `SQLitePreferenceStore`).
struct PostgresPreferenceStore: PreferenceStore {
    let database: PostgresAppDatabase

    func preferences(of owner: UserID) async throws -> ArchivePreferences? {
        try await database.read { transaction in
            guard
                let row = try transaction.rows(
                    "SELECT districts, categories, updated_at FROM archive_preferences WHERE owner_id = \(owner.rawValue)"
                ).first
            else { return nil }
            let (districts, categories, updatedAt) = try row.decode(([String], [String], Date).self)
            return ArchivePreferences(districts: districts, categories: categories, updatedAt: updatedAt)
        }
    }

    func save(_ preferences: ArchivePreferences, of owner: UserID, at date: Date) async throws {
        try await database.write { transaction in
            try transaction.execute(
                """
                INSERT INTO archive_preferences (owner_id, districts, categories, updated_at)
                VALUES (\(owner.rawValue), \(preferences.districts), \(preferences.categories), \(date))
                ON CONFLICT (owner_id) DO UPDATE SET districts = excluded.districts, categories = excluded.categories,
                                                     updated_at = excluded.updated_at
                """)
        }
    }

    func clear(of owner: UserID) async throws -> Bool {
        try await database.write { transaction in
            try transaction.rows("DELETE FROM archive_preferences WHERE owner_id = \(owner.rawValue) RETURNING owner_id").count == 1
        }
    }
}

/// Erases a user's Archive rows (tickets, preferences) inside the caller's transaction.
struct PostgresArchiveUserDataStore: ArchiveUserDataStore {
    @discardableResult
    func erase(_ user: UserID, in transaction: any Transaction) throws -> Int {
        let transaction = try PostgresTransaction.open(transaction)
        let tickets = try transaction.rows("DELETE FROM archive_tickets WHERE owner_id = \(user.rawValue) RETURNING id").count
        let preferences = try transaction.rows(
            "DELETE FROM archive_preferences WHERE owner_id = \(user.rawValue) RETURNING owner_id"
        ).count
        return tickets + preferences
    }
}
