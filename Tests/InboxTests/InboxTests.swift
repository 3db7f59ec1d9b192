import AuthInterface
import AuthTesting
import CommandKit
import DesignSystem
import Foundation
import InboxData
import InboxDomain
import InboxInterface
import InboxTesting
import Persistence
import Registry
import SharedKit
import Storage
import Testing

@testable import InboxFeature

/// Everything a test needs from the composed Inbox.
private enum InboxHarnessRoot: ServiceKey {
    struct Service: Sendable {
        let service: any InboxUseCases
        let publisher: any InboxPublisher
        let commands: FeatureCommands
        let userData: any UserDataOwner
    }
}

/// Inbox's real Domain, Data and Feature on an in-memory database, with a fake session (Ada).
private struct InboxHarness {
    let database: AppDatabase
    let session = FakeSessionProvider(user: FakeSessionProvider.ada)
    let clock = ManualWallClock() // 2026-01-01T00:00:00Z
    let root: InboxHarnessRoot.Service
    var service: any InboxUseCases { root.service }

    static let ada = FakeSessionProvider.ada
    static let bo = AuthenticatedUser(id: "user-bo", email: "bo@example.com")

    init() throws {
        database = try AppDatabase.inMemory(migrations: [InboxMigrations.all])
        root = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: clock),
            AuthFakes(session: session),
            InboxDataModule(),
            InboxFeatureModule(),
            ModuleOf(
                "Test",
                [
                    .singleton(
                        InboxHarnessRoot.self, requires: InboxServiceKey.self, InboxPublisherKey.self, InboxCommandsKey.self,
                        InboxUserDataKey.self
                    ) {
                        InboxHarnessRoot.Service(service: $0, publisher: $1, commands: $2, userData: $3)
                    }
                ]),
        ]).validate(root: InboxHarnessRoot.self).resolve()
    }

    func notice(
        _ title: String, to user: AuthenticatedUser = ada, kind: InboxNoticeKind = .moneyReceived,
        body: String = "From 220-8765-4321-0 into 110-1234-5678-9: rent"
    ) -> InboxNotice {
        InboxNotice(recipient: user.id, kind: kind, title: title, body: body, createdAt: clock.now())
    }

    /// Publishes each notice in its own committed transaction, as producers do.
    func publish(_ notices: InboxNotice...) async throws {
        for notice in notices {
            try await database.perform { [publisher = root.publisher] transaction in try publisher.publish(notice, in: transaction) }
        }
    }

    /// Runs `arguments` through Inbox's command group; returns standard output.
    func run(_ arguments: [String], json: Bool = false) async throws -> String {
        let out = CapturingOutput()
        let handled = try await root.commands.run(
            try InboxCommand.parseAsRoot(arguments),
            context: CommandContext(json: json, out: out, err: CapturingOutput()))
        #expect(handled)
        return out.text
    }
}

@Suite("Inbox publishing (the seam Transfer and Auth use)")
struct InboxPublishingTests {
    @Test func authsSecurityEventsAreListedWithTheirStableKinds() async throws {
        let harness = try InboxHarness()
        try await harness.publish(
            harness.notice("Logins to ada@example.com locked until 2026-01-01 00:01:00", kind: .loginLockout),
            harness.notice("A session of ada@example.com was ended after 5 wrong PINs", kind: .pinLockout),
            harness.notice("PIN of ada@example.com removed", kind: .pinRemoved))
        let page = try await harness.service.list()
        #expect(Set(page.notices.map(\.kind)) == [.loginLockout, .pinLockout, .pinRemoved])
        let json = try await harness.run(["--json"], json: true)
        for kind in ["login-lockout", "pin-lockout", "pin-removed"] {
            #expect(json.contains(#""kind" : "\#(kind)""#))
        }
        #expect(try await harness.run([]).contains("PIN of ada@example.com removed"))
    }
}

@Suite("Inbox use cases")
struct InboxServiceTests {
    @Test func everyUserSeesOnlyTheirOwnNotices() async throws {
        let harness = try InboxHarness()
        try await harness.publish(harness.notice("For Ada"), harness.notice("For Bo", to: InboxHarness.bo))
        #expect(try await harness.service.list().notices.map(\.title) == ["For Ada"])
        #expect(try await harness.service.list().unreadCount == 1)
        harness.session.set(InboxHarness.bo)
        #expect(try await harness.service.list().notices.map(\.title) == ["For Bo"])
        #expect(try await harness.service.markAllRead() == 1)
        harness.session.set(InboxHarness.ada)
        #expect(try await harness.service.list(unreadOnly: true).notices.map(\.title) == ["For Ada"])
    }

