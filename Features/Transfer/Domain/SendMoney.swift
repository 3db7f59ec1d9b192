import AccountInterface
import AuthInterface
import Foundation
import InboxInterface
import Money
import Persistence
import Registry
import SettingsInterface
import SharedKit
import TransferInterface

/// The "send money" use case: checks a draft (resolving `@alias` to the user's favourite), then —
/// in **one** transaction, with the transfers that arrive meanwhile (``TransferGroups``: group
/// commit) — looks up the idempotency key, adds up what the user sent today, has
/// Account post the double entry, records the transfer (and the recent recipient), and publishes
/// the inbox notices: "money received" to the destination's owner when that is someone else, and
/// "large transfer sent" to the sender at or above `notifications.large-transfer`. Every refusal is
/// a typed error; nothing is written — and no notice published — unless all of it is. A replayed
/// request publishes nothing again.
public struct SendMoney: TransferStarter {
    private let session: any SessionProvider
    private let directory: any AccountDirectory
    private let settings: any SettingsReader
    private let recipients: RecipientBook
    private let clock: any WallClock
    private let calendar: Calendar
    private let makeID: @Sendable () -> TransferID
    /// The senders' accounts looked up so far (their owner and currency never change).
    private let sources = SourceCache()
    /// Transfers that arrive together are written together.
    private let groups: TransferGroups

    /// - Parameters:
    ///   - calendar: whose days the daily limit counts (its time zone is the user's).
    ///   - makeID: new transfer ids (injected for tests).
    public init(
        session: any SessionProvider, directory: any AccountDirectory, posting: any AccountPosting,
        settings: any SettingsReader, unitOfWork: any UnitOfWork, store: any TransferStore, recipients: RecipientBook,
        inbox: any InboxPublisher, clock: any WallClock,
        calendar: Calendar = SendMoney.localCalendar, makeID: @escaping @Sendable () -> TransferID = { .random() }
    ) {
        self.session = session
        self.directory = directory
        self.settings = settings
        self.recipients = recipients
        self.clock = clock
        self.calendar = calendar
        self.makeID = makeID
        groups = TransferGroups(unitOfWork: unitOfWork, store: store, posting: posting, inbox: inbox)
    }

