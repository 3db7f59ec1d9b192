import APIClient
import APIServing
import APITesting
import ArchiveAPI
import ArchiveData
import ArchiveDomain
import ArchiveInterface
import ArchiveRemote
import ArchiveServer
import AuthInterface
import AuthTesting
import CommandKit
import Foundation
import SharedKit
import Storage
import Testing

private let bo = AuthenticatedUser(id: "user-bo", email: "bo@example.com")

/// One machine running `moa` as a client: its own catalogue (the bundled sample, imported into its
/// own SQLite database) and, through the server, the user's tickets and preferences.
private struct ClientMachine {
    let catalogue: SQLiteCatalogueStore
    let service: ArchiveService

    init(api: RemoteAPI, clock: ManualWallClock, session: FakeSessionProvider) async throws {
        catalogue = SQLiteCatalogueStore(database: try AppDatabase.inMemory(migrations: [ArchiveMigrations.all]))
        _ = try await CatalogueImporter(store: catalogue, clock: clock).run(InMemoryCatalogueSource.sample)
        service = ArchiveService(
            tickets: RemoteTicketStore(api: api), catalogue: catalogue, preferences: RemotePreferenceStore(api: api), session: session,
            clock: clock, timeZone: .gmt)
    }

    /// The id of the sample event titled `title`.
    func eventID(_ title: String) async throws -> String {
        let page = try await catalogue.search(EventQuery(perPage: 200))
        return try #require(page.events.first { $0.title == title }?.id.rawValue, "no event titled \(title)")
    }
}

/// Archive's served half in its own closure: the server's per-user stores (SQLite) behind its
/// handlers (ArchiveServer), and two homes' `ArchiveService`s on the remote stores (ArchiveRemote)
/// over the generated client, joined in one process.
@Suite("Archive · over the wire")
struct ArchiveOverTheWireTests {
    let clock = ManualWallClock(ISO8601DateFormatter().date(from: "2026-11-23T03:00:00Z") ?? Date(timeIntervalSince1970: 0))
    let session = FakeSessionProvider(user: FakeSessionProvider.ada)
    /// Whom the server's requests act for (its bearer check's answer).
    let serverSession = FakeSessionProvider(user: FakeSessionProvider.ada)
    let serverTickets: SQLiteTicketStore
    let api: InProcessAPI

    init() throws {
        let database = try AppDatabase.inMemory(migrations: [ArchiveMigrations.all])
        serverTickets = SQLiteTicketStore(database: database)
        api = InProcessAPI(problems: ProblemCatalog([ArchiveProblems.classifier]), requiresToken: true)
        try ArchiveHandlers(
            tickets: serverTickets, preferences: SQLitePreferenceStore(database: database), session: serverSession, clock: clock
        ).registerHandlers(on: api)
    }

    private func home() async throws -> ClientMachine { try await ClientMachine(api: try api.client(), clock: clock, session: session) }

