import APIClient
import APITesting
import AuthInterface
import AuthTesting
import CommandKit
import Foundation
import InboxData
import InboxDomain
import InboxInterface
import InboxRemote
import InboxServer
import Registry
import SharedKit
import Storage
import Testing

/// Inbox's served half in its own closure: the embedded inbox (on SQLite) behind its handlers
/// (InboxServer), read through its remote use cases (InboxRemote), joined in one process.
@Suite("Inbox · over the wire")
struct InboxOverTheWireTests {
    let database: AppDatabase
    let clock = ManualWallClock()
    let embedded: any InboxUseCases
    let publisher: any InboxPublisher
    let remote: RemoteInbox
    /// The handlers' transport, for what a client that is not `moa` reads (the raw JSON).
    let api: InProcessAPI

    init() throws {
        database = try AppDatabase.inMemory(migrations: [InboxMigrations.all])
        let session = FakeSessionProvider(user: FakeSessionProvider.ada)
        let registry = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: clock, extra: [.instance(SessionProviderKey.self, session)]),
            InboxDataModule(), ModuleOf("Inbox", InboxService.providers),
        ]).validate(root: InboxServiceKey.self)
        embedded = registry.resolve()
        publisher = try RegistryBuilder(modules: [ModuleOf.core(database: database, clock: clock), InboxDataModule()])
            .validate(root: InboxPublisherKey.self).resolve()
        let api = InProcessAPI(requiresToken: true)
        try InboxHandlers(inbox: embedded).registerHandlers(on: api)
        self.api = api
        remote = RemoteInbox(api: try api.client())
    }

    func publish(_ title: String, kind: InboxNoticeKind = .moneyReceived) async throws {
        let notice = InboxNotice(
            recipient: FakeSessionProvider.ada.id, kind: kind, title: title, body: "From 220-8765-4321-0: rent · 3월", createdAt: clock.now()
        )
        try await database.perform { [publisher] transaction in try publisher.publish(notice, in: transaction) }
    }

    /// A script reads the inbox from the API with the code that reads `moa inbox list --json`: the
    /// same keys, and an unread notice's `read_at` and the last page's `next_before` as `null` in both
    /// (the API used to leave them out).
    @Test func theAPIAndMoasJSONShowTheInboxAlike() async throws {
        try await publish("Received")
        let (status, object) = try await api.object(get: "/v1/inbox")
        #expect(status == .ok)
        let served = try #require(object)
        let page = try await embedded.list(unreadOnly: false, limit: InboxService.defaultLimit, before: nil)
        #expect(served == InProcessAPI.object(try JSONOutput.encode(page)))
        #expect(served["next_before"] is NSNull)
        #expect((served["notices"] as? [NSDictionary])?.first?["read_at"] is NSNull)
    }

    @Test func noticesReadAndPageTheSameRemotelyAsHere() async throws {
        for index in 1...3 { try await publish("Received \(index)") }
        try await publish("New login", kind: .newLogin)
        let remotely = try await remote.page(unreadOnly: false, limit: 3, before: nil)
        #expect(remotely == (try await embedded.list(unreadOnly: false, limit: 3, before: nil)))
        #expect(remotely.notices.count == 3 && remotely.unreadCount == 4 && remotely.nextBefore != nil)
        let rest = try await remote.page(unreadOnly: false, limit: 3, before: remotely.nextBefore.map(String.init))
        #expect(rest.notices.map(\.title) == ["Received 1"] && rest.nextBefore == nil)
    }

    @Test func markingReadCrossesTheWireAndAnUnknownNoticeIsNotFound() async throws {
        try await publish("Received")
        let notice = try #require(try await remote.page(unreadOnly: true, limit: 10, before: nil).notices.first)
        let read = try await remote.markRead(String(notice.id))
        #expect(read.wasUnread && read.notice.readAt != nil)
        #expect(try await embedded.list(unreadOnly: true, limit: 10, before: nil).notices.isEmpty)
        #expect(try await remote.markAllRead() == 0)
        let missing = await #expect(throws: RemoteProblem.self) { try await remote.markRead("999") }
        #expect(missing?.type == "not-found" && missing?.status == 404)
    }
}
