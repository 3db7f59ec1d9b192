import AccountInterface
import AuthTesting
import Foundation
import GRDB
import InboxInterface
import InboxTesting
import Money
import Persistence
import SharedKit
import Storage
import Testing
import TransferDomain
import TransferInterface

/// An `InboxPublisher` that writes each notice through the transaction token, the way Inbox's store
/// does, so the database shows whether the notice committed with the transfer; optionally failing
/// after having written.
struct ScratchInbox: InboxPublisher {
    struct Full: Error, Equatable {}
    var failAfterWriting = false

    static let migrations = MigrationSet(
        feature: "ScratchInbox",
        steps: [
            .init("v1-scratch-notices") { db in
                try db.execute(sql: "CREATE TABLE scratch_notices (recipient TEXT NOT NULL, kind TEXT NOT NULL, title TEXT NOT NULL)")
            }
        ])

    func publish(_ notice: InboxNotice, in transaction: any Transaction) throws {
        let db = try SQLiteTransaction.open(transaction)
        try db.execute(
            sql: "INSERT INTO scratch_notices (recipient, kind, title) VALUES (?, ?, ?)",
            arguments: [notice.recipient.rawValue, notice.kind.rawValue, notice.title])
        if failAfterWriting { throw Full() }
    }
}

@Suite("Inbox notices published with a transfer")
struct InboxNoticeTests {
    @Test func theReceiverGetsMoneyReceivedWithAmountAccountsAndMemo() async throws {
        let h = try Harness()
        let receipt = try await h.send(h.checking, to: h.bobs, "50,000", memo: "rent")
        #expect(
            h.inbox.notices == [
                InboxNotice(
                    recipient: Harness.bob.id, kind: .moneyReceived, title: "Received 50,000 KRW",
                    body: "From \(h.checking) into \(h.bobs): rent", createdAt: receipt.transfer.createdAt,
                    transfer: NoticeTransferDetails(
                        amountMinorUnits: 50_000, currency: "KRW", from: "\(h.checking)", to: "\(h.bobs)",
                        transferID: receipt.transfer.id.rawValue))
            ])
    }

    @Test func sendingToOnesOwnAccountBelowTheThresholdPublishesNothing() async throws {
        let h = try Harness()
        _ = try await h.send(h.checking, to: h.savings, "999,999")
        #expect(h.inbox.notices.isEmpty)
    }

    @Test func atTheThresholdTheSenderGetsALargeTransferNotice() async throws {
        let h = try Harness()
        _ = try await h.send(h.checking, to: h.savings, "1,000,000")
        #expect(h.inbox.notices.count == 1)
        let notice = try #require(h.inbox.notices.first)
        #expect(notice.recipient == FakeSessionProvider.ada.id && notice.kind == .largeTransferSent)
        #expect(notice.title == "Large transfer sent: 1,000,000 KRW")
        #expect(notice.body == "From \(h.checking) to \(h.savings) (at or above your notifications.large-transfer of 1,000,000 KRW)")
    }

    @Test func theThresholdIsTheUsersSettingAndALargeTransferToSomeoneElseGivesBothNotices() async throws {
        let h = try Harness()
        h.settings.update { $0.largeTransferThreshold = krw(100_000) }
        _ = try await h.send(h.checking, to: h.bobs, "99,999")
        #expect(h.inbox.notices.map(\.kind) == [.moneyReceived])
        _ = try await h.send(h.checking, to: h.bobs, "100,000", memo: "deposit")
        #expect(h.inbox.notices.dropFirst().map(\.kind) == [.moneyReceived, .largeTransferSent])
        #expect(
            h.inbox.notices.last?.body
                == "From \(h.checking) to \(h.bobs): deposit (at or above your notifications.large-transfer of 100,000 KRW)")
        #expect(h.inbox.notices.last?.recipient == FakeSessionProvider.ada.id)
    }

    @Test func anotherCurrencyIsNeverComparedWithTheKRWThreshold() async throws {
        let h = try Harness()
        h.settings.update { $0.largeTransferThreshold = krw(1) }
        _ = try await h.send(h.dollars, to: h.bobsDollars, "3,000.00")
        #expect(h.inbox.notices.map(\.kind) == [.moneyReceived])
        #expect(h.inbox.notices.first?.title == "Received 3,000.00 USD")
    }

    @Test func aReplayedRequestPublishesNothingAgain() async throws {
        let h = try Harness()
        _ = try await h.send(h.checking, to: h.bobs, "2,000,000", key: "k-1")
        #expect(h.inbox.notices.count == 2)
        let again = try await h.send(h.checking, to: h.bobs, "2,000,000", key: "k-1")
        #expect(again.replayed)
        #expect(h.inbox.notices.count == 2)
    }

    @Test func aRefusedTransferPublishesNothing() async throws {
        let h = try Harness()
        h.settings.update { $0.largeTransferThreshold = krw(1) }
        h.limits(perTransfer: 1_000_000, daily: 1_500_000)
        await #expect(throws: TransferError.self) { _ = try await h.send(h.checking, to: h.bobs, "1,000,001") } // over the limit
        _ = try await h.send(h.checking, to: h.bobs, "1,000,000")
        let published = h.inbox.notices.count
        await #expect(throws: TransferError.self) { _ = try await h.send(h.checking, to: h.bobs, "600,000") } // over today's limit
        await #expect(throws: PostingError.self) { _ = try await h.send(h.checking, to: h.closed, "1") } // closed
        await #expect(throws: PostingError.self) { _ = try await h.send(h.checking, to: h.nobodys, "1") } // unknown
        await #expect(throws: PostingError.self) { _ = try await h.send(h.savings, to: h.bobs, "1") } // no funds
        await #expect(throws: PostingError.self) { _ = try await h.send(h.checking, to: h.bobsDollars, "1") } // currency
        await #expect(throws: TransferError.self) {
            _ = try await h.send(h.checking, to: h.bobs, "999", key: h.store.all[0].idempotencyKey)
        }
        #expect(h.inbox.notices.count == published)
    }

    @Test func aBatchPublishesForEachPostedRowOnly() async throws {
        let h = try Harness()
        let batch = try await TransferBatch(sendMoney: h.sendMoney()).start()
        let rows = [
            BatchRow(line: 2, from: h.checking.description, to: h.bobs.description, amount: "1,000", memo: nil, idempotencyKey: nil),
            BatchRow(line: 3, from: h.checking.description, to: h.savings.description, amount: "1,000,000", memo: nil, idempotencyKey: nil),
            BatchRow(line: 4, from: h.checking.description, to: h.nobodys.description, amount: "1,000", memo: nil, idempotencyKey: nil),
        ]
        for row in rows { _ = try await batch.execute(row) }
        #expect(h.inbox.notices.map(\.kind) == [.moneyReceived, .largeTransferSent])
        for row in rows { _ = try await batch.execute(row) } // the same file again: rows done are skipped
        #expect(h.inbox.notices.count == 2)
    }

    @Test func onSQLiteTheNoticeCommitsWithTheTransfer() async throws {
        let h = try Harness()
        let f = try StoreFixture(extra: [RollbackTests.scratch, ScratchInbox.migrations])
        let sendMoney = h.sendMoney(unitOfWork: f.database, store: f.store, posting: ScratchPosting(), inbox: ScratchInbox())
        _ = try await h.send(using: sendMoney, h.checking, to: h.bobs, "10,000")
        // ScratchPosting reports the sender as the receiver's owner too: only a large transfer notifies.
        #expect(try f.count("scratch_notices") == 0)
        _ = try await h.send(using: sendMoney, h.checking, to: h.bobs, "1,000,000")
        #expect(try f.count("scratch_notices") == 1)
        #expect(try f.count("transfer_transfers") == 2)
    }

    @Test func whenThePostingIsRefusedNoNoticeIsWritten() async throws {
        let h = try Harness()
        let f = try StoreFixture(extra: [RollbackTests.scratch, ScratchInbox.migrations])
        let sendMoney = h.sendMoney(
            unitOfWork: f.database, store: f.store, posting: ScratchPosting(refuseAfterWriting: true), inbox: ScratchInbox())
        await #expect(throws: PostingError.self) { try await h.send(using: sendMoney, h.checking, to: h.bobs, "1,000,000") }
        #expect(try f.count("scratch_notices") == 0)
        #expect(try f.count("scratch_postings") == 0)
        #expect(try f.count("transfer_transfers") == 0)
    }

    @Test func whenPublishingFailsTheWholeTransferRollsBack() async throws {
        let h = try Harness()
        let f = try StoreFixture(extra: [RollbackTests.scratch, ScratchInbox.migrations])
        let sendMoney = h.sendMoney(
            unitOfWork: f.database, store: f.store, posting: ScratchPosting(), inbox: ScratchInbox(failAfterWriting: true))
        await #expect(throws: ScratchInbox.Full()) { try await h.send(using: sendMoney, h.checking, to: h.bobs, "1,000,000") }
        #expect(try f.count("scratch_notices") == 0)
        #expect(try f.count("scratch_postings") == 0)
        #expect(try f.count("transfer_transfers") == 0)
        #expect(try f.count("transfer_recent_recipients") == 0)
    }
}