    /// A script reads a ticket alike from the API, `moa archive tickets --json` and the JSON export:
    /// the same keys, and a ticket added by hand's `event_id`, `rating` and `memo` as `null` in all
    /// three (the API and `--json` used to leave them out, the export wrote them).
    @Test func theAPIMoasJSONAndTheExportShowATicketAlike() async throws {
        let home = try await home()
        _ = try await home.service.addManual(
            ManualTicket(
                title: "Jazz", category: "콘서트", district: "마포구", isFree: true, attendedOn: Day(clock.now(), in: .gmt), rating: nil,
                memo: nil))
        let (status, body) = try await api.get("/v1/archive/tickets")
        #expect(status == .ok)
        let served = try #require((try JSONSerialization.jsonObject(with: body)) as? [NSDictionary])
        let tickets = try await home.service.list()
        let printed = try #require(
            (try JSONSerialization.jsonObject(with: Data(try JSONOutput.encode(tickets.map(TicketRecord.init)).utf8))) as? [NSDictionary])
        let exported = try #require(
            (try JSONSerialization.jsonObject(with: Data(try await home.service.export(.json).text.utf8))) as? [NSDictionary])
        #expect(served.count == 1)
        #expect(served == printed)
        #expect(served == exported)
        #expect(served.first?["event_id"] is NSNull && served.first?["rating"] is NSNull && served.first?["memo"] is NSNull)
    }

    @Test func aTicketArchivedOnOneHomeIsSeenWithItsTasteAndRecommendationsOnAnother() async throws {
        let (first, second) = (try await home(), try await home())
        let hamlet = try await first.service.add(eventID: try await first.eventID("연극 '햄릿'"), rating: 5, memo: "대단했다")
        #expect(hamlet.owner == FakeSessionProvider.ada.id)
        _ = try await first.service.setPreferences(districts: "Jongno-gu, mapo", categories: "연극")

        let seen = try await second.service.list()
        #expect(seen.map(\.id) == [hamlet.id])
        #expect(seen.first?.title == "연극 '햄릿'" && seen.first?.memo == "대단했다" && seen.first?.rating == 5)
        #expect(try await second.service.taste() == (try await first.service.taste()))
        #expect(try await second.service.preferences()?.districts == ["종로구", "마포구"])
        let recommended = try await second.service.recommend()
        #expect(recommended.preferences?.categories == ["연극"])
        #expect(!recommended.items.contains { $0.event.id == hamlet.eventID }, "an archived event is never recommended")

        // Removed on the second home: gone from the first.
        _ = try await second.service.remove(String(hamlet.id.rawValue.prefix(8)))
        #expect(try await first.service.list().isEmpty)
        #expect(try await second.service.clearPreferences())
        #expect(try await first.service.preferences() == nil)
        #expect(try await first.service.clearPreferences() == false)
    }

    @Test func theSameEventOnTheSameDayTwiceIsRefusedInTheEmbeddedSentence() async throws {
        let home = try await home()
        let hamlet = try await home.eventID("연극 '햄릿'")
        _ = try await home.service.add(eventID: hamlet)
        await #expect(throws: ArchiveError.alreadyArchived(title: "연극 '햄릿'", on: Day("2026-11-23") ?? home.service.today())) {
            try await home.service.add(eventID: hamlet)
        }
        #expect(try await home.service.list().count == 1)
    }

    @Test func eachUserSeesAndRemovesOnlyTheirOwnTickets() async throws {
        let home = try await home()
        let ticket = try await home.service.add(eventID: try await home.eventID("연극 '햄릿'"))
        serverSession.set(bo)
        #expect(try await home.service.list().isEmpty)
        await #expect(throws: ArchiveError.unknownTicket(ticket.id.rawValue)) { try await home.service.remove(ticket.id.rawValue) }
        #expect(try await RemoteTicketStore(api: try api.client()).delete(ticket.id, of: bo.id) == false)
        serverSession.set(FakeSessionProvider.ada)
        #expect(try await serverTickets.tickets(of: FakeSessionProvider.ada.id).map(\.id) == [ticket.id])
    }

    static let sent = Ticket(
        id: "chosen-by-the-client", owner: bo.id, eventID: "abc-123", title: "  Jazz  night ", category: "콘서트", district: "마포구",
        place: "", audience: "", isFree: true, attendedOn: Day(year: 2026, month: 11, day: 20) ?? Day(Date(), in: .gmt), rating: nil,
        memo: nil, createdAt: Date(timeIntervalSince1970: 0))

    @Test func theServerGivesTheIdAndTimeAndChecksEveryFieldAgain() async throws {
        let store = RemoteTicketStore(api: try api.client())
        let sent = Self.sent
        let stored = try await store.insert(sent)
        #expect(stored.id != sent.id && stored.createdAt == clock.now() && stored.title == "Jazz night")
        // Stored for the request's user, whoever the client named.
        #expect(try await serverTickets.tickets(of: FakeSessionProvider.ada.id).map(\.id) == [stored.id])

        func refused(_ change: (inout Draft) -> Void) async -> RemoteProblem? {
            var draft = Draft(sent)
            change(&draft)
            return await #expect(throws: RemoteProblem.self) { try await store.insert(draft.ticket) }
        }
        // Control characters in a title are dropped, as from a person's typing; a title of nothing else is refused.
        let cleaned = try await store.insert(Draft(sent).with { ($0.title, $0.eventID) = ("Bell\u{07}\u{1B}[2J", nil) }.ticket)
        #expect(cleaned.title == "Bell[2J")
        let bell = await refused { $0.title = "\u{07}\u{1B}\u{9B}" }
        #expect(bell?.status == 422 && bell?.message.contains("\u{1B}") == false)
        #expect(await refused { $0.rating = 9 }?.status == 400)
        #expect(await refused { $0.memo = "hi \u{202E}evil" }?.status == 422)
        #expect(await refused { $0.memo = String(repeating: "m", count: 501) }?.status == 422)
        #expect(await refused { $0.eventID = "../../etc" }?.status == 422)
        // A catalogue row may lack a category; a ticket added by hand may not.
        #expect(await refused { ($0.category, $0.eventID) = ("", nil) }?.status == 422)
        // Today in UTC+14 is the latest day any client may call today: at 03:00 UTC that is still the 23rd,
        // at 10:00 UTC it is the 24th there.
        #expect(await refused { $0.attendedOn = Day("2026-11-24") ?? clock.today }?.status == 422)
        clock.advance(by: 7 * 3_600)
        _ = try await store.insert(Draft(sent).with { $0.attendedOn = Day("2026-11-24") ?? clock.today }.ticket)
        #expect(await refused { $0.attendedOn = Day("2026-11-25") ?? clock.today }?.status == 422)
        #expect(try await serverTickets.tickets(of: FakeSessionProvider.ada.id).count == 3)
    }

    @Test func anEventWhoseCatalogueRowHasNoDistrictIsArchivedAsAtHome() async throws {
        let home = try await home()
        let ddp = try await home.service.add(eventID: try await home.eventID("DDP 디자인 전시 〈서울의 색〉"))
        #expect(ddp.district.isEmpty)
        #expect(try await home.service.list().map(\.id) == [ddp.id])
    }

    /// Text the server tidies reads back unchanged: an entity is kept as written, never decoded again,
    /// so no ticket can make the whole archive an answer the client refuses.
    @Test func textIsTidiedOnceAndReadsBackAsStored() async throws {
        let store = RemoteTicketStore(api: try api.client())
        let nested = Draft(Self.sent).with { ($0.title, $0.eventID) = ("R&amp;amp;amp;B   night", nil) }.ticket
        let stored = try await store.insert(nested)
        #expect(stored.title == "R&amp;amp;amp;B night")
        #expect(try await store.tickets(of: FakeSessionProvider.ada.id).map(\.title) == ["R&amp;amp;amp;B night"])
    }

    @Test func oversizedOddAndForeignInputIsRefusedAndNamesNoTicket() async throws {
        let store = RemoteTicketStore(api: try api.client())
        func refused(_ change: (inout Draft) -> Void) async -> RemoteProblem? {
            var draft = Draft(Self.sent)
            change(&draft)
            return await #expect(throws: RemoteProblem.self) { try await store.insert(draft.ticket) }
        }
        // One character, 600 scalars: bounded in scalars, not characters.
        #expect(await refused { $0.title = "a" + String(repeating: "\u{0301}", count: 600) }?.status == 422)
        #expect(await refused { $0.title = String(repeating: " ", count: 60_000) + "x" }?.status == 422)
        #expect(await refused { $0.memo = "m" + String(repeating: "\u{0301}", count: 2_500) }?.status == 422)
        for id in ["../../etc/passwd", "\u{0}", "ABC", String(repeating: "a", count: 65)] {
            #expect(try await store.delete(TicketID(id), of: FakeSessionProvider.ada.id) == false, "\(id)")
        }
        #expect(try await serverTickets.tickets(of: FakeSessionProvider.ada.id).isEmpty)
    }

    @Test func aPersonKeepsAtMostTheServersNumberOfTickets() async throws {
        let database = try AppDatabase.inMemory(migrations: [ArchiveMigrations.all])
        let small = InProcessAPI(problems: ProblemCatalog([ArchiveProblems.classifier]), requiresToken: true)
        try ArchiveHandlers(
            tickets: SQLiteTicketStore(database: database), preferences: SQLitePreferenceStore(database: database),
            session: serverSession, clock: clock, maximumTickets: 2
        ).registerHandlers(on: small)
        let store = RemoteTicketStore(api: try small.client())
        for title in ["One", "Two"] { _ = try await store.insert(Draft(Self.sent).with { ($0.title, $0.eventID) = (title, nil) }.ticket) }
        let third = await #expect(throws: RemoteProblem.self) {
            try await store.insert(Draft(Self.sent).with { ($0.title, $0.eventID) = ("Three", nil) }.ticket)
        }
        #expect(third?.type == "too-many-tickets" && third?.message == ArchiveError.tooManyTickets(limit: 2).message)
    }

    @Test func preferencesTheServerCannotPlaceAreRefused() async throws {
        let store = RemotePreferenceStore(api: try api.client())
        func refused(_ districts: [String], _ categories: [String]) async -> RemoteProblem? {
            await #expect(throws: RemoteProblem.self) {
                try await store.save(ArchivePreferences(districts: districts, categories: categories), of: "user-ada", at: Date())
            }
        }
        #expect(await refused(["Narnia"], ["연극"])?.status == 422)
        #expect(await refused(["마포구", "마포구"], ["연극"])?.status == 422)
        #expect(await refused(["마포구"], [])?.status == 400)
        #expect(await refused(["마포구", "종로구", "중구", "용산구"], ["연극"])?.status == 400)
        #expect(await refused(["마포구"], ["a\nb"])?.status == 422)
        #expect(try await store.preferences(of: "user-ada") == nil)
    }

    @Test func withoutTheSessionsTokenNothingIsSent() async throws {
        let home = try await ClientMachine(api: try api.client(token: nil), clock: clock, session: session)
        await #expect(throws: RemoteProblem.self) { try await home.service.list() }
    }
}