    /// How the store marks notices is its contract's (StoreContractTests); here: the use cases mark
    /// at the clock's time, and take an id with or without its `#`.
    @Test func markingUsesTheClocksTimeAndTakesAnIDWithOrWithoutItsHash() async throws {
        let harness = try InboxHarness()
        try await harness.publish(harness.notice("One"), harness.notice("Two"))
        let ids = try await harness.service.list().notices.map(\.id)
        harness.clock.advance(by: 3600)
        let result = try await harness.service.markRead(String(ids[1]))
        #expect(result.wasUnread && result.notice.title == "One" && result.notice.readAt == harness.clock.now())
        #expect(try await !harness.service.markRead("#\(ids[1])").wasUnread)
        harness.clock.advance(by: 60)
        #expect(try await harness.service.markAllRead() == 1)
        #expect(try await harness.service.list().notices.map(\.readAt) == [harness.clock.now(), result.notice.readAt])
        #expect(try await harness.service.list().unreadCount == 0)
    }

    @Test func anotherUsersNoticeIsNotFound() async throws {
        let harness = try InboxHarness()
        try await harness.publish(harness.notice("For Bo", to: InboxHarness.bo))
        harness.session.set(InboxHarness.bo)
        let bosID = try #require(try await harness.service.list().notices.first?.id)
        harness.session.set(InboxHarness.ada)
        await #expect(throws: InboxError.notFound(String(bosID))) { try await harness.service.markRead(String(bosID)) }
        await #expect(throws: InboxError.notFound("999")) { try await harness.service.markRead("999") }
        #expect(InboxError.notFound("999").exitStatus == .unavailable)
        #expect(InboxError.notFound("999").message == "You have no notice 999.")
    }

    @Test(arguments: ["abc", "", "0", "-3", "1.5", "12abc", "99999999999999999999999"])
    func aMalformedIDIsRefusedAsBadData(text: String) async throws {
        let harness = try InboxHarness()
        await #expect(throws: InboxError.invalidID(text)) { try await harness.service.markRead(text) }
        #expect(InboxError.invalidID(text).exitStatus == .dataError)
    }

    @Test func pagesGoFromNewestToOldestWithoutOverlap() async throws {
        let harness = try InboxHarness()
        for index in 1...5 { try await harness.publish(harness.notice("#\(index)")) }
        let first = try await harness.service.list(limit: 2)
        #expect(first.notices.map(\.title) == ["#5", "#4"])
        let next = try #require(first.nextBefore)
        let second = try await harness.service.list(limit: 2, before: String(next))
        #expect(second.notices.map(\.title) == ["#3", "#2"])
        let last = try await harness.service.list(limit: 2, before: second.nextBefore.map(String.init))
        #expect(last.notices.map(\.title) == ["#1"])
        #expect(last.nextBefore == nil)
        await #expect(throws: InboxError.invalidLimit(0)) { try await harness.service.list(limit: 0) }
        await #expect(throws: InboxError.invalidLimit(201)) { try await harness.service.list(limit: 201) }
    }

    @Test func withoutASessionEveryUseCaseSaysNotLoggedIn() async throws {
        let harness = try InboxHarness()
        try await harness.publish(harness.notice("For Ada"))
        harness.session.set(nil)
        await #expect(throws: NotLoggedInError()) { try await harness.service.list() }
        await #expect(throws: NotLoggedInError()) { try await harness.service.markRead("1") }
        await #expect(throws: NotLoggedInError()) { try await harness.service.markAllRead() }
    }
}

@Suite("Inbox commands")
struct InboxCommandTests {
    @Test func aBareInboxListsAndListAcceptsTheSameOptions() throws {
        #expect(try InboxCommand.parseAsRoot([]) is InboxCommand.List)
        let unread = try #require(try InboxCommand.parseAsRoot(["--unread", "--json"]) as? InboxCommand.List)
        #expect(unread.unread && unread.global.json)
        #expect(try InboxCommand.parseAsRoot(["list", "--limit", "5"]) is InboxCommand.List)
    }

