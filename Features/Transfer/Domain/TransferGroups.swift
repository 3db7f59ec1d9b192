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
/// none of which is written. Up to ``width`` groups at a time per process, **never two that share a
/// sender or an account**: on PostgreSQL, one is planned while the other waits for the database, and
/// two groups on other senders and accounts do not wait for each other — but a second group that
/// shares one would only wait for the first one's locks, holding its own meanwhile. Its transfers
/// wait in the queue instead and go with the next group, which is then larger: on a few hot
/// accounts, one group at a time, each as large as the load makes it. A group is always the head of
/// the queue, so no transfer is overtaken by one that came after it. On SQLite, with one writer,
/// the groups take turns anyway. A lone transfer is a group of one, written at once.
final class TransferGroups: Sendable {
    /// The most transfers one group holds (a few thousand bind parameters per statement).
    static let capacity = 64

    private struct Waiting {
        let transfer: PendingTransfer
        let answer: CheckedContinuation<TransferReceipt, any Error>
    }

    /// What a group holds while it is written: its senders (the keys its transaction locks) and its
    /// accounts (the rows it locks).
    enum Claim: Hashable {
        case sender(UserID)
        case account(AccountNumber)

        static func of(_ transfer: PendingTransfer) -> [Claim] {
            [.sender(transfer.key.user), .account(transfer.request.from), .account(transfer.request.to)]
        }
    }

    private struct Queue {
        var waiting: [Waiting] = []
        /// The claims of each group being written now (at most ``width``), by writer.
        var writing: [Int: Set<Claim>] = [:]
        /// The number the next writer takes.
        var nextWriter = 0

        /// The next group for `writer`, whose previous group is written: the first waiting
        /// transfers (at most ``capacity``) — unless they claim something another group being
        /// written claims. Then none: `writer` stops, and the other writer takes them all when it
        /// is done (taking only those that do not conflict would cut the groups small, each at the
        /// first transfer the other group holds up).
        mutating func take(for writer: Int) -> [Waiting] {
            writing[writer] = nil
            let group = Array(waiting.prefix(TransferGroups.capacity))
            let claims = Set(group.flatMap { Claim.of($0.transfer) })
            guard !group.isEmpty, writing.values.allSatisfy({ $0.isDisjoint(with: claims) }) else { return [] }
            waiting.removeFirst(group.count)
            writing[writer] = claims
            return group
        }
    }

    /// How many groups one process writes at once.
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
            let start: (writer: Int, group: [Waiting])? = queue.withLock { queue in
                queue.waiting.append(Waiting(transfer: transfer, answer: answer))
                guard queue.writing.count < Self.width else { return nil }
                let writer = queue.nextWriter
                queue.nextWriter += 1
                let group = queue.take(for: writer)
                return group.isEmpty ? nil : (writer, group)
            }
            // Detached: the writer serves everyone's transfers, and must not carry the request-scoped
            // values (its user, its logger) of the request that happened to start it.
            if let start { Task.detached { await self.writeGroups(start.writer, from: start.group) } }
        }
    }

    /// Writes `group`, then the next groups `writer` may take, until there is none.
    private func writeGroups(_ writer: Int, from group: [Waiting]) async {
        var group = group
        while !group.isEmpty {
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
            group = queue.withLock { $0.take(for: writer) }
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
        // Two reads, both on the wire before the first answer is waited for (where the engine can):
        // the transfers already recorded under the group's keys with every sender's total of the day
        // so far, in the currency it sends (one statement where the engine can) — before the
        // accounts are locked: the senders' keys already cover both, and the accounts' locks (which
        // every group on those accounts waits for) are then held for the writes alone; and the
        // accounts, locked.
        let days = Array(
            Set(transfers.map { DayTotal(user: $0.key.user, currency: $0.request.amount.currency, start: $0.day.start, end: $0.day.end) }))
        let reads = try store.pendingGroupReads(
            keyedBy: transfers.map(\.key), days: days.map { SentDay(user: $0.user, currency: $0.currency, start: $0.start, end: $0.end) },
            in: transaction)
        let group = try posting.group(touching: transfers.flatMap { [$0.request.from, $0.request.to] }, in: transaction)
        let read = try reads.value()
        var recorded: [TransferKey: TransferSummary] = [:]
        for original in read.recorded {
            recorded[TransferKey(user: original.initiatedBy, key: original.idempotencyKey)] = original
        }
        var sentToday: [DayTotal: Int64] = [:]
        for (day, total) in zip(days, read.sentTotals) { sentToday[day] = total.minorUnits }
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
        // The postings, the transfers and the notices may all be on the wire before any answer
        // comes back: the flush waits for them, and is where a key the table refuses shows.
        try group.write()
        do {
            try store.insert(written, in: transaction)
            try inbox.publish(notices, in: transaction)
            try transaction.flush()
        } catch TransferError.idempotencyKeyReused(let key) {
            // The table's last line of defence refused one key: that transfer alone, the others again without it.
            guard
                let index = transfers.indices.first(where: {
                    transfers[$0].key.key.utf8.elementsEqual(key.utf8) && recorded[transfers[$0].key]?.id == transfers[$0].id
                })
            else { throw TransferError.idempotencyKeyReused(key) }
            throw Excluded(index: index, refusal: TransferError.idempotencyKeyReused(key))
        }
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