/// A ticket's fields, to change one at a time.
private struct Draft {
    var ticket: Ticket
    var title: String {
        get { ticket.title }
        set { ticket = copy(title: newValue) }
    }
    var category: String {
        get { ticket.category }
        set { ticket = copy(category: newValue) }
    }
    var rating: Int? {
        get { ticket.rating }
        set { ticket = copy(rating: .some(newValue)) }
    }
    var memo: String? {
        get { ticket.memo }
        set { ticket = copy(memo: .some(newValue)) }
    }
    var eventID: EventID? {
        get { ticket.eventID }
        set { ticket = copy(eventID: .some(newValue)) }
    }
    var attendedOn: Day {
        get { ticket.attendedOn }
        set { ticket = copy(attendedOn: newValue) }
    }

    init(_ ticket: Ticket) { self.ticket = ticket }

    func with(_ change: (inout Draft) -> Void) -> Draft {
        var copy = self
        change(&copy)
        return copy
    }

    private func copy(
        title: String? = nil, category: String? = nil, rating: Int?? = nil, memo: String?? = nil, eventID: EventID?? = nil,
        attendedOn: Day? = nil
    ) -> Ticket {
        Ticket(
            id: ticket.id, owner: ticket.owner, eventID: eventID ?? ticket.eventID, title: title ?? ticket.title,
            category: category ?? ticket.category, district: ticket.district, place: ticket.place, audience: ticket.audience,
            isFree: ticket.isFree, attendedOn: attendedOn ?? ticket.attendedOn, rating: rating ?? ticket.rating, memo: memo ?? ticket.memo,
            createdAt: ticket.createdAt)
    }
}

