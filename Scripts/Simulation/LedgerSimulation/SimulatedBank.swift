import AccountData
import AccountDomain
import AccountInterface
import AuthInterface
import Foundation
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
/// through the registry on a new database of `engine` (as `moa` composes them on SQLite, or
/// `moa-server` on PostgreSQL), with a session the simulation switches between users, a manual clock,
/// deterministic account numbers and transfer ids, and the switches that inject faults.
final class SimulatedBank: Sendable {
    /// The database, for the invariant checks and the fault switch.
    let storage: any BankEngine
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

    /// A new bank on a new database of `engine`; ``close()`` lets go of it.
    static func make(on engine: SimulationEngine, sabotage: Sabotage?) async throws -> SimulatedBank {
        let storage: any BankEngine
        switch engine {
        case .sqlite: storage = try SQLiteBankEngine()
        case .postgres(let location): storage = try await PostgresBankEngine.make(location)
        }
        do {
            return try SimulatedBank(storage: storage, sabotage: sabotage)
        } catch {
            await storage.close()
            throw error
        }
    }

    private init(storage: any BankEngine, sabotage: Sabotage?) throws {
        self.storage = storage
        clock = ManualWallClock()
        session = SimulatedSession()
        faults = FaultSwitch(storage: storage)

        let stores = storage.dataModulesProvideStores
        let parts = try RegistryBuilder(
            modules: storage.storeModules(clock: clock, extra: [.instance(SessionProviderKey.self, session)]) + [
                AccountDataModule(stores: stores), TransferDataModule(stores: stores),
                SettingsDataModule(environment: [:], stores: stores), InboxDataModule(stores: stores),
                ModuleOf("Simulation", [Parts.provider]),
            ]
        ).validate(root: PartsKey.self).resolve()

        let faults = faults
        let nextDigits = nextDigits
        let transferCount = transferCount
        let posting = FaultyPosting(base: parts.posting, faults: faults, storage: storage, sabotage: sabotage)
        let transfers = FaultyTransferStore(base: parts.transfers, faults: faults)
        let inbox = FaultyInbox(base: parts.inbox, faults: faults)
        store = parts.accounts
        settings = parts.settings
        unitOfWork = parts.unitOfWork
        accounts = AccountService(
            store: parts.accounts, session: session, clock: clock, drawDigits: { nextDigits.withLock { $0 } })
        let recipients = RecipientBook(session: session, store: parts.recipients, directory: parts.directory, clock: clock)
        sendMoney = SendMoney(
            session: session, directory: parts.directory, posting: posting, settings: parts.settings, unitOfWork: parts.unitOfWork,
            store: transfers, recipients: recipients, inbox: inbox, clock: clock, calendar: Self.calendar,
            makeID: {
                transferCount.withLock {
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

    /// Lets go of the database (a PostgreSQL seed's schema is dropped).
    func close() async {
        await storage.close()
    }

    /// Opens an account whose number is drawn from `label` (so a replay opens the same numbers).
    func open(label: Int, kind: AccountKind, currency: Currency) async throws -> AccountSummary {
        nextDigits.withLock { $0 = String(format: "%08d", label) }
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

/// The deletion of a user was refused: some account still holds money.
struct DeletionRefused: Error, CustomStringConvertible {
    let blockers: [String]
    var description: String { blockers.joined(separator: " ") }
}

/// The logged-in user: whoever the current step says.
final class SimulatedSession: SessionProvider {
    private let user = Locked<AuthenticatedUser?>(nil)

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

/// The error every injected fault throws (the database's abort carries the same words in its message).
struct InjectedFault: Error, CustomStringConvertible {
    static let words = "sim: injected fault"
    var description: String { Self.words }

    /// Whether `error` is an injected fault, as thrown or as the database reported it.
    static func isInjected(_ error: any Error) -> Bool {
        error is InjectedFault || String(reflecting: error).contains(words)
    }
}

/// Arms one fault for the next step. The Swift faults fire in the decorators below; `abortWrite` in
/// the database's triggers on every table the use cases write (each engine installs its own), which
/// count the step's row writes and raise on the n-th (the statement's changes and the whole
/// transaction are then rolled back).
final class FaultSwitch: Sendable {
    private let armed = Locked(Fault.none)
    private let storage: any BankEngine

    init(storage: any BankEngine) {
        self.storage = storage
    }

    /// Arms `fault` (and the database's counter, for `abortWrite`) before a step.
    func arm(_ fault: Fault) async throws {
        armed.withLock { $0 = fault }
        if case .abortWrite(let n) = fault {
            try await storage.execute("UPDATE sim_fault SET target = ?, seen = 0", [.int(Int64(n))])
        }
    }

    /// Disarms whatever did not fire, after a step (the database's counter only when it was armed:
    /// at 0 its triggers do nothing).
    func disarm() async throws {
        let fault = armed.withLock { fault in
            defer { fault = .none }
            return fault
        }
        if case .abortWrite = fault {
            try await storage.execute("UPDATE sim_fault SET target = 0, seen = 0", [])
        }
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
    let storage: any BankEngine
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
            try storage.adjustBalance(of: request.from.digits, by: request.amount.minorUnits, in: transaction)
            return receipt
        case .overdraft:
            do {
                return try base.post(request, in: transaction)
            } catch PostingError.insufficientFunds(let number, let balance, let requested) {
                // Lend the source what it lacks for the posting's own check, then take it back.
                let shortfall = requested.minorUnits - balance.minorUnits
                try storage.adjustBalance(of: number.digits, by: shortfall, in: transaction)
                let receipt = try base.post(request, in: transaction)
                try storage.adjustBalance(of: number.digits, by: -shortfall, in: transaction)
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
