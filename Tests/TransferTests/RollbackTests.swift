import AccountInterface
import AuthTesting
import Foundation
import GRDB
import Money
import Persistence
import SharedKit
import Storage
import Testing
import TransferDomain
import TransferInterface

/// A posting that writes a row of its own through the transaction token, the way Account's ledger
/// writes its entries, and answers with made-up balances.
struct ScratchPosting: AccountPosting {
    /// Refuse (insufficient funds) after having written the row.
    var refuseAfterWriting = false

    func post(_ request: PostingRequest, in transaction: any Transaction) throws -> PostingReceipt {
        let db = try SQLiteTransaction.open(transaction)
        try db.execute(
            sql: "INSERT INTO scratch_postings (reference, amount) VALUES (?, ?)",
            arguments: [request.reference, request.amount.minorUnits])
        if refuseAfterWriting {
            throw PostingError.insufficientFunds(request.from, balance: .zero(request.amount.currency), requested: request.amount)
        }
        func summary(_ number: AccountNumber) -> AccountSummary {
            AccountSummary(
                id: AccountID(number.digits), number: number, name: "Scratch", kind: .checking, ownerID: request.initiatedBy,
                balance: .zero(request.amount.currency), isClosed: false, openedAt: request.at)
        }
        return PostingReceipt(from: summary(request.from), to: summary(request.to), debitEntryID: 1, creditEntryID: 2)
    }
}

/// The real store, except that recording a transfer fails — after the posting wrote its row.
struct FailingInsertStore: TransferStore {
    struct DiskFull: Error, Equatable {}
    let base: any TransferStore

    func transfer(initiatedBy user: UserID, idempotencyKey: String, in transaction: any Transaction) throws -> TransferSummary? {
        try base.transfer(initiatedBy: user, idempotencyKey: idempotencyKey, in: transaction)
    }
    func sentTotal(initiatedBy user: UserID, currency: Currency, from start: Date, until end: Date, in transaction: any Transaction) throws
        -> Money
    {
        try base.sentTotal(initiatedBy: user, currency: currency, from: start, until: end, in: transaction)
    }
    func insert(_ transfer: TransferSummary, in transaction: any Transaction) throws { throw DiskFull() }
    func transfers(initiatedBy user: UserID, before position: Int64?, limit: Int) async throws -> [PositionedTransfer] {
        try await base.transfers(initiatedBy: user, before: position, limit: limit)
    }
    func transfer(id: TransferID, initiatedBy user: UserID) async throws -> TransferSummary? {
        try await base.transfer(id: id, initiatedBy: user)
    }
}

@Suite("One transaction: the posting and the transfer record commit or roll back together")
struct RollbackTests {
    static let scratch = MigrationSet(
        feature: "Scratch",
        steps: [
            .init("v1-scratch-postings") { db in
                try db.execute(sql: "CREATE TABLE scratch_postings (reference TEXT NOT NULL, amount INTEGER NOT NULL)")
            }
        ])

    @Test func whenRecordingTheTransferFailsThePostingIsRolledBack() async throws {
        let h = try Harness()
        let f = try StoreFixture(extra: [Self.scratch])
        let sendMoney = h.sendMoney(unitOfWork: f.database, store: FailingInsertStore(base: f.store), posting: ScratchPosting())
        await #expect(throws: FailingInsertStore.DiskFull()) { try await h.send(using: sendMoney, h.checking, to: h.bobs, "10,000") }
        #expect(try f.count("scratch_postings") == 0)
        #expect(try f.count("transfer_transfers") == 0)
    }

    @Test func whenItSucceedsBothAreThere() async throws {
        let h = try Harness()
        let f = try StoreFixture(extra: [Self.scratch])
        let sendMoney = h.sendMoney(unitOfWork: f.database, store: f.store, posting: ScratchPosting())
        let receipt = try await h.send(using: sendMoney, h.checking, to: h.bobs, "10,000")
        let reference = try f.database.read { db in try String.fetchOne(db, sql: "SELECT reference FROM scratch_postings") }
        #expect(reference == receipt.transfer.id.rawValue)
        #expect(try f.count("transfer_transfers") == 1)
    }

    @Test func aPostingRefusedHalfwayLeavesNothing() async throws {
        let h = try Harness()
        let f = try StoreFixture(extra: [Self.scratch])
        let sendMoney = h.sendMoney(unitOfWork: f.database, store: f.store, posting: ScratchPosting(refuseAfterWriting: true))
        await #expect(throws: PostingError.insufficientFunds(h.checking, balance: krw(0), requested: krw(10_000))) {
            try await h.send(using: sendMoney, h.checking, to: h.bobs, "10,000")
        }
        #expect(try f.count("scratch_postings") == 0)
        #expect(try f.count("transfer_transfers") == 0)
    }

    @Test func aLimitRefusalInsideTheTransactionWritesNothing() async throws {
        let h = try Harness()
        h.limits(perTransfer: 10_000, daily: 15_000)
        let f = try StoreFixture(extra: [Self.scratch])
        let sendMoney = h.sendMoney(unitOfWork: f.database, store: f.store, posting: ScratchPosting())
        _ = try await h.send(using: sendMoney, h.checking, to: h.bobs, "10,000")
        await #expect(throws: TransferError.dailyLimitExceeded(amount: krw(10_000), limit: krw(15_000), remaining: krw(5_000))) {
            try await h.send(using: sendMoney, h.checking, to: h.bobs, "10,000")
        }
        #expect(try f.count("scratch_postings") == 1)
        #expect(try f.count("transfer_transfers") == 1)
    }
}

extension Harness {
    func send(using sendMoney: SendMoney, _ from: AccountNumber, to: AccountNumber, _ amount: String, key: String? = nil) async throws
        -> TransferReceipt
    {
        try await sendMoney.send(TransferDraft(from: from.description, to: to.description, amount: amount, idempotencyKey: key))
    }
}