extension ManualWallClock {
    fileprivate var today: Day { Day(now(), in: .gmt) }
}

/// A server that answers with what no Moa server stores: terminal escapes in a title, a rating of 9,
/// a district that is not one of Seoul's.
private struct HostileArchive: APIProtocol {
    let ticket: TicketRecord
    let preferences: Components.Schemas.ArchivePreferences

    func listTickets(_ input: Operations.ListTickets.Input) async throws -> Operations.ListTickets.Output {
        .ok(.init(body: .json([ticket])))
    }
    func addTicket(_ input: Operations.AddTicket.Input) async throws -> Operations.AddTicket.Output {
        .created(.init(body: .json(ticket)))
    }
    func deleteTicket(_ input: Operations.DeleteTicket.Input) async throws -> Operations.DeleteTicket.Output {
        .noContent(.init())
    }
    func getPreferences(_ input: Operations.GetPreferences.Input) async throws -> Operations.GetPreferences.Output {
        .ok(.init(body: .json(preferences)))
    }
    func putPreferences(_ input: Operations.PutPreferences.Input) async throws -> Operations.PutPreferences.Output {
        .ok(.init(body: .json(preferences)))
    }
    func clearPreferences(_ input: Operations.ClearPreferences.Input) async throws -> Operations.ClearPreferences.Output {
        .noContent(.init())
    }
}

