import Foundation
import Money
import SharedKit
import TransferInterface

/// A `TransferStarter` for other features' tests and Examples (Account's send-money screen): it
/// records every draft and answers with a receipt made from it — or with the error you set.
///
/// The amount is read as whole units of `currency` (digits and commas); the balance after is `balanceAfter`.
public final class FakeTransferStarter: TransferStarter {
    private struct State {
        var drafts: [TransferDraft] = []
        var failure: (any Error & Sendable)?
        var balanceAfter: Money
    }

    private let state: Locked<State>
    private let currency: Currency
    private let sentAt: Date
    private let sender: UserID

    public init(
        currency: Currency = .krw, balanceAfter: Money = Money(minorUnits: 0, currency: .krw),
        sentAt: Date = Date(timeIntervalSince1970: 1_767_225_600), sender: UserID = "user-ada"
    ) {
        self.state = Locked(State(balanceAfter: balanceAfter))
        self.currency = currency
        self.sentAt = sentAt
        self.sender = sender
    }

    /// Every draft sent so far, in order.
    public var drafts: [TransferDraft] { state.withLock { $0.drafts } }

    /// Makes `send` throw `error` from now on (`nil`: succeed again).
    public func fail(with error: (any Error & Sendable)?) { state.withLock { $0.failure = error } }

    /// The source balance the next receipts show.
    public func setBalanceAfter(_ money: Money) { state.withLock { $0.balanceAfter = money } }

    public func send(_ draft: TransferDraft) async throws -> TransferReceipt {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.drafts.append(draft)
            let number = state.drafts.count
            let units = Int64(draft.amount.filter { $0 != "," && !$0.isWhitespace }) ?? 0
            var scale: Int64 = 1
            for _ in 0..<currency.minorUnitDigits { scale *= 10 }
            let key = draft.idempotencyKey ?? "fake-key-\(number)"
            let replayed = state.drafts.dropLast().contains { $0.idempotencyKey != nil && $0.idempotencyKey == draft.idempotencyKey }
            let transfer = TransferSummary(
                id: TransferID("fake-transfer-\(number)"), from: draft.from, to: draft.to,
                amount: Money(minorUnits: units * scale, currency: currency), memo: draft.memo, idempotencyKey: key,
                createdAt: sentAt, initiatedBy: sender, fromBalanceAfter: state.balanceAfter)
            return TransferReceipt(transfer: transfer, replayed: replayed)
        }
    }
}

/// A `TransferReading` over a list you give, newest first, paged like the real one (cursor = index).
public final class FakeTransferReading: TransferReading {
    private let stored: Locked<[TransferSummary]>

    /// `transfers` newest first.
    public init(_ transfers: [TransferSummary] = []) {
        stored = Locked(transfers)
    }

    /// Puts a transfer on top (the newest).
    public func add(_ transfer: TransferSummary) { stored.withLock { $0.insert(transfer, at: 0) } }

    public func transfers(limit: Int, after cursor: String?) async throws -> TransferPage {
        let all = stored.withLock { $0 }
        let start = cursor.flatMap { Int($0) } ?? 0
        let page = Array(all.dropFirst(start).prefix(limit))
        let next = start + page.count < all.count ? String(start + page.count) : nil
        return TransferPage(transfers: page, nextCursor: next)
    }

    public func transfer(id: TransferID) async throws -> TransferSummary {
        guard let transfer = stored.withLock({ $0.first { $0.id == id } }) else { throw FakeTransferNotFound(id: id) }
        return transfer
    }
}

/// What `FakeTransferReading.transfer(id:)` throws for an id it does not have.
public struct FakeTransferNotFound: UserFacingError, Equatable {
    public let id: TransferID
    public var message: String { "You have no transfer “\(id)”." }
    public var exitStatus: ExitStatus { .unavailable }
}

/// A `RecipientsReading` over favourites and recents you give (Account's send-money screen offers
/// them); or failing with the error you set.
public final class FakeRecipientsReading: RecipientsReading {
    private struct State {
        var recipients: Recipients
        var failure: (any Error & Sendable)?
    }

    private let state: Locked<State>

    /// `favourites` by alias, `recents` newest first — as the real one lists them.
    public init(favourites: [FavouriteRecipient] = [], recents: [RecentRecipient] = []) {
        state = Locked(State(recipients: Recipients(favourites: favourites, recents: recents)))
    }

    /// Replaces what `recipients()` answers.
    public func set(_ recipients: Recipients) { state.withLock { $0.recipients = recipients } }

    /// Makes `recipients()` throw `error` from now on (`nil`: answer again).
    public func fail(with error: (any Error & Sendable)?) { state.withLock { $0.failure = error } }

    public func recipients() async throws -> Recipients {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.recipients
        }
    }
}
