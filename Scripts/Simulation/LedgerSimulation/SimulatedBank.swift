import AccountData
import AccountDomain
import AccountInterface
import AuthInterface
import Foundation
import GRDB
import InboxData
import InboxDomain
import InboxInterface
import Money
import Persistence
import Registry
import SettingsData
import SettingsDomain
import SettingsInterface
import SharedKit
import Storage
import Synchronization
import TransferData
import TransferDomain
import TransferInterface

/// A rule of the ledger broken on purpose, to show that the simulation catches it
/// (`Scripts/simulate --sabotage RULE`; SimulationTests).
public enum Sabotage: String, Sendable, CaseIterable {
    /// A transfer the source cannot cover is posted anyway: the source goes below zero.
    case overdraft
    /// The source of a transfer is not debited (the balance is put back after the posting): money is created.
    case skipDebit = "skip-debit"
}

/// The bank under test: the real Account, Transfer, Settings and Inbox stores and use cases, composed
/// through the registry on a new SQLite file (WAL, in a temporary folder), with a session the
/// simulation switches between users, a manual clock, deterministic account numbers and transfer ids,
/// and the switches that inject faults.
final class SimulatedBank: Sendable {
    let database: AppDatabase
    let clock: ManualWallClock
    let session: SimulatedSession
    let faults: FaultSwitch
    let accounts: AccountService
    let sendMoney: SendMoney
    let batch: TransferBatch
    let settings: SettingsManager
    let store: any AccountStore
    private let unitOfWork: any UnitOfWork
    private let owners: [any UserDataOwner]
    /// The 8 digits the next account number is drawn with (the label of the account being opened).
    private let nextDigits = Locked("00000000")
    private let transferCount = Locked(0)

    /// The calendar of the daily limits: UTC, whatever the machine's time zone.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        return calendar
    }()

    static let migrations = [AccountMigrations.all, TransferMigrations.all, SettingsMigrations.all, InboxMigrations.all]

    init(sabotage: Sabotage?) throws {
        database = try AppDatabase.temporary(migrations: Self.migrations)
        clock = ManualWallClock()
        session = SimulatedSession()
        faults = FaultSwitch()
        try database.write { db in try FaultSwitch.install(db) }

        let parts = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: clock, extra: [.instance(SessionProviderKey.self, session)]),
            AccountDataModule(), TransferDataModule(), SettingsDataModule(environment: [:]), InboxDataModule(),
            ModuleOf("Simulation", [Parts.provider]),
        ]).validate(root: PartsKey.self).resolve()

        let faults = faults
        let nextDigits = nextDigits
        let transferCount = transferCount
        let posting = FaultyPosting(base: parts.posting, faults: faults, sabotage: sabotage)
        let transfers = FaultyTransferStore(base: parts.transfers, faults: faults)
        let inbox = FaultyInbox(base: parts.inbox, faults: faults)
        store = parts.accounts
        settings = parts.settings
        unitOfWork = parts.unitOfWork
        accounts = AccountService(
            store: parts.accounts, session: session, clock: clock, drawDigits: { nextDigits.value.withLock { $0 } })
        let recipients = RecipientBook(session: session, store: parts.recipients, directory: parts.directory, clock: clock)
        sendMoney = SendMoney(
            session: session, directory: parts.directory, posting: posting, settings: parts.settings, unitOfWork: parts.unitOfWork,
            store: transfers, recipients: recipients, inbox: inbox, clock: clock, calendar: Self.calendar,
            makeID: {
                transferCount.value.withLock {
                    $0 += 1
                    return TransferID("t\($0)")
                }
            })
        batch = TransferBatch(sendMoney: sendMoney)
        owners = [
            AccountUserData(store: parts.accountUserData, clock: clock), TransferUserData.owner(store: parts.transferUserData),
            InboxUserData.owner(store: parts.inboxStore), parts.settingsUserData,
        ]
    }

    /// Opens an account whose number is drawn from `label` (so a replay opens the same numbers).
    func open(label: Int, kind: AccountKind, currency: Currency) async throws -> AccountSummary {
        nextDigits.value.withLock { $0 = String(format: "%08d", label) }
        return try await accounts.open(kind: kind, name: "Sim \(label)", currency: currency.code)
    }

    /// What `moa auth delete` does for the features composed here, in one unit of work: refused
    /// (``DeletionRefused``) while any owner has a blocker, otherwise every owner erases.
    func delete(_ user: UserID) async throws {
        let owners = owners
        try await unitOfWork.perform { transaction in
            let blockers = try owners.flatMap { try $0.deletionBlockers(for: user, in: transaction) }
            guard blockers.isEmpty else { throw DeletionRefused(blockers: blockers) }
            for owner in owners { try owner.erase(user, in: transaction) }
        }
    }
}

