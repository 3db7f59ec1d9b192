import Foundation
import Money
import Persistence
import Registry
import SharedKit
import TransferInterface

/// Transfer's records (TransferData implements it on SQLite).
///
/// The methods taking a `Transaction` run inside the unit of work that ``SendMoney`` opens, the same
/// one Account's posting writes its ledger entries in: the idempotency lookup, the day's total,
/// the posting and the new record commit together or not at all.
public protocol TransferStore: Sendable {
    /// The user's transfer recorded under `idempotencyKey`, if any.
    func transfer(initiatedBy user: UserID, idempotencyKey: String, in transaction: any Transaction) throws -> TransferSummary?
    /// The sum of the user's transfers in `currency` created in `start..<end`.
    func sentTotal(
        initiatedBy user: UserID, currency: Currency, from start: Date, until end: Date,
        in transaction: any Transaction
    ) throws -> Money
    /// Records a transfer; the store refuses a second record with the same user and key.
    func insert(_ transfer: TransferSummary, in transaction: any Transaction) throws

    /// The sums of ``sentTotal(initiatedBy:currency:from:until:in:)`` for each of `days`, in order
    /// (a group's: one read where the engine can).
    func sentTotals(_ days: [SentDay], in transaction: any Transaction) throws -> [Money]
    /// The transfers recorded under any of `keys` (a group's lookup: one read where the engine can).
    func transfers(keyedBy keys: [TransferKey], in transaction: any Transaction) throws -> [TransferSummary]
    /// Records `transfers`, in order (one statement where the engine can).
    func insert(_ transfers: [TransferSummary], in transaction: any Transaction) throws
    /// A group's reads before it plans — ``transfers(keyedBy:in:)`` and ``sentTotals(_:in:)`` —
    /// sent without waiting for the answer where the engine can (``Pending``): one statement (one
    /// snapshot, one round trip) where it can. Both read only the senders' rows, which the group's
    /// transaction holds (``UnitOfWork/perform(serializingOn:_:)``), so read one after the other
    /// they answer the same.
    func pendingGroupReads(keyedBy keys: [TransferKey], days: [SentDay], in transaction: any Transaction) throws -> Pending<GroupReads>

    /// The user's transfers, newest first, those strictly older than `position` (all when `nil`).
    func transfers(initiatedBy user: UserID, before position: Int64?, limit: Int) async throws -> [PositionedTransfer]
    /// One of the user's transfers.
    func transfer(id: TransferID, initiatedBy user: UserID) async throws -> TransferSummary?
}

/// Who sent a transfer and under which idempotency key: what makes it unique. Keys are equal when
/// their bytes are, as the databases compare them — not by Swift's canonical equivalence, which
/// would take a key in NFD for another in NFC and answer one with the other's transfer.
public struct TransferKey: Sendable, Hashable {
    public let user: UserID
    public let key: String

    public init(user: UserID, key: String) {
        self.user = user
        self.key = key
    }

    public static func == (left: TransferKey, right: TransferKey) -> Bool {
        left.user == right.user && left.key.utf8.elementsEqual(right.key.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(user)
        for byte in key.utf8 { hasher.combine(byte) }
    }
}

/// A sender's sum to read: in one currency, over `[start, end)`.
public struct SentDay: Sendable, Hashable {
    public let user: UserID
    public let currency: Currency
    public let start: Date
    public let end: Date

    public init(user: UserID, currency: Currency, start: Date, end: Date) {
        self.user = user
        self.currency = currency
        self.start = start
        self.end = end
    }
}

extension TransferStore {
    /// One read per day.
    public func sentTotals(_ days: [SentDay], in transaction: any Transaction) throws -> [Money] {
        try days.map { try sentTotal(initiatedBy: $0.user, currency: $0.currency, from: $0.start, until: $0.end, in: transaction) }
    }

    /// One lookup per key.
    public func transfers(keyedBy keys: [TransferKey], in transaction: any Transaction) throws -> [TransferSummary] {
        try Set(keys).compactMap { try transfer(initiatedBy: $0.user, idempotencyKey: $0.key, in: transaction) }
    }

    /// One insert per transfer.
    public func insert(_ transfers: [TransferSummary], in transaction: any Transaction) throws {
        for transfer in transfers { try insert(transfer, in: transaction) }
    }

    /// Read at once (an engine that answers each statement as it is made), one read after the other.
    public func pendingGroupReads(
        keyedBy keys: [TransferKey], days: [SentDay], in transaction: any Transaction
    ) throws -> Pending<GroupReads> {
        .ready(GroupReads(recorded: try transfers(keyedBy: keys, in: transaction), sentTotals: try sentTotals(days, in: transaction)))
    }
}

/// What ``TransferStore/pendingGroupReads(keyedBy:days:in:)`` answers.
public struct GroupReads: Sendable, Hashable {
    /// The transfers recorded under the keys asked for (each once, in no order).
    public let recorded: [TransferSummary]
    /// The sum sent so far on each of the days asked for, in their order.
    public let sentTotals: [Money]

    public init(recorded: [TransferSummary], sentTotals: [Money]) {
        self.recorded = recorded
        self.sentTotals = sentTotals
    }
}

/// A transfer and its place in the store's order of insertion (the paging key: increasing, never reused).
public struct PositionedTransfer: Sendable, Hashable {
    public let position: Int64
    public let transfer: TransferSummary

    public init(position: Int64, transfer: TransferSummary) {
        self.position = position
        self.transfer = transfer
    }
}

public enum TransferStoreKey: ServiceKey { public typealias Service = any TransferStore }
