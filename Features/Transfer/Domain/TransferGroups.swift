import AccountInterface
import Foundation
import InboxInterface
import Money
import Persistence
import SettingsInterface
import SharedKit
import TransferInterface

/// One transfer checked as far as it can be without the database, waiting for its group.
struct PendingTransfer: Sendable {
    let key: TransferKey
    let request: PostingRequest
    /// The sender's day the daily limit counts.
    let day: DateInterval
    let limits: TransferLimits
    let largeTransferThreshold: Money
    let id: TransferID
}

/// Group commit: transfers that arrive while a group is being written wait, and are then written
/// together as the next group — in **one** transaction, serialized on every sender in it, planned in
/// memory one after the other (``write(_:store:posting:inbox:in:)``) and written by a few
/// statements whatever its size. Each transfer is still answered with its own receipt or its own
/// refusal; an error that is not one transfer's (the database failing, a bug) fails its whole group,
/// none of which is written. Up to ``width`` groups at a time per process (on PostgreSQL, one is
/// planned while the other waits for the database; two groups, or two processes' groups, on other
/// senders and accounts do not even wait for each other; on SQLite, with one writer, they take
/// turns). A lone transfer is a group of one, written at once.
final class TransferGroups: Sendable {
    /// The most transfers one group holds (a few thousand bind parameters per statement).
    static let capacity = 64

    private struct Waiting {
        let transfer: PendingTransfer
        let answer: CheckedContinuation<TransferReceipt, any Error>
    }

    private struct Queue {
        var waiting: [Waiting] = []
        /// Groups being written now (at most ``width``).
        var writers = 0
    }

    /// How many groups one process writes at once: while one waits for the database, the next is
    /// planned and sent.
    static let width = 2

    private let queue = Locked(Queue())
    private let unitOfWork: any UnitOfWork
    private let store: any TransferStore
    private let posting: any AccountPosting
    private let inbox: any InboxPublisher

    init(unitOfWork: any UnitOfWork, store: any TransferStore, posting: any AccountPosting, inbox: any InboxPublisher) {
        self.unitOfWork = unitOfWork
        self.store = store
        self.posting = posting
        self.inbox = inbox
    }

    /// Writes `transfer` with the next group: its receipt, or its refusal.
    func send(_ transfer: PendingTransfer) async throws -> TransferReceipt {
        try await withCheckedThrowingContinuation { answer in
            let starts = queue.withLock { queue in
                queue.waiting.append(Waiting(transfer: transfer, answer: answer))
                guard queue.writers < Self.width else { return false }
                queue.writers += 1
                return true
            }
            // Detached: the writer serves everyone's transfers, and must not carry the request-scoped
            // values (its user, its logger) of the request that happened to start it.
            if starts { Task.detached { await self.writeGroups() } }
        }
    }

    /// Writes groups until nobody waits.
    private func writeGroups() async {
        while true {
            let group: [Waiting] = queue.withLock { queue in
                let group = Array(queue.waiting.prefix(Self.capacity))
                queue.waiting.removeFirst(group.count)
                if group.isEmpty { queue.writers -= 1 }
                return group
            }
            guard !group.isEmpty else { return }
            var members = group
            let (store, posting, inbox) = (store, posting, inbox)
            while !members.isEmpty {
                let transfers = members.map(\.transfer)
                do {
                    let senders = Set(transfers.map(\.key.user)).map(SendMoney.senderKey)
                    let outcomes = try await unitOfWork.perform(serializingOn: senders) { transaction in
                        try Self.write(transfers, store: store, posting: posting, inbox: inbox, in: transaction)
                    }
                    for (waiting, outcome) in zip(members, outcomes) { waiting.answer.resume(with: outcome) }
                    members = []
                } catch let excluded as Excluded {
                    // Rolled back: that transfer is refused, the others are written again without it.
                    members.remove(at: excluded.index).answer.resume(throwing: excluded.refusal)
                } catch {
                    for waiting in members { waiting.answer.resume(throwing: error) }
                    members = []
                }
            }
        }
    }

    /// A posting refused after its group's posting had written part of it
    /// (``PostingGroup/refusalsLeaveNothing`` false): the transaction must not commit.
    struct Excluded: Error {
        let index: Int
        let refusal: any Error
    }