/// A value behind a lock, shared with the closures the use cases call.
private final class Locked<Value: Sendable>: Sendable {
    let value: Mutex<Value>

    init(_ value: Value) {
        self.value = Mutex(value)
    }
}

/// The deletion of a user was refused: some account still holds money.
struct DeletionRefused: Error, CustomStringConvertible {
    let blockers: [String]
    var description: String { blockers.joined(separator: " ") }
}

/// The logged-in user: whoever the current step says.
final class SimulatedSession: SessionProvider {
    private let user = Mutex<AuthenticatedUser?>(nil)

    func currentUser() async throws -> AuthenticatedUser? { user.withLock { $0 } }

    func logIn(_ id: UserID) {
        user.withLock { $0 = AuthenticatedUser(id: id, email: "\(id.rawValue)@sim.example") }
    }
}

/// What the simulation takes from the registry.
private struct Parts: Sendable {
    let accounts: any AccountStore
    let directory: any AccountDirectory
    let posting: any AccountPosting
    let transfers: any TransferStore
    let recipients: any RecipientStore
    let settings: SettingsManager
    let inbox: any InboxPublisher
    let inboxStore: any InboxStore
    let unitOfWork: any UnitOfWork
    let accountUserData: any AccountUserDataStore
    let transferUserData: any TransferUserDataStore
    let settingsUserData: any UserDataOwner

    static var provider: Provider {
        .singleton(
            PartsKey.self,
            requires: AccountStoreKey.self, AccountDirectoryKey.self, AccountPostingKey.self, TransferStoreKey.self,
            RecipientStoreKey.self, SettingsManagerKey.self, InboxPublisherKey.self, InboxStoreKey.self, UnitOfWorkKey.self,
            AccountUserDataStoreKey.self, TransferUserDataStoreKey.self, SettingsUserDataKey.self
        ) {
            Parts(
                accounts: $0, directory: $1, posting: $2, transfers: $3, recipients: $4, settings: $5, inbox: $6, inboxStore: $7,
                unitOfWork: $8, accountUserData: $9, transferUserData: $10, settingsUserData: $11)
        }
    }
}

private enum PartsKey: ServiceKey { typealias Service = Parts }

// MARK: - Faults

/// The error every injected fault throws (SQLite's abort carries the same words in its message).
struct InjectedFault: Error, CustomStringConvertible {
    static let words = "sim: injected fault"
    var description: String { Self.words }

    /// Whether `error` is an injected fault, as thrown or as SQLite reported it.
    static func isInjected(_ error: any Error) -> Bool {
        error is InjectedFault || String(reflecting: error).contains(words)
    }
}

/// Arms one fault for the next step. The Swift faults fire in the decorators below; `abortWrite` in
/// SQLite triggers on every table the use cases write, which count the step's row writes and raise
/// on the n-th (the statement's changes and the whole transaction are then rolled back).
final class FaultSwitch: Sendable {
    private let armed = Mutex(Fault.none)

    static let tables = [
        "account_accounts", "account_entries", "transfer_transfers", "transfer_totals", "transfer_favourites",
        "transfer_recent_recipients", "inbox_notices", "settings_value",
    ]

