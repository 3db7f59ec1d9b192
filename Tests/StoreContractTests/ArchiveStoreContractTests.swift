import ArchiveDomain
import ArchiveInterface
import Foundation
import Persistence
import SharedKit
import Testing

// Archive's per-user stores (`TicketStore`, `PreferenceStore`, `ArchiveUserDataStore`) on both
// engines: what ArchiveService relies on, on a home's SQLite file and on `moa-server`'s PostgreSQL.

private let ada = UserID("user-ada")
private let bo = UserID("user-bo")
private let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

private func ticket(
    _ id: String, owner: UserID = ada, event: String? = "e-hamlet", title: String = "연극 '햄릿'", on day: String = "2026-01-10",
    rating: Int? = nil, memo: String? = nil, createdAt: Date = start
) -> Ticket {
    Ticket(
        id: TicketID(id), owner: owner, eventID: event.map { EventID($0) }, title: title, category: "연극", district: "종로구",
        place: "예술의전당", audience: "누구나", isFree: false, attendedOn: Day(day) ?? Day(start, in: .gmt), rating: rating, memo: memo,
        createdAt: createdAt)
}

@Suite("Archive store contract")
struct ArchiveStoreContractTests {
    @Test(arguments: Engine.allCases)
    func aTicketIsKeptAsGivenAndListedMostRecentlyAttendedFirst(_ engine: Engine) async throws {
        try await withStores(engine) { (stores: Stores) async throws in
            let hostile = "tok_'quoted' \"twice\" ☃ \\ ; DROP TABLE archive_tickets; --"
            let stored = [
                ticket("t-1", on: "2026-01-10", rating: 5, memo: hostile),
                ticket("t-2", event: nil, title: "By hand", on: "2026-02-01", createdAt: start.addingTimeInterval(1)),
                ticket("t-3", event: "e-other", on: "2026-02-01", createdAt: start.addingTimeInterval(2)),
                ticket("t-bo", owner: bo),
            ]
            for each in stored { #expect(try await stores.tickets.insert(each) == each) }
            #expect(try await stores.tickets.tickets(of: ada) == [stored[2], stored[1], stored[0]])
            #expect(try await stores.tickets.tickets(of: bo) == [stored[3]])
            #expect(try await stores.tickets.tickets(of: "user-nobody").isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func theSameEventOnTheSameDayIsRefusedOnlyForTheSameOwner(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            _ = try await stores.tickets.insert(ticket("t-1"))
            await #expect(throws: DuplicateTicket.self) { try await stores.tickets.insert(ticket("t-2")) }
            _ = try await stores.tickets.insert(ticket("t-3", on: "2026-01-11"))
            _ = try await stores.tickets.insert(ticket("t-4", owner: bo))
            // Tickets added by hand have no event: any number on one day.
            _ = try await stores.tickets.insert(ticket("t-5", event: nil))
            _ = try await stores.tickets.insert(ticket("t-6", event: nil))
            #expect(try await stores.tickets.tickets(of: ada).map(\.id).sorted() == ["t-1", "t-3", "t-5", "t-6"])
        }
    }

    @Test(arguments: Engine.allCases)
    func aTicketIsDeletedOnlyByItsOwner(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            _ = try await stores.tickets.insert(ticket("t-1"))
            #expect(try await stores.tickets.delete("t-1", of: bo) == false)
            #expect(try await stores.tickets.delete("t-1", of: ada))
            #expect(try await stores.tickets.delete("t-1", of: ada) == false)
            #expect(try await stores.tickets.tickets(of: ada).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func preferencesAreOneSetPerUserReplacedAndCleared(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            #expect(try await stores.preferences.preferences(of: ada) == nil)
            try await stores.preferences.save(
                ArchivePreferences(districts: ["마포구", "종로구"], categories: ["연극"]), of: ada, at: start)
            try await stores.preferences.save(
                ArchivePreferences(districts: ["강남구"], categories: ["콘서트", "전시/미술", "a,\"b\""]), of: ada,
                at: start.addingTimeInterval(60))
            #expect(
                try await stores.preferences.preferences(of: ada)
                    == ArchivePreferences(
                        districts: ["강남구"], categories: ["콘서트", "전시/미술", "a,\"b\""], updatedAt: start.addingTimeInterval(60)))
            #expect(try await stores.preferences.preferences(of: bo) == nil)
            #expect(try await stores.preferences.clear(of: bo) == false)
            #expect(try await stores.preferences.clear(of: ada))
            #expect(try await stores.preferences.preferences(of: ada) == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func erasingAUserRemovesTheirRowsInTheCallersTransactionOnly(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            _ = try await stores.tickets.insert(ticket("t-1"))
            _ = try await stores.tickets.insert(ticket("t-2", event: nil))
            _ = try await stores.tickets.insert(ticket("t-bo", owner: bo))
            try await stores.preferences.save(ArchivePreferences(districts: ["마포구"], categories: ["연극"]), of: ada, at: start)

            struct Later: Error {}
            await #expect(throws: Later.self) {
                try await stores.unitOfWork.perform { transaction in
                    #expect(try stores.archiveUserData.erase(ada, in: transaction) == 3)
                    throw Later()
                }
            }
            #expect(try await stores.tickets.tickets(of: ada).count == 2)

            let removed = try await stores.unitOfWork.perform { transaction in try stores.archiveUserData.erase(ada, in: transaction) }
            #expect(removed == 3)
            #expect(try await stores.tickets.tickets(of: ada).isEmpty)
            #expect(try await stores.preferences.preferences(of: ada) == nil)
            #expect(try await stores.tickets.tickets(of: bo).map(\.id) == ["t-bo"])
            #expect(throws: ForeignTransactionError.self) { try stores.archiveUserData.erase(ada, in: ForeignTransaction()) }
        }
    }
}