    /// The Gregorian calendar in this machine's time zone: the user's days.
    public static var localCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }

    /// Who sends, under which limits, and from which amount a transfer counts as large: resolved
    /// once per command (or per batch).
    public struct Context: Sendable {
        public let user: AuthenticatedUser
        public let limits: TransferLimits
        /// `notifications.large-transfer`.
        public let largeTransferThreshold: Money
    }

    /// The logged-in user and their settings (`NotLoggedInError` when nobody is logged in).
    public func prepare() async throws -> Context {
        let user = try await session.requireUser()
        let snapshot = try await settings.snapshot()
        return Context(user: user, limits: snapshot.transferLimits, largeTransferThreshold: snapshot.largeTransferThreshold)
    }

    public func send(_ draft: TransferDraft) async throws -> TransferReceipt {
        try await send(draft, context: try await prepare())
    }

    /// Sends `draft` for `context.user`.
    func send(_ draft: TransferDraft, context: Context) async throws -> TransferReceipt {
        let user = context.user
        // Checks that need no lookup come first: a mistyped destination is refused before any.
        let typed: TypedDestination
        if let alias = try RecipientAlias.inDestination(draft.to) {
            typed = .alias(alias)
        } else {
            typed = .number(try AccountNumber(draft.to))
        }
        let memo = try Memo.parse(draft.memo)?.text
        let givenKey = try Self.idempotencyKey(draft.idempotencyKey)
        let destination =
            switch typed {
            case .number(let number): number
            case .alias(let alias): try await recipients.resolve(alias, of: user.id)
            }
        let source = try await sourceAccount(draft.from, of: user.id)
        let amount = try OperationAmount(parsing: draft.amount, currency: source.currency).money

        let now = clock.now()
        let day = calendar.dateInterval(of: .day, for: now) ?? DateInterval(start: now, duration: 86_400)
        let id = makeID()
        let request = PostingRequest(
            from: source.number, to: destination, amount: amount, memo: memo, reference: id.rawValue,
            initiatedBy: user.id, at: now)
        // Written with the transfers that arrive meanwhile, in one transaction serialized with the
        // sender's other transfers on every server (``TransferGroups``): the key's lookup and the
        // day's total hold until it commits; the accounts are locked by the posting's read.
        return try await groups.send(
            PendingTransfer(
                key: TransferKey(user: user.id, key: givenKey ?? id.rawValue), request: request, day: day, limits: context.limits,
                largeTransferThreshold: context.largeTransferThreshold, id: id))
    }

    /// What a transfer serializes on: its sender (``UnitOfWork/perform(serializingOn:_:)``).
    static func senderKey(_ user: UserID) -> String { "transfer-sender:\(user.rawValue)" }

    // MARK: Rules

    /// The per-transfer and daily limits of the amount's currency (Moa converts nothing, so every
    /// currency has its own: KRW's from the settings, the others' fixed, see `TransferLimits`); a
    /// currency without limits is refused. `sentToday` gives the user's total of the day in a currency.
    static func checkLimits(_ amount: Money, _ limits: TransferLimits, sentToday: (Currency) throws -> Money) throws {
        guard let currencyLimits = limits.limits(in: amount.currency),
            currencyLimits.perTransfer.currency == amount.currency, currencyLimits.daily.currency == amount.currency
        else { throw TransferError.noLimits(amount.currency) }
        if amount.minorUnits > currencyLimits.perTransfer.minorUnits {
            throw TransferError.overPerTransferLimit(amount: amount, limit: currencyLimits.perTransfer)
        }
        let daily = currencyLimits.daily
        let sent = try sentToday(daily.currency)
        let (total, overflow) = sent.minorUnits.addingReportingOverflow(amount.minorUnits)
        if overflow || total > daily.minorUnits {
            let left = max(0, daily.minorUnits - min(sent.minorUnits, daily.minorUnits))
            throw TransferError.dailyLimitExceeded(
                amount: amount, limit: daily, remaining: Money(minorUnits: left, currency: daily.currency))
        }
    }

    /// The inbox notices a posted transfer leaves: "money received" for the destination's owner when
    /// that is not the sender, and "large transfer sent" for the sender when the amount is at or
    /// above the threshold (only compared in the threshold's currency: Moa converts nothing).
    static func notices(for transfer: TransferSummary, receiver: UserID, largeTransferThreshold threshold: Money) -> [InboxNotice] {
        var notices: [InboxNotice] = []
        let memo = transfer.memo.map { ": \($0)" } ?? ""
        let details = NoticeTransferDetails(
            amountMinorUnits: transfer.amount.minorUnits, currency: transfer.amount.currency.code, from: transfer.from, to: transfer.to,
            transferID: transfer.id.rawValue)
        if receiver != transfer.initiatedBy {
            notices.append(
                InboxNotice(
                    recipient: receiver, kind: .moneyReceived, title: "Received \(transfer.amount.formatted())",
                    body: "From \(transfer.from) into \(transfer.to)\(memo)", createdAt: transfer.createdAt, transfer: details))
        }
        if transfer.amount.currency == threshold.currency, transfer.amount.minorUnits >= threshold.minorUnits {
            notices.append(
                InboxNotice(
                    recipient: transfer.initiatedBy, kind: .largeTransferSent, title: "Large transfer sent: \(transfer.amount.formatted())",
                    body:
                        "From \(transfer.from) to \(transfer.to)\(memo) (at or above your notifications.large-transfer of \(threshold.formatted()))",
                    createdAt: transfer.createdAt, transfer: details))
        }
        return notices
    }

    /// The user's account to send from, by number or id. Someone else's is "not found", exactly like
    /// a number nobody has: a sender never learns that another user's account exists.
    private func sourceAccount(_ reference: String, of user: UserID) async throws -> AccountSummary {
        if let cached = sources.account(reference, of: user) { return cached }
        let account: AccountSummary
        if let number = try? AccountNumber(reference) {
            guard let found = try await directory.account(number: number) else { throw TransferError.unknownSourceAccount(reference) }
            account = found
        } else {
            if Self.looksLikeAccountNumber(reference) { _ = try AccountNumber(reference) } // says which digit rule failed
            guard let found = try await directory.accounts(of: user).first(where: { $0.id.rawValue == reference }) else {
                throw TransferError.unknownSourceAccount(reference)
            }
            account = found
        }
        guard account.ownerID == user else { throw TransferError.unknownSourceAccount(reference) }
        sources.remember(account, as: reference, of: user)
        return account
    }

    static func looksLikeAccountNumber(_ text: String) -> Bool {
        let digits = text.filter(\.isNumber)
        return digits.count >= 10 && text.allSatisfy { $0.isNumber || $0 == "-" || $0 == " " }
    }

    /// The key, trimmed (`nil` when absent: a new one is generated). A key given empty is refused like
    /// any other unusable one: taken for "no key", a retry would send again.
    static func idempotencyKey(_ key: String?) throws(TransferError) -> String? {
        guard let key else { return nil }
        let trimmed = trimmed(key)
        guard !trimmed.isEmpty, trimmed.count <= TransferError.maximumKeyLength, !trimmed.unicodeScalars.contains(where: isControl),
            SafeText.firstForbidden(in: trimmed) == nil
        else {
            throw .invalidIdempotencyKey(key)
        }
        return trimmed
    }

    /// `text` without the white space that starts and ends it (reading it once from each end: the
    /// idempotency key of every request passes here).
    static func trimmed(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }), let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.isNoncharacterCodePoint
            || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}

