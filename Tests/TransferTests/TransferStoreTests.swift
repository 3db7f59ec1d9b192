import AccountInterface
import AccountTesting
import AuthInterface
import AuthTesting
import Foundation
import GRDB
import Money
import Persistence
import Registry
import SharedKit
import Storage
import Testing
import TransferData
import TransferDomain
import TransferInterface

/// The real store on a real SQLite database in a temporary folder.
struct StoreFixture {
    let database: AppDatabase
    let store: any TransferStore

    init(extra: [MigrationSet] = []) throws {
        database = try AppDatabase.temporary(migrations: [TransferMigrations.all] + extra)
        store = try RegistryBuilder(modules: [ModuleOf.core(database: database), TransferDataModule()])
            .validate(root: TransferStoreKey.self).resolve()
    }

    func count(_ table: String) throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1 }
    }
}

func sample(
    _ n: Int, user: UserID = FakeSessionProvider.ada.id, key: String? = nil, amount: Int64 = 1_000, currency: Currency = .krw,
    at date: Date = Date(timeIntervalSince1970: 1_767_225_600)
) -> TransferSummary {
    TransferSummary(
        id: TransferID("t-\(user.rawValue)-\(n)"), from: "110-0000-0001-5", to: "110-0000-0003-1",
        amount: Money(minorUnits: amount, currency: currency), memo: n.isMultiple(of: 2) ? "memo \(n)" : nil,
        idempotencyKey: key ?? "key-\(n)", createdAt: date, initiatedBy: user,
        fromBalanceAfter: Money(minorUnits: 9_000, currency: currency))
}

@Suite("TransferData on SQLite")
struct TransferStoreTests {
    @Test func aRecordRoundTripsAndIsFoundByKeyAndByIDForItsUserOnly() async throws {
        let f = try StoreFixture()
        let transfer = sample(2)
        try await f.database.perform { [store = f.store] tx in try store.insert(transfer, in: tx) }
        let byKey = try await f.database.perform { [store = f.store] tx in
            try store.transfer(initiatedBy: FakeSessionProvider.ada.id, idempotencyKey: "key-2", in: tx)
        }
        #expect(byKey?.id == transfer.id && byKey?.memo == "memo 2" && byKey?.amount == transfer.amount)
        #expect(byKey?.fromBalanceAfter == transfer.fromBalanceAfter && byKey?.initiatedBy == transfer.initiatedBy)
        #expect(abs((byKey?.createdAt ?? .distantPast).timeIntervalSince(transfer.createdAt)) < 0.001)
        let byID = try await f.store.transfer(id: transfer.id, initiatedBy: FakeSessionProvider.ada.id)
        #expect(byID?.idempotencyKey == "key-2")
        #expect(try await f.store.transfer(id: transfer.id, initiatedBy: Harness.bob.id) == nil)
        let otherUser = try await f.database.perform { [store = f.store] tx in
            try store.transfer(initiatedBy: Harness.bob.id, idempotencyKey: "key-2", in: tx)
        }
        #expect(otherUser == nil)
    }