    static func install(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE sim_fault (target INTEGER NOT NULL, seen INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO sim_fault VALUES (0, 0)")
        for table in tables {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER sim_fault_\(table)_\(event.lowercased()) AFTER \(event) ON \(table)
                        WHEN (SELECT target FROM sim_fault) > 0
                        BEGIN
                            UPDATE sim_fault SET seen = seen + 1;
                            SELECT RAISE(ABORT, '\(InjectedFault.words)') FROM sim_fault WHERE seen = target;
                        END
                        """)
            }
        }
    }

    /// Arms `fault` (and the SQLite counter, for `abortWrite`) before a step.
    func arm(_ fault: Fault, in database: AppDatabase) throws {
        armed.withLock { $0 = fault }
        let target: Int
        if case .abortWrite(let n) = fault { target = n } else { target = 0 }
        try database.write { db in try db.execute(sql: "UPDATE sim_fault SET target = ?, seen = 0", arguments: [target]) }
    }

    /// Disarms whatever did not fire, after a step.
    func disarm(in database: AppDatabase) throws {
        armed.withLock { $0 = .none }
        try database.write { db in try db.execute(sql: "UPDATE sim_fault SET target = 0, seen = 0") }
    }

    /// Throws if `point` is the armed fault (once).
    func fire(_ point: Fault) throws {
        let fires = armed.withLock { armed in
            guard armed == point else { return false }
            armed = .none
            return true
        }
        if fires { throw InjectedFault() }
    }
}

/// Account's posting, with the `throwAfterPosting` fault and the sabotaged rules.
private struct FaultyPosting: AccountPosting {
    let base: any AccountPosting
    let faults: FaultSwitch
    let sabotage: Sabotage?

    func post(_ request: PostingRequest, in transaction: any Transaction) throws -> PostingReceipt {
        let receipt = try sabotaged(request, in: transaction)
        try faults.fire(.throwAfterPosting)
        return receipt
    }

    private func sabotaged(_ request: PostingRequest, in transaction: any Transaction) throws -> PostingReceipt {
        switch sabotage {
        case nil:
            return try base.post(request, in: transaction)
        case .skipDebit:
            let receipt = try base.post(request, in: transaction)
            let db = try SQLiteTransaction.open(transaction)
            try db.execute(
                sql: "UPDATE account_accounts SET balance = balance + ? WHERE number = ?",
                arguments: [request.amount.minorUnits, request.from.digits])
            return receipt
        case .overdraft:
            do {
                return try base.post(request, in: transaction)
            } catch PostingError.insufficientFunds(let number, let balance, let requested) {
                // Lend the source what it lacks for the posting's own check, then take it back.
                let db = try SQLiteTransaction.open(transaction)
                let shortfall = requested.minorUnits - balance.minorUnits
                let update = "UPDATE account_accounts SET balance = balance + ? WHERE number = ?"
                try db.execute(sql: update, arguments: [shortfall, number.digits])
                let receipt = try base.post(request, in: transaction)
                try db.execute(sql: update, arguments: [-shortfall, number.digits])
                return receipt
            }
        }
    }
}

/// Transfer's store, with the `throwOnRecord` fault.
private struct FaultyTransferStore: TransferStore {
    let base: any TransferStore
    let faults: FaultSwitch

    func transfer(initiatedBy user: UserID, idempotencyKey: String, in transaction: any Transaction) throws -> TransferSummary? {
        try base.transfer(initiatedBy: user, idempotencyKey: idempotencyKey, in: transaction)
    }

    func sentTotal(initiatedBy user: UserID, currency: Currency, from start: Date, until end: Date, in transaction: any Transaction)
        throws -> Money
    {
        try base.sentTotal(initiatedBy: user, currency: currency, from: start, until: end, in: transaction)
    }

    func insert(_ transfer: TransferSummary, in transaction: any Transaction) throws {
        try faults.fire(.throwOnRecord)
        try base.insert(transfer, in: transaction)
    }

    func transfers(initiatedBy user: UserID, before position: Int64?, limit: Int) async throws -> [PositionedTransfer] {
        try await base.transfers(initiatedBy: user, before: position, limit: limit)
    }

    func transfer(id: TransferID, initiatedBy user: UserID) async throws -> TransferSummary? {
        try await base.transfer(id: id, initiatedBy: user)
    }
}

/// The inbox, with the `throwOnNotice` fault.
private struct FaultyInbox: InboxPublisher {
    let base: any InboxPublisher
    let faults: FaultSwitch

    func publish(_ notice: InboxNotice, in transaction: any Transaction) throws {
        try base.publish(notice, in: transaction)
        try faults.fire(.throwOnNotice)
    }
}