@Suite("Archive · a hostile server")
struct ArchiveHostileServerTests {
    static let fine = TicketRecord(
        id: "3f1c2b9a-0000-4000-8000-000000000001", eventID: nil, title: "Jazz", category: "콘서트", district: "마포구", place: "",
        audience: "", free: true, attendedOn: "2026-11-20", rating: 4, memo: nil, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    static let sent = Ticket(
        id: "local", owner: "user-ada", eventID: nil, title: "Jazz", category: "콘서트", district: "마포구", place: "", audience: "",
        isFree: true, attendedOn: Day(year: 2026, month: 11, day: 20) ?? Day(Date(), in: .gmt), rating: 4, memo: nil, createdAt: Date())
    static let nonePreferences = Components.Schemas.ArchivePreferences(set: false, districts: [], categories: [])

    static func with(_ change: (inout TicketRecord) -> Void) -> TicketRecord {
        var ticket = fine
        change(&ticket)
        return ticket
    }

    static let hostile: [TicketRecord] = [
        with { $0.title = "\u{1B}]0;pwned\u{07}\u{1B}[2J" },
        with { $0.memo = "see \u{202E}txt.exe" },
        with { $0.rating = 9 },
        with { $0.attendedOn = "2026-13-40" },
        with { $0.id = "../../../../etc/passwd" },
        with { $0.eventID = "A B" },
    ]

    private func store(_ ticket: TicketRecord, _ preferences: Components.Schemas.ArchivePreferences = nonePreferences)
        throws -> (RemoteTicketStore, RemotePreferenceStore)
    {
        let api = InProcessAPI()
        try HostileArchive(ticket: ticket, preferences: preferences).registerHandlers(on: api)
        return (RemoteTicketStore(api: try api.client()), RemotePreferenceStore(api: try api.client()))
    }

    @Test func anHonestAnswerIsRead() async throws {
        let (tickets, preferences) = try store(Self.fine)
        #expect(try await tickets.tickets(of: "user-ada").map(\.title) == ["Jazz"])
        #expect(try await preferences.preferences(of: "user-ada") == nil)
    }

    @Test(arguments: hostile)
    func aTicketNoMoaServerStoresIsAnAnswerNotUnderstoodNeverText(_ ticket: TicketRecord) async throws {
        let (tickets, _) = try store(ticket)
        let refused = await #expect(throws: RemoteProblem.self) { try await tickets.tickets(of: "user-ada") }
        #expect(refused?.type == "unexpected-response")
        let added = await #expect(throws: RemoteProblem.self) {
            try await tickets.insert(Self.sent)
        }
        #expect(added?.type == "unexpected-response")
    }

    @Test func preferencesNoMoaServerStoresAreRefused() async throws {
        let (_, preferences) = try store(
            Self.fine, .init(set: true, districts: [.init(name: "\u{1B}[31mNarnia", romanized: "x")], categories: ["연극"]))
        let refused = await #expect(throws: RemoteProblem.self) { try await preferences.preferences(of: "user-ada") }
        #expect(refused?.type == "unexpected-response")
    }
}