    @Test func aKeyIsUniquePerUserInTheTableItself() async throws {
        let f = try StoreFixture()
        try await f.database.perform { [store = f.store] tx in try store.insert(sample(1, key: "same"), in: tx) }
        await #expect(throws: TransferError.idempotencyKeyReused("same")) {
            try await f.database.perform { [store = f.store] tx in try store.insert(sample(2, key: "same"), in: tx) }
        }
        try await f.database.perform { [store = f.store] tx in try store.insert(sample(3, user: Harness.bob.id, key: "same"), in: tx) }
        #expect(try f.count("transfer_transfers") == 2)
    }

    @Test func theDaysTotalCountsOnlyTheUsersTransfersInTheWindowAndCurrency() async throws {
        let f = try StoreFixture()
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let end = start.addingTimeInterval(86_400)
        let rows = [
            sample(1, amount: 100, at: start), // counted (start is inclusive)
            sample(2, amount: 200, at: end.addingTimeInterval(-0.5)), // counted
            sample(3, amount: 400, at: end), // next day (end is exclusive)
            sample(4, amount: 800, at: start.addingTimeInterval(-1)), // previous day
            sample(5, amount: 1_600, currency: .usd, at: start.addingTimeInterval(60)), // other currency
            sample(6, user: Harness.bob.id, amount: 3_200, at: start.addingTimeInterval(60)), // other user
        ]
        try await f.database.perform { [store = f.store] tx in for row in rows { try store.insert(row, in: tx) } }
        let total = try await f.database.perform { [store = f.store] tx in
            try store.sentTotal(initiatedBy: FakeSessionProvider.ada.id, currency: .krw, from: start, until: end, in: tx)
        }
        #expect(total == krw(300))
    }

    @Test func windowsThatDoNotStartOrEndOnAQuarterHourAreExactToo() async throws {
        let f = try StoreFixture()
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let rows = [
            sample(1, amount: 1, at: start), // before the window
            sample(2, amount: 10, at: start.addingTimeInterval(0.5)),
            sample(3, amount: 100, at: start.addingTimeInterval(1_800)), // a whole quarter inside
            sample(4, amount: 1_000, at: start.addingTimeInterval(3_600.25)),
            sample(5, amount: 10_000, at: start.addingTimeInterval(3_600.75)), // after the window
        ]
        try await f.database.perform { [store = f.store] tx in for row in rows { try store.insert(row, in: tx) } }
        func total(_ from: TimeInterval, _ until: TimeInterval) async throws -> Int64 {
            try await f.database.perform { [store = f.store] tx in
                try store.sentTotal(
                    initiatedBy: FakeSessionProvider.ada.id, currency: .krw, from: start.addingTimeInterval(from),
                    until: start.addingTimeInterval(until), in: tx
                ).minorUnits
            }
        }
        #expect(try await total(0.25, 3_600.5) == 1_110)
        #expect(try await total(0.25, 600) == 10) // inside one quarter
        #expect(try await total(-900, 4_500) == 11_111) // whole quarters only
        #expect(try await total(3_600.5, 3_600.5) == 0)
    }

    @Test func aDayInATimeZoneOffByAQuarterHourCountsItsOwnTransfers() async throws {
        // Kathmandu is UTC+05:45: its midnight is 18:15 UTC.
        let h = try Harness()
        let f = try StoreFixture()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 5 * 3600 + 45 * 60) ?? .gmt
        h.limits(perTransfer: 1_000, daily: 1_000)
        let sendMoney = SendMoney(
            session: h.session, directory: h.accounts, posting: h.accounts, settings: h.settings,
            unitOfWork: f.database, store: f.store, recipients: h.book(), inbox: h.inbox, clock: h.clock, calendar: calendar)
        let midnight = Date(timeIntervalSince1970: 1_767_225_600 - 6 * 3600 + 15 * 60) // 2025-12-31T18:15Z
        h.clock.set(midnight.addingTimeInterval(-1))
        _ = try await h.send(using: sendMoney, h.checking, to: h.bobs, "1,000")
        h.clock.set(midnight)
        _ = try await h.send(using: sendMoney, h.checking, to: h.bobs, "600")
        h.clock.set(midnight.addingTimeInterval(86_399))
        await #expect(throws: TransferError.dailyLimitExceeded(amount: krw(401), limit: krw(1_000), remaining: krw(400))) {
            try await h.send(using: sendMoney, h.checking, to: h.bobs, "401")
        }
        _ = try await h.send(using: sendMoney, h.checking, to: h.bobs, "400")
        h.clock.set(midnight.addingTimeInterval(86_400))
        _ = try await h.send(using: sendMoney, h.checking, to: h.bobs, "1,000")
    }

    @Test func aTokenFromAnotherStorageIsRefused() throws {
        let f = try StoreFixture()
        #expect(throws: ForeignTransactionError.self) { try f.store.insert(sample(1), in: NoDatabaseTransaction()) }
    }

    @Test func pagesAreNewestFirstAndStableWhileTransfersAreAdded() async throws {
        let f = try StoreFixture()
        let history = TransferHistory(session: FakeSessionProvider(), store: f.store)
        for n in 1...5 {
            try await f.database.perform { [store = f.store] tx in try store.insert(sample(n), in: tx) }
        }
        try await f.database.perform { [store = f.store] tx in try store.insert(sample(99, user: Harness.bob.id), in: tx) }
        let first = try await history.transfers(limit: 2, after: nil)
        #expect(first.transfers.map(\.id.rawValue) == ["t-user-ada-5", "t-user-ada-4"])
        let cursor = try #require(first.nextCursor)
        #expect(Int(cursor) == nil) // opaque, not the raw position
        // Two more are sent while the user pages: they go on top, the next pages do not move.
        for n in 6...7 {
            try await f.database.perform { [store = f.store] tx in try store.insert(sample(n), in: tx) }
        }
        let second = try await history.transfers(limit: 2, after: cursor)
        #expect(second.transfers.map(\.id.rawValue) == ["t-user-ada-3", "t-user-ada-2"])
        let secondCursor: String = try #require(second.nextCursor)
        let third = try await history.transfers(limit: 2, after: secondCursor)
        #expect(third.transfers.map(\.id.rawValue) == ["t-user-ada-1"])
        #expect(third.nextCursor == nil)
        let fresh = try await history.transfers(limit: 200, after: nil)
        #expect(fresh.transfers.count == 7 && fresh.nextCursor == nil)
    }

    @Test func badCursorsLimitsAndIDsAreRefused() async throws {
        let f = try StoreFixture()
        let history = TransferHistory(session: FakeSessionProvider(), store: f.store)
        await #expect(throws: TransferError.invalidCursor) { try await history.transfers(limit: 5, after: "not-a-cursor") }
        await #expect(throws: TransferError.invalidPageSize(0)) { try await history.transfers(limit: 0, after: nil) }
        await #expect(throws: TransferError.invalidPageSize(201)) { try await history.transfers(limit: 201, after: nil) }
        await #expect(throws: TransferError.notFound("nope")) { try await history.transfer(id: "nope") }
        #expect(TransferError.notFound("nope").exitStatus == .unavailable)
        let loggedOut = TransferHistory(session: FakeSessionProvider(user: nil), store: f.store)
        await #expect(throws: NotLoggedInError()) { try await loggedOut.transfers(limit: 5, after: nil) }
    }

    @Test func sendMoneyOnSQLiteKeepsOneTransferPerKeyUnderConcurrentRetries() async throws {
        let h = try Harness()
        let f = try StoreFixture()
        let sendMoney = h.sendMoney(unitOfWork: f.database, store: f.store)
        let draft = TransferDraft(from: h.checking.description, to: h.bobs.description, amount: "10,000", idempotencyKey: "retry-storm")
        let receipts = try await withThrowingTaskGroup(of: TransferReceipt.self) { group in
            for _ in 0..<20 { group.addTask { try await sendMoney.send(draft) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(receipts.map(\.transfer.id)).count == 1)
        #expect(receipts.filter { !$0.replayed }.count == 1)
        #expect(h.accounts.postings.count == 1)
        #expect(try f.count("transfer_transfers") == 1)
        #expect(h.accounts.balance(of: h.checking) == krw(49_990_000))
    }
}
