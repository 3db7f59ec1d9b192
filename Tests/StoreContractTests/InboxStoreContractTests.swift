import Foundation
import InboxDomain
import InboxInterface
import Persistence
import SharedKit
import Testing

// Inbox's store (`InboxStore`) and publisher (`InboxPublisher`) on both engines: what the inbox use
// cases and the producers (Transfer, Auth) rely on, and what two `moa-server` processes sharing one
// PostgreSQL database need to hold.

private let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z
private let ada = UserID("user-ada")
private let bo = UserID("user-bo")

private func notice(
    _ title: String, to recipient: UserID = ada, kind: InboxNoticeKind = .moneyReceived,
    body: String = "From 220-8765-4321-0 into 110-1234-5678-9: rent", at date: Date = start
) -> InboxNotice {
    InboxNotice(recipient: recipient, kind: kind, title: title, body: body, createdAt: date)
}

/// Publishes each notice in its own committed unit of work, as producers do.
private func publish(_ notices: InboxNotice..., on stores: Stores) async throws {
    for notice in notices {
        try await stores.unitOfWork.perform { transaction in try stores.publisher.publish(notice, in: transaction) }
    }
}

/// Every notice of `recipient`, newest first (one page, larger than any test's inbox).
private func inbox(of recipient: UserID, unreadOnly: Bool = false, on stores: Stores) async throws -> [InboxItem] {
    try await stores.inbox.notices(for: recipient, unreadOnly: unreadOnly, before: nil, limit: 1_000)
}

/// Walks `recipient`'s inbox page by page (each `before` the last id of the page before), as
/// `moa inbox --before ID` does.
private func pages(of recipient: UserID, unreadOnly: Bool = false, size: Int, on stores: Stores) async throws -> [[InboxItem]] {
    var pages: [[InboxItem]] = []
    var before: Int64?
    while true {
        let page = try await stores.inbox.notices(for: recipient, unreadOnly: unreadOnly, before: before, limit: size)
        if page.isEmpty { return pages }
        pages.append(page)
        before = page.last?.id
        if pages.count > 100 { throw PagingNeverEnds() }
    }
}

private struct PagingNeverEnds: Error {}

/// What a producer's own work throws after its notice was written (a transfer's posting refused).
private struct ProducerFailed: Error {}

/// A token no engine can open.
@Suite("Inbox store contract")
struct InboxStoreContractTests {
    // MARK: Publishing

