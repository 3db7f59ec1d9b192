import AccountInterface
import AccountTesting
import AuthInterface
import AuthTesting
import Foundation
import InboxInterface
import InboxTesting
import Money
import Persistence
import SettingsInterface
import SettingsTesting
import SharedKit
import Synchronization
import TransferDomain
import TransferInterface

/// Transfer's Domain on fakes: FakeAccounts (Account), FakeSettingsReader, FakeSessionProvider, an
/// in-memory store and a unit of work without a database. Time is a manual clock; days are Seoul's.
struct Harness {
    static let bob = AuthenticatedUser(id: "user-bob", email: "bob@example.com")

    let accounts: FakeAccounts
    let directory: CountingDirectory
    let settings = FakeSettingsReader()
    let session = FakeSessionProvider()
    let clock = ManualWallClock() // 2026-01-01T00:00:00Z, 09:00 in Seoul
    let store = InMemoryTransferStore()
    let recipientStore: InMemoryRecipientStore
    let inbox = FakeInboxPublisher()
    let calendar: Calendar

    // Ada's accounts
    let checking: AccountNumber
    let savings: AccountNumber
    let dollars: AccountNumber
    let closed: AccountNumber
    // Bob's
    let bobs: AccountNumber
    let bobsDollars: AccountNumber
    /// A well-formed number nobody has.
    let nobodys: AccountNumber

    init(balance: Int64 = 50_000_000) throws {
        accounts = FakeAccounts()
        directory = CountingDirectory(accounts)
        recipientStore = InMemoryRecipientStore(transfers: store)
        checking = try AccountNumber(prefix: "11000000001")
        savings = try AccountNumber(prefix: "22000000002")
        dollars = try AccountNumber(prefix: "11000000005")
        closed = try AccountNumber(prefix: "11000000006")
        bobs = try AccountNumber(prefix: "11000000003")
        bobsDollars = try AccountNumber(prefix: "11000000007")
        nobodys = try AccountNumber(prefix: "11099999999")
        let ada = FakeSessionProvider.ada.id
        try accounts.add(owner: ada, number: checking.digits, balance: krw(balance), name: "생활비")
        try accounts.add(owner: ada, number: savings.digits, balance: krw(0), name: "Savings", kind: .savings)
        try accounts.add(owner: ada, number: dollars.digits, balance: Money(minorUnits: 100_000_00, currency: .usd), name: "Dollars")
        try accounts.add(owner: ada, number: closed.digits, balance: krw(0), name: "Old", closed: true)
        try accounts.add(owner: Self.bob.id, number: bobs.digits, balance: krw(1_000_000), name: "Bob")
        try accounts.add(owner: Self.bob.id, number: bobsDollars.digits, balance: Money(minorUnits: 0, currency: .usd), name: "Bob $")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 9 * 3600) ?? .gmt
        self.calendar = calendar
    }

    /// Ada's recipients on the in-memory stores (or on `store`).
    func book(store: (any RecipientStore)? = nil) -> RecipientBook {
        RecipientBook(session: session, store: store ?? recipientStore, directory: accounts, clock: clock)
    }

    func sendMoney(
        unitOfWork: any UnitOfWork = NoDatabaseUnitOfWork(), store: (any TransferStore)? = nil,
        posting: (any AccountPosting)? = nil, recipients: (any RecipientStore)? = nil,
        inbox: (any InboxPublisher)? = nil, session: (any SessionProvider)? = nil
    ) -> SendMoney {
        SendMoney(
            session: session ?? self.session, directory: directory, posting: posting ?? accounts, settings: settings,
            unitOfWork: unitOfWork,
            store: store ?? self.store, recipients: book(store: recipients), inbox: inbox ?? self.inbox, clock: clock, calendar: calendar)
    }

    func send(_ from: AccountNumber, to: AccountNumber, _ amount: String, memo: String? = nil, key: String? = nil) async throws
        -> TransferReceipt
    {
        try await sendMoney().send(
            TransferDraft(from: from.description, to: to.description, amount: amount, memo: memo, idempotencyKey: key))
    }

    func limits(perTransfer: Int64, daily: Int64) {
        settings.update { $0.transferLimits = TransferLimits(perTransfer: krw(perTransfer), daily: krw(daily)) }
    }
}

func krw(_ units: Int64) -> Money { Money(minorUnits: units, currency: .krw) }

/// The moment `hour:minute` of 2026-01-`day` in Seoul.
func seoul(day: Int, _ hour: Int, _ minute: Int) -> Date {
    let seconds: Int = (day - 1) * 86_400 + (hour - 9) * 3_600 + minute * 60
    return Date(timeIntervalSince1970: 1_767_225_600 + TimeInterval(seconds))
}

/// An `AccountDirectory` that counts lookups (to prove some refusals come before any).
final class CountingDirectory: AccountDirectory {
    private let base: FakeAccounts
    /// An atomic counter: lookups from concurrent transfers only add to it.
    private let count = Atomic(0)

    init(_ base: FakeAccounts) { self.base = base }