/// Where a draft sends to, as typed: an account number, or one of the user's favourites.
private enum TypedDestination {
    case number(AccountNumber)
    case alias(RecipientAlias)
}

/// Each sender's accounts already looked up, by the reference they gave (number or id): only the
/// number, owner and currency are used — which never change — while the balance, the closed state and
/// the owner again are checked by the posting, inside the transaction. Bounded: full, it starts over.
final class SourceCache: Sendable {
    private struct Key: Hashable {
        let user: UserID
        let reference: String
    }

    static let capacity = 10_000
    private let accounts = Locked<[Key: AccountSummary]>([:])

    func account(_ reference: String, of user: UserID) -> AccountSummary? {
        accounts.withLock { $0[Key(user: user, reference: reference)] }
    }

    func remember(_ account: AccountSummary, as reference: String, of user: UserID) {
        accounts.withLock { accounts in
            if accounts.count >= Self.capacity { accounts.removeAll(keepingCapacity: true) }
            accounts[Key(user: user, reference: reference)] = account
        }
    }

    var count: Int { accounts.withLock { $0.count } }
}

/// Sending money as Transfer's own screens need it: one transfer (``TransferStarter``), or a batch
/// of them that resolves once what all its rows share. The embedded ``SendMoney``, or the App's
/// remote implementation over `moa-server`'s API.
public protocol TransferSending: TransferStarter {
    /// Begins a batch: the user and their limits are resolved once for all its rows.
    func startBatch() async throws -> any BatchSending
}

/// One batch's way of sending its rows, each on its own, each with its own idempotency key.
public protocol BatchSending: Sendable {
    func send(_ draft: TransferDraft) async throws -> TransferReceipt
}

extension SendMoney: TransferSending {
    public func startBatch() async throws -> any BatchSending {
        PreparedBatch(sendMoney: self, context: try await prepare())
    }

    /// A batch of the embedded app: one context (source accounts are looked up once by ``SendMoney``).
    struct PreparedBatch: BatchSending {
        let sendMoney: SendMoney
        let context: SendMoney.Context

        func send(_ draft: TransferDraft) async throws -> TransferReceipt {
            try await sendMoney.send(draft, context: context)
        }
    }
}

/// The "send money" use case, for Transfer's own screens (the batch needs more than the starter).
public enum SendMoneyKey: ServiceKey { public typealias Service = any TransferSending }

extension SendMoney {
    /// How the app composes the use cases: from Account, Settings, Auth and Inbox's Interfaces, Core's
    /// unit of work and clock, and Transfer's stores. Also Transfer's recipients and its
    /// `UserDataOwner` (``TransferUserDataKey``, for the App's `UserDataOwnersKey` list). It lives here (not in TransferData) because only Transfer's
    /// Domain and Feature may see other features' Interfaces; TransferFeatureModule lists it.
    public static var providers: [Provider] {
        [
            .singleton(
                SendMoneyKey.self,
                requires: SessionProviderKey.self, AccountDirectoryKey.self, AccountPostingKey.self, SettingsReaderKey.self,
                UnitOfWorkKey.self, TransferStoreKey.self, RecipientStoreKey.self, InboxPublisherKey.self, WallClockKey.self
            ) {
                session, directory, posting, settings, unitOfWork, store, favourites, inbox, clock in
                SendMoney(
                    session: session, directory: directory, posting: posting, settings: settings, unitOfWork: unitOfWork,
                    store: store, recipients: RecipientBook(session: session, store: favourites, directory: directory, clock: clock),
                    inbox: inbox, clock: clock)
            },
            .singleton(TransferStarterKey.self, requires: SendMoneyKey.self) { $0 },
            .singleton(
                RecipientBookKey.self, requires: SessionProviderKey.self, RecipientStoreKey.self, AccountDirectoryKey.self,
                WallClockKey.self
            ) {
                RecipientBook(session: $0, store: $1, directory: $2, clock: $3)
            },
            .singleton(RecipientsReadingKey.self, requires: RecipientBookKey.self) { $0 },
            .singleton(TransferUserDataKey.self, requires: TransferUserDataStoreKey.self) { TransferUserData.owner(store: $0) },
            .singleton(TransferReadingKey.self, requires: SessionProviderKey.self, TransferStoreKey.self) {
                TransferHistory(session: $0, store: $1)
            },
        ]
    }
}