    @Test(arguments: Engine.allCases)
    func aPublishedNoticeIsListedAsPublishedUnreadNewestFirst(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await publish(notice("Received 10,000 KRW"), on: stores)
            try await publish(
                notice("New sign-in", kind: .newLogin, body: "Your password was used to sign in.", at: start.addingTimeInterval(60)),
                on: stores)

            let notices = try await inbox(of: ada, on: stores)
            #expect(notices.map(\.title) == ["New sign-in", "Received 10,000 KRW"])
            #expect(notices.map(\.kind) == [.newLogin, .moneyReceived])
            #expect(notices.map(\.body) == ["Your password was used to sign in.", "From 220-8765-4321-0 into 110-1234-5678-9: rent"])
            #expect(notices.map(\.createdAt) == [start.addingTimeInterval(60), start])
            #expect(notices.allSatisfy { $0.readAt == nil })
            #expect(notices[0].id > notices[1].id)
            #expect(try await stores.inbox.unreadCount(for: ada) == 2)
        }
    }

    @Test(arguments: Engine.allCases)
    func aNoticesTransferIsKeptAsValues(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let details = NoticeTransferDetails(
                amountMinorUnits: 5_000_000, currency: "KRW", from: "220-8765-4321-0", to: "110-1234-5678-9", transferID: "t-1")
            let received = InboxNotice(
                recipient: ada, kind: .moneyReceived, title: "Received 5,000,000 KRW", body: "From 220-8765-4321-0 into 110-1234-5678-9",
                createdAt: start, transfer: details)
            // Several at once too (the server's batched write publishes that way).
            try await stores.unitOfWork.perform { transaction in
                try stores.publisher.publish([received, notice("New sign-in", kind: .newLogin, body: "—")], in: transaction)
            }
            let notices = try await inbox(of: ada, on: stores)
            #expect(notices.map(\.transfer) == [nil, details])
        }
    }

    @Test(arguments: Engine.allCases)
    func everyKindAndAnyTextAreStoredAsPublished(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            for kind in InboxNoticeKind.allCases {
                try await publish(
                    notice("Title of \(kind.rawValue): ₩50,000 'quoted' \"twice\"", kind: kind, body: "Line 1\nLine 2 ☃"), on: stores)
            }
            let notices = try await inbox(of: ada, on: stores)
            #expect(notices.map(\.kind) == InboxNoticeKind.allCases.reversed())
            #expect(notices.allSatisfy { $0.title == "Title of \($0.kind.rawValue): ₩50,000 'quoted' \"twice\"" })
            #expect(notices.allSatisfy { $0.body == "Line 1\nLine 2 ☃" })
        }
    }

    @Test(arguments: Engine.allCases)
    func aNoticePublishedInAUnitOfWorkThatThrowsIsNotStored(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await publish(notice("Committed"), on: stores)
            await #expect(throws: ProducerFailed.self) {
                try await stores.unitOfWork.perform { transaction in
                    try stores.publisher.publish(notice("Rolled back"), in: transaction)
                    try stores.publisher.publish(notice("Rolled back too", to: bo), in: transaction)
                    throw ProducerFailed() // e.g. the transfer's posting was refused after the notice was written
                }
            }
            #expect(try await inbox(of: ada, on: stores).map(\.title) == ["Committed"])
            #expect(try await stores.inbox.unreadCount(for: ada) == 1)
            #expect(try await inbox(of: bo, on: stores).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func noticesPublishedInOneUnitOfWorkAreAllStored(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await stores.unitOfWork.perform { transaction in
                try stores.publisher.publish(notice("Sent 2,000,000 KRW", kind: .largeTransferSent), in: transaction)
                try stores.publisher.publish(notice("Received 2,000,000 KRW", to: bo), in: transaction)
            }
            #expect(try await inbox(of: ada, on: stores).map(\.title) == ["Sent 2,000,000 KRW"])
            #expect(try await inbox(of: bo, on: stores).map(\.title) == ["Received 2,000,000 KRW"])
        }
    }

    @Test(arguments: Engine.allCases)
    func aTransactionTokenOfAnotherEngineIsRefused(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            #expect(throws: ForeignTransactionError.self) { try stores.publisher.publish(notice("x"), in: ForeignTransaction()) }
            #expect(throws: ForeignTransactionError.self) { try stores.inbox.eraseNotices(of: ada, in: ForeignTransaction()) }
        }
    }

    @Test(arguments: Engine.allCases)
    func noticesPublishedConcurrentlyAreAllStoredWithDistinctIDs(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 1...24 {
                    group.addTask { try await publish(notice("#\(index)", to: index.isMultiple(of: 3) ? bo : ada), on: stores) }
                }
                try await group.waitForAll()
            }
            let adas = try await inbox(of: ada, on: stores)
            let bos = try await inbox(of: bo, on: stores)
            #expect(Set(adas.map(\.title)) == Set((1...24).filter { !$0.isMultiple(of: 3) }.map { "#\($0)" }))
            #expect(Set(bos.map(\.title)) == Set((1...24).filter { $0.isMultiple(of: 3) }.map { "#\($0)" }))
            #expect(Set((adas + bos).map(\.id)).count == 24)
            #expect(try await stores.inbox.unreadCount(for: ada) == 16)
        }
    }

    // MARK: Listing and paging

    @Test(arguments: Engine.allCases)
    func pagesWalkManyNoticesNewestFirstWithoutGapOrOverlap(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            for index in 1...30 {
                try await publish(notice("Ada #\(index)"), notice("Bo #\(index)", to: bo), on: stores)
            }
            let all = try await inbox(of: ada, on: stores)
            #expect(all.map(\.title) == (1...30).reversed().map { "Ada #\($0)" })
            #expect(all.map(\.id) == all.map(\.id).sorted(by: >))

            let walked = try await pages(of: ada, size: 7, on: stores)
            #expect(walked.map(\.count) == [7, 7, 7, 7, 2])
            #expect(walked.flatMap { $0 } == all)

            // A page starts below `before`, whatever arrived since the first page was read.
            let first = try await stores.inbox.notices(for: ada, unreadOnly: false, before: nil, limit: 7)
            try await publish(notice("Ada #31"), on: stores)
            let before = try #require(first.last?.id)
            let second = try await stores.inbox.notices(for: ada, unreadOnly: false, before: before, limit: 7)
            #expect(second.map(\.title) == (17...23).reversed().map { "Ada #\($0)" })
            #expect(try await stores.inbox.notices(for: ada, unreadOnly: false, before: nil, limit: 1).map(\.title) == ["Ada #31"])
        }
    }

    @Test(arguments: Engine.allCases)
    func theUnreadFilterPagesOnlyUnreadNoticesAndTheCountIsOfAllOfThem(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            for index in 1...20 { try await publish(notice("#\(index)"), on: stores) }
            let all = try await inbox(of: ada, on: stores)
            for item in all where item.title.hasSuffix("0") || item.title.hasSuffix("5") {
                _ = try await stores.inbox.markRead(item.id, for: ada, at: start.addingTimeInterval(60))
            }
            let unread = [19, 18, 17, 16, 14, 13, 12, 11, 9, 8, 7, 6, 4, 3, 2, 1].map { "#\($0)" }
            let walked = try await pages(of: ada, unreadOnly: true, size: 5, on: stores)
            #expect(walked.map(\.count) == [5, 5, 5, 1])
            #expect(walked.flatMap { $0 }.map(\.title) == unread)
            #expect(walked.flatMap { $0 }.allSatisfy { $0.readAt == nil })
            #expect(try await stores.inbox.unreadCount(for: ada) == 16)
        }
    }

    // MARK: Marking read

    @Test(arguments: Engine.allCases)
    func markingOneReadThenAllRead(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await publish(notice("One"), notice("Two"), notice("Three"), on: stores)
            let ids = try await inbox(of: ada, on: stores).map(\.id)
            let readAt = start.addingTimeInterval(3600)

            let result = try #require(try await stores.inbox.markRead(ids[1], for: ada, at: readAt))
            #expect(result.wasUnread)
            #expect(result.notice.id == ids[1] && result.notice.title == "Two" && result.notice.readAt == readAt)
            #expect(try await inbox(of: ada, unreadOnly: true, on: stores).map(\.title) == ["Three", "One"])
            #expect(try await inbox(of: ada, on: stores).map(\.readAt) == [nil, readAt, nil])
            #expect(try await stores.inbox.unreadCount(for: ada) == 2)

            // Reading it again changes nothing (and says so): it keeps the time it was first read.
            let again = try #require(try await stores.inbox.markRead(ids[1], for: ada, at: readAt.addingTimeInterval(60)))
            #expect(!again.wasUnread)
            #expect(again.notice.readAt == readAt)

            let allAt = readAt.addingTimeInterval(120)
            #expect(try await stores.inbox.markAllRead(for: ada, at: allAt) == 2)
            #expect(try await inbox(of: ada, on: stores).map(\.readAt) == [allAt, readAt, allAt])
            #expect(try await inbox(of: ada, unreadOnly: true, on: stores).isEmpty)
            #expect(try await stores.inbox.unreadCount(for: ada) == 0)
            #expect(try await stores.inbox.markAllRead(for: ada, at: allAt) == 0)
        }
    }

    @Test(arguments: Engine.allCases)
    func everyUserSeesAndChangesOnlyTheirOwnNotices(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await publish(notice("For Ada"), notice("For Bo", to: bo), notice("Also for Bo", to: bo), on: stores)
            let bosIDs = try await inbox(of: bo, on: stores).map(\.id)
            #expect(try await inbox(of: ada, on: stores).map(\.title) == ["For Ada"])
            #expect(try await stores.inbox.unreadCount(for: ada) == 1)

            // Another user's notice is not found, and stays unread.
            #expect(try await stores.inbox.markRead(bosIDs[0], for: ada, at: start) == nil)
            #expect(try await stores.inbox.markRead(bosIDs[0] + 1_000, for: ada, at: start) == nil)
            #expect(try await stores.inbox.markAllRead(for: ada, at: start) == 1)
            #expect(try await inbox(of: bo, unreadOnly: true, on: stores).map(\.id) == bosIDs)
            #expect(try await stores.inbox.unreadCount(for: bo) == 2)
            #expect(try await inbox(of: UserID("user-nobody"), on: stores).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func oneNoticeMarkedReadByManyAtOnceIsReportedUnreadOnce(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await publish(notice("Received 10,000 KRW"), notice("Other"), on: stores)
            let id = try #require(try await inbox(of: ada, on: stores).last?.id)
            let results = try await withThrowingTaskGroup(of: InboxReadResult?.self) { group in
                for index in 1...8 {
                    group.addTask { try await stores.inbox.markRead(id, for: ada, at: start.addingTimeInterval(Double(index))) }
                }
                return try await group.reduce(into: [InboxReadResult?]()) { $0.append($1) }
            }
            let found = results.compactMap { $0 }
            #expect(found.count == 8)
            #expect(found.filter(\.wasUnread).count == 1)
            let firstRead = try #require(found.first(where: \.wasUnread)?.notice.readAt)
            #expect(found.allSatisfy { $0.notice.readAt == firstRead }, "every later marking sees the first one's time")
            #expect(try await stores.inbox.unreadCount(for: ada) == 1)
        }
    }

    @Test(arguments: Engine.allCases)
    func markingAllReadFromManyAtOnceCountsEachNoticeOnce(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            for index in 1...10 { try await publish(notice("#\(index)"), on: stores) }
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 1...6 { group.addTask { try await stores.inbox.markAllRead(for: ada, at: start) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counts.reduce(0, +) == 10)
            #expect(try await stores.inbox.unreadCount(for: ada) == 0)
        }
    }

    // MARK: Erasing (user deletion)

    @Test(arguments: Engine.allCases)
    func erasingDeletesEveryNoticeOfThatRecipientAndNoOneElses(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await publish(notice("For Ada"), notice("Also for Ada"), notice("For Bo", to: bo), on: stores)
            try await stores.unitOfWork.perform { transaction in try stores.inbox.eraseNotices(of: ada, in: transaction) }
            #expect(try await inbox(of: ada, on: stores).isEmpty)
            #expect(try await stores.inbox.unreadCount(for: ada) == 0)
            #expect(try await inbox(of: bo, on: stores).map(\.title) == ["For Bo"])
            // Erasing a recipient without notices is no error.
            try await stores.unitOfWork.perform { transaction in try stores.inbox.eraseNotices(of: ada, in: transaction) }
        }
    }

    @Test(arguments: Engine.allCases)
    func anEraseThatRollsBackKeepsTheNotices(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await publish(notice("For Ada"), on: stores)
            await #expect(throws: ProducerFailed.self) {
                try await stores.unitOfWork.perform { transaction in
                    try stores.inbox.eraseNotices(of: ada, in: transaction)
                    throw ProducerFailed() // another feature's erase failed: the whole deletion rolls back
                }
            }
            #expect(try await inbox(of: ada, on: stores).map(\.title) == ["For Ada"])
        }
    }

    @Test(arguments: Engine.allCases)
    func idsAreNeverReusedAfterAnErase(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await publish(notice("Old"), notice("Older for Bo", to: bo), notice("Newest"), on: stores)
            let old = try #require(try await inbox(of: ada, on: stores).first?.id)
            try await stores.unitOfWork.perform { transaction in
                try stores.inbox.eraseNotices(of: ada, in: transaction)
                try stores.inbox.eraseNotices(of: bo, in: transaction)
            }
            try await publish(notice("New"), on: stores)
            let new = try #require(try await inbox(of: ada, on: stores).first?.id)
            #expect(new > old)
            #expect(try await stores.inbox.markRead(old, for: ada, at: start) == nil, "the old id names no notice")
        }
    }
}
