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

/// The store-level contract (both engines) is in StoreContractTests; here, the use cases on SQLite.
@Suite("TransferData on SQLite")
struct TransferStoreTests {
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