    /// One group, in `transaction`: each transfer in turn is looked up by its key (a replay answers
    /// with the original), checked against its limits on the day's total so far — the database's,
    /// read once per sender, plus this group's — and planned on the balances the earlier ones leave;
    /// then the group's postings, transfers (with their totals and recent recipients) and notices
    /// are written. Returns each transfer's outcome, in order; throws only what is not one transfer's.
    static func write(
        _ transfers: [PendingTransfer], store: any TransferStore, posting: any AccountPosting, inbox: any InboxPublisher,
        in transaction: any Transaction
    ) throws -> [Result<TransferReceipt, any Error>] {
        var recorded: [TransferKey: TransferSummary] = [:]
        for original in try store.transfers(keyedBy: transfers.map(\.key), in: transaction) {
            recorded[TransferKey(user: original.initiatedBy, key: original.idempotencyKey)] = original
        }
        let group = try posting.group(touching: transfers.flatMap { [$0.request.from, $0.request.to] }, in: transaction)
        // Every sender's total of the day so far, in the currency it sends, read at once.
        let days = Array(
            Set(transfers.map { DayTotal(user: $0.key.user, currency: $0.request.amount.currency, start: $0.day.start, end: $0.day.end) }))
        var sentToday: [DayTotal: Int64] = [:]
        let totals = try store.sentTotals(
            days.map { SentDay(user: $0.user, currency: $0.currency, start: $0.start, end: $0.end) }, in: transaction)
        for (day, total) in zip(days, totals) { sentToday[day] = total.minorUnits }
        var written: [TransferSummary] = []
        var notices: [InboxNotice] = []
        var outcomes: [Result<TransferReceipt, any Error>] = []
        for (index, pending) in transfers.enumerated() {
            let request = pending.request
            do {
                if let original = recorded[pending.key] {
                    guard original.from == request.from.description, original.to == request.to.description,
                        original.amount == request.amount, original.memo == request.memo
                    else { throw TransferError.idempotencyKeyReused(pending.key.key) }
                    outcomes.append(.success(TransferReceipt(transfer: original, replayed: true)))
                    continue
                }
                try SendMoney.checkLimits(request.amount, pending.limits) { currency in
                    let day = DayTotal(user: pending.key.user, currency: currency, start: pending.day.start, end: pending.day.end)
                    if let total = sentToday[day] { return Money(minorUnits: total, currency: currency) }
                    let total = try store.sentTotal(
                        initiatedBy: pending.key.user, currency: currency, from: pending.day.start, until: pending.day.end, in: transaction)
                    sentToday[day] = total.minorUnits
                    return total
                }
                let posted: (from: AccountSummary, to: AccountSummary)
                do {
                    posted = try group.plan(request)
                } catch {
                    // The account remembered is someone else's now (deleted, its number reused): as unknown.
                    let refusal: any Error =
                        if case PostingError.notOwner = error { TransferError.unknownSourceAccount(request.from.description) } else {
                            error
                        }
                    guard group.refusalsLeaveNothing else { throw Excluded(index: index, refusal: refusal) }
                    throw refusal
                }
                let transfer = TransferSummary(
                    id: pending.id, from: request.from.description, to: request.to.description, amount: request.amount, memo: request.memo,
                    idempotencyKey: pending.key.key, createdAt: request.at, initiatedBy: pending.key.user,
                    fromBalanceAfter: posted.from.balance)
                sentToday[
                    DayTotal(user: pending.key.user, currency: request.amount.currency, start: pending.day.start, end: pending.day.end),
                    default: 0] +=
                    request.amount.minorUnits
                recorded[pending.key] = transfer
                written.append(transfer)
                notices += SendMoney.notices(
                    for: transfer, receiver: posted.to.ownerID, largeTransferThreshold: pending.largeTransferThreshold)
                outcomes.append(.success(TransferReceipt(transfer: transfer, replayed: false)))
            } catch let error as any UserFacingError where TransferBatch.isAboutTheRow(error) {
                outcomes.append(.failure(error))
            }
        }
        try group.write()
        do {
            try store.insert(written, in: transaction)
        } catch TransferError.idempotencyKeyReused(let key) {
            // The table's last line of defence refused one key: that transfer alone, the others again without it.
            guard
                let index = transfers.indices.first(where: {
                    transfers[$0].key.key.utf8.elementsEqual(key.utf8) && recorded[transfers[$0].key]?.id == transfers[$0].id
                })
            else { throw TransferError.idempotencyKeyReused(key) }
            throw Excluded(index: index, refusal: TransferError.idempotencyKeyReused(key))
        }
        try inbox.publish(notices, in: transaction)
        return outcomes
    }

    /// A sender's total of one day in one currency.
    private struct DayTotal: Hashable {
        let user: UserID
        let currency: Currency
        let start: Date
        let end: Date
    }
}