    @Test(arguments: [
        (["read"], "Give the id of a notice (see `moa inbox`), or --all."),
        (["read", "3", "--all"], "Give either a notice id or --all, not both."),
    ])
    func readNeedsExactlyOneOfAnIDAndAll(arguments: [String], says: String) throws {
        do {
            _ = try InboxCommand.parseAsRoot(arguments)
            Issue.record("`moa inbox \(arguments.joined(separator: " "))` was accepted")
        } catch {
            #expect(InboxCommand.exitCode(for: error).rawValue == ExitStatus.usage.rawValue)
            #expect(InboxCommand.message(for: error).contains(says))
        }
    }

    @Test func readTakesAnIDOrAll() throws {
        #expect((try InboxCommand.parseAsRoot(["read", "3"]) as? InboxCommand.Read)?.id == "3")
        #expect((try InboxCommand.parseAsRoot(["read", "--all"]) as? InboxCommand.Read)?.all == true)
    }

    @Test func theListIsATableWithUnreadMarkedAndHints() async throws {
        let harness = try InboxHarness()
        try await harness.publish(
            harness.notice("Received 50,000 KRW"), harness.notice("New sign-in", kind: .newLogin, body: "From a new session."))
        let ids = try await harness.service.list().notices.map(\.id)
        _ = try await harness.service.markRead(String(ids[1]))
        let text = try await harness.run([])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "Inbox · 1 unread")
        let signIn = try #require(lines.first { $0.contains("New sign-in") })
        let received = try #require(lines.first { $0.contains("Received 50,000 KRW") })
        #expect(signIn.hasPrefix(InboxScreen.unreadMark))
        #expect(!received.contains(InboxScreen.unreadMark))
        #expect(signIn.contains(" \(ids[0]) ") && signIn.contains("From a new session."))
        #expect(received.contains("From 220-8765-4321-0 into 110-1234-5678-9: rent"))
        #expect(text.contains(DateText.minute(Date(timeIntervalSince1970: 1_767_225_600))))
        #expect(text.contains("moa inbox read ID"))
        #expect(!text.contains("\u{1B}[")) // plain theme: no colour codes
        let unread = try await harness.run(["--unread"])
        #expect(!unread.contains("Received 50,000 KRW") && unread.contains("New sign-in"))
    }

    @Test func anEmptyInboxSaysSoInASentence() async throws {
        let harness = try InboxHarness()
        #expect(try await harness.run([]).contains("Your inbox is empty"))
        try await harness.publish(harness.notice("Read already"))
        _ = try await harness.service.markAllRead()
        #expect(try await harness.run(["list", "--unread"]).contains("No unread notices: you are all caught up."))
    }

    @Test func aLongInboxPointsToTheNextPage() async throws {
        let harness = try InboxHarness()
        for index in 1...3 { try await harness.publish(harness.notice("#\(index)")) }
        let ids = try await harness.service.list().notices.map(\.id)
        #expect(try await harness.run(["--limit", "2"]).contains("More: moa inbox --before \(ids[1])"))
    }

    @Test func jsonHasStableFieldsAndNullsForWhatIsNotThere() async throws {
        let harness = try InboxHarness()
        try await harness.publish(harness.notice("Received 50,000 KRW"))
        let text = try await harness.run(["--json"], json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["notices", "unread_count", "next_before"])
        #expect(object["unread_count"] as? Int == 1)
        #expect(object["next_before"] is NSNull)
        let notice = try #require((object["notices"] as? [[String: Any]])?.first)
        #expect(Set(notice.keys) == ["id", "kind", "title", "body", "created_at", "read", "read_at", "transfer"])
        #expect(notice["kind"] as? String == "money-received")
        #expect(notice["title"] as? String == "Received 50,000 KRW")
        #expect(notice["created_at"] as? String == "2026-01-01T00:00:00Z")
        #expect(notice["read"] as? Bool == false)
        #expect(notice["read_at"] is NSNull)
        let id = try #require(notice["id"] as? Int)

        let read =
            try JSONSerialization.jsonObject(with: Data(try await harness.run(["read", String(id), "--json"], json: true).utf8))
            as? [String: Any]
        #expect(read?["was_unread"] as? Bool == true)
        #expect((read?["notice"] as? [String: Any])?["read_at"] as? String == "2026-01-01T00:00:00Z")
        let all =
            try JSONSerialization.jsonObject(with: Data(try await harness.run(["read", "--all", "--json"], json: true).utf8))
            as? [String: Any]
        #expect(all?["marked"] as? Int == 0)
    }

    /// Reading one prints its details whole (the list cuts them to fit the table).
    @Test func readingPrintsWhatWasMarkedAndTheWholeNotice() async throws {
        let harness = try InboxHarness()
        try await harness.publish(harness.notice("One"), harness.notice("Two"), harness.notice("Three"))
        let id = try #require(try await harness.service.list().notices.first?.id)
        let body = "From 220-8765-4321-0 into 110-1234-5678-9: rent"
        #expect(try await harness.run(["read", String(id)]) == "Marked notice \(id) as read: “Three”.\n\(body)\n")
        #expect(try await harness.run(["read", String(id)]) == "Notice \(id) (“Three”) was already read.\n\(body)\n")
        #expect(try await harness.run(["read", "--all"]) == "Marked 2 notices as read.\n")
        #expect(try await harness.run(["read", "--all"]) == "Nothing to mark: you have no unread notices.\n")
    }

    @Test func anUnknownIDReachesTheUserAsNotFound() async throws {
        let harness = try InboxHarness()
        await #expect(throws: InboxError.notFound("42")) { _ = try await harness.run(["read", "42"]) }
    }
}

