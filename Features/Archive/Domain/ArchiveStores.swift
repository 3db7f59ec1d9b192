import ArchiveInterface
import Foundation
import Persistence
import Registry
import SharedKit

// Archive's persistence ports: ArchiveData implements each on SQLite, ArchivePostgres the per-user
// ones on PostgreSQL for `moa-server`, ArchiveRemote the per-user ones over HTTP for `moa --server`.

/// The catalogue in storage (ArchiveData implements it on SQLite).
public protocol CatalogueStore: Sendable {
    /// Writes every entry in ONE transaction — new ones inserted, changed ones updated — and says
    /// what happened to each, in order. If anything fails, nothing is written.
    /// `progress` is called with the number of entries handled so far.
    func upsert(_ entries: [CatalogueEntry], at: Date, progress: @escaping @Sendable (Int) -> Void) async throws -> [UpsertOutcome]
    func count() async throws -> Int
    func event(id: EventID) async throws -> CulturalEvent?
    /// The semantics of ``EventQuery`` (see `EventQueryMatching.swift` in ArchiveInterface).
    func search(_ query: EventQuery) async throws -> EventPage
    /// Events still running or yet to come on `day` (`endsOn >= day`), in catalogue order.
    func events(endingOnOrAfter day: Day) async throws -> [CulturalEvent]
    /// The distinct non-empty categories of the imported events, in byte order (empty: nothing imported).
    func categories() async throws -> [String]
}

/// Each user's onboarding preferences (favourite districts and categories), at most one set per user.
public protocol PreferenceStore: Sendable {
    /// The owner's preferences, or `nil` when none are set.
    func preferences(of owner: UserID) async throws -> ArchivePreferences?
    /// Replaces the owner's preferences.
    func save(_ preferences: ArchivePreferences, of owner: UserID, at: Date) async throws
    /// Removes the owner's preferences; `false` when there were none.
    func clear(of owner: UserID) async throws -> Bool
}

/// Everything Archive keeps per user (tickets, preferences), erased inside the caller's transaction
/// when the user is deleted (`moa auth delete`). The catalogue is shared and stays.
public protocol ArchiveUserDataStore: Sendable {
    /// Deletes every row of `user`; returns how many rows went.
    @discardableResult
    func erase(_ user: UserID, in transaction: any Transaction) throws -> Int
}

/// Tickets in storage.
public protocol TicketStore: Sendable {
    /// Inserts a ticket and returns it as stored; throws ``DuplicateTicket`` when the owner already
    /// archived that event on that day. A local store keeps it as given; the server's (ArchiveRemote)
    /// gives it the server's id and creation time.
    func insert(_ ticket: Ticket) async throws -> Ticket
    /// The owner's tickets, most recently attended first (then most recently added).
    func tickets(of owner: UserID) async throws -> [Ticket]
    /// Deletes the owner's ticket; `false` when the owner has no such ticket.
    func delete(_ id: TicketID, of owner: UserID) async throws -> Bool
}

/// The same event archived twice on the same day.
public struct DuplicateTicket: Error, Equatable {
    public init() {}
}

public enum CatalogueStoreKey: ServiceKey { public typealias Service = any CatalogueStore }
public enum TicketStoreKey: ServiceKey { public typealias Service = any TicketStore }
public enum PreferenceStoreKey: ServiceKey { public typealias Service = any PreferenceStore }
public enum ArchiveUserDataStoreKey: ServiceKey { public typealias Service = any ArchiveUserDataStore }