    var lookups: Int { count.load(ordering: .sequentiallyConsistent) }

    func account(number: AccountNumber) async throws -> AccountSummary? {
        count.add(1, ordering: .sequentiallyConsistent)
        return try await base.account(number: number)
    }

    func accounts(of owner: UserID) async throws -> [AccountSummary] {
        count.add(1, ordering: .sequentiallyConsistent)
        return try await base.accounts(of: owner)
    }
}

/// A `TransferStore` in memory; it ignores the transaction token, like FakeAccounts, and compares keys
/// byte for byte, as the databases do.
final class InMemoryTransferStore: TransferStore {
    private let rows = Locked<[PositionedTransfer]>([])

    var all: [TransferSummary] { rows.withLock { $0.map(\.transfer) } }

    func transfer(initiatedBy user: UserID, idempotencyKey: String, in transaction: any Transaction) throws -> TransferSummary? {
        rows.withLock {
            $0.first { $0.transfer.initiatedBy == user && $0.transfer.idempotencyKey.utf8.elementsEqual(idempotencyKey.utf8) }?.transfer
        }
    }

    func sentTotal(initiatedBy user: UserID, currency: Currency, from start: Date, until end: Date, in transaction: any Transaction) throws
        -> Money
    {
        let total = rows.withLock { rows in
            rows.map(\.transfer).filter {
                $0.initiatedBy == user && $0.amount.currency == currency && $0.createdAt >= start && $0.createdAt < end
            }
            .reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        }
        return Money(minorUnits: total, currency: currency)
    }

    func insert(_ transfer: TransferSummary, in transaction: any Transaction) throws {
        try rows.withLock { rows in
            guard
                !rows.contains(where: {
                    $0.transfer.initiatedBy == transfer.initiatedBy
                        && $0.transfer.idempotencyKey.utf8.elementsEqual(transfer.idempotencyKey.utf8)
                })
            else {
                throw TransferError.idempotencyKeyReused(transfer.idempotencyKey)
            }
            rows.append(PositionedTransfer(position: Int64(rows.count + 1), transfer: transfer))
        }
    }

    func transfers(initiatedBy user: UserID, before position: Int64?, limit: Int) async throws -> [PositionedTransfer] {
        rows.withLock { rows in
            Array(rows.filter { $0.transfer.initiatedBy == user && $0.position < (position ?? .max) }.reversed().prefix(limit))
        }
    }

    func transfer(id: TransferID, initiatedBy user: UserID) async throws -> TransferSummary? {
        rows.withLock { $0.first { $0.transfer.id == id && $0.transfer.initiatedBy == user }?.transfer }
    }
}

/// A `RecipientStore` in memory: favourites in a list, recents derived from an `InMemoryTransferStore`.
final class InMemoryRecipientStore: RecipientStore {
    /// The key the SQLite store compares by (``RecipientAlias/key``).
    static func key(_ alias: String) -> String { (try? RecipientAlias(alias))?.key ?? alias.lowercased() }

    private let saved = Locked<[UserID: [FavouriteRecipient]]>([:])
    private let transfers: InMemoryTransferStore

    init(transfers: InMemoryTransferStore) {
        self.transfers = transfers
    }

    func favourites(of user: UserID) async throws -> [FavouriteRecipient] {
        saved.withLock { ($0[user] ?? []).sorted { $0.alias.lowercased() < $1.alias.lowercased() } }
    }

    func favourite(_ alias: RecipientAlias, of user: UserID) async throws -> FavouriteRecipient? {
        saved.withLock { ($0[user] ?? []).first { Self.key($0.alias) == alias.key } }
    }

    func add(_ favourite: FavouriteRecipient, of user: UserID) async throws {
        try saved.withLock { saved in
            let mine = saved[user] ?? []
            if let taken = mine.first(where: { Self.key($0.alias) == Self.key(favourite.alias) }) {
                throw TransferError.aliasTaken(alias: taken.alias, accountNumber: taken.accountNumber)
            }
            if let same = mine.first(where: { $0.accountNumber == favourite.accountNumber }) {
                throw TransferError.alreadyAFavourite(accountNumber: same.accountNumber, alias: same.alias)
            }
            saved[user] = mine + [favourite]
        }
    }

    func remove(_ alias: RecipientAlias, of user: UserID) async throws -> FavouriteRecipient? {
        saved.withLock { saved in
            guard let index = saved[user]?.firstIndex(where: { Self.key($0.alias) == alias.key }) else { return nil }
            return saved[user]?.remove(at: index)
        }
    }

    func recentRecipients(of user: UserID, limit: Int) async throws -> [RecentRecipient] {
        var seen = Set<String>()
        var recents: [RecentRecipient] = []
        for transfer in transfers.all.reversed() where transfer.initiatedBy == user && seen.insert(transfer.to).inserted {
            recents.append(RecentRecipient(accountNumber: transfer.to, lastSentAt: transfer.createdAt))
        }
        return Array(recents.prefix(limit))
    }
}