@Suite("Inbox user data (moa auth delete)")
struct InboxUserDataTests {
    @Test func nothingBlocksAndEraseDeletesOnlyThatUsersNotices() async throws {
        let harness = try InboxHarness()
        try await harness.publish(harness.notice("For Ada"), harness.notice("Also for Ada"), harness.notice("For Bo", to: InboxHarness.bo))
        let owner = harness.root.userData
        #expect(owner.name == "Inbox")
        #expect(try await harness.database.perform { try owner.deletionBlockers(for: InboxHarness.ada.id, in: $0) }.isEmpty)
        try await harness.database.perform { try owner.erase(InboxHarness.ada.id, in: $0) }
        #expect(try await harness.service.list().notices.isEmpty)
        harness.session.set(InboxHarness.bo)
        #expect(try await harness.service.list().notices.map(\.title) == ["For Bo"])
    }
}

@Suite("Inbox in the interactive mode")
struct InboxHomeTests {
    /// Opens the inbox's home entry with scripted answers; returns what the screen showed.
    private func open(_ harness: InboxHarness, answers: [String]) async throws -> String {
        let entry = try RegistryBuilder(modules: [
            ModuleOf.core(database: harness.database, clock: harness.clock),
            AuthFakes(session: harness.session),
            InboxDataModule(),
            InboxFeatureModule(),
        ]).validate(root: InboxHomeEntryKey.self).resolve()
        let out = CapturingOutput()
        await entry.open(Screen(context: CommandContext(out: out, err: out), input: ScriptedLineInput(answers)))
        return out.text
    }

    @Test func theNewestNoticesThenMarkAllAsReadThenBack() async throws {
        let harness = try InboxHarness()
        try await harness.publish(harness.notice("Received 50,000 KRW"), harness.notice("New login to ada@example.com", kind: .newLogin))
        let text = try await open(harness, answers: ["1", "0"])
        #expect(text.contains("Inbox · 2 unread"))
        #expect(text.contains("Received 50,000 KRW") && text.contains("New login to ada@example.com"))
        #expect(!text.contains("moa inbox read"), "the interactive mode offers choices, not commands")
        #expect(text.contains("1. Mark all as read"))
        #expect(text.contains("Marked 2 notices as read."))
        #expect(text.contains("Inbox · nothing unread"))
        #expect(try await harness.service.list(unreadOnly: true).notices.isEmpty)
    }

    @Test func olderNoticesPageBackwardsAndNothingLeftToDoGoesBackOnEnter() async throws {
        let harness = try InboxHarness()
        for index in 1...(InboxService.defaultLimit + 2) { try await harness.publish(harness.notice("Notice \(index)")) }
        _ = try await harness.service.markAllRead()
        let text = try await open(harness, answers: ["1", ""])
        #expect(text.contains("1. Older notices"))
        #expect(text.contains("Notice \(InboxService.defaultLimit + 2)") && text.contains("Notice 1 "))
        #expect(text.contains("1. Newest notices"))
    }
}
