import Foundation
import Persistence
import Registry
import SharedKit

// What other features may use of Inbox: the notice they publish and the publisher. Producers
// (Transfer: money received, large transfer sent; Auth: security events) publish through
// `InboxPublisher`, in the same transaction as the event itself, so a notice exists exactly when
// its cause was committed. Only Inbox stores and reads notices.

/// What a notice is about. The raw values are stable: they appear in `moa inbox --json`.
public enum InboxNoticeKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Money arrived in one of the user's accounts from someone else's.
    case moneyReceived = "money-received"
    /// The user sent a transfer at or above their large-transfer threshold.
    case largeTransferSent = "large-transfer-sent"
    /// A new session began with the user's password.
    case newLogin = "new-login"
    /// A refresh token was used twice: the session family was revoked.
    case refreshTokenReuse = "refresh-token-reuse"
    /// The user's password was changed or reset.
    case passwordChanged = "password-changed"
    /// Too many wrong passwords or reset codes for the user's address: logins are refused for a while.
    case loginLockout = "login-lockout"
    /// Too many wrong PINs in a row: the session they were typed into was ended.
    case pinLockout = "pin-lockout"
    /// The user's PIN was removed.
    case pinRemoved = "pin-removed"
}

/// The facts of a notice about a transfer, as values: what `moa inbox --json` gives a script
/// besides the words ("Received 5,000,000 KRW").
public struct NoticeTransferDetails: Sendable, Hashable, Codable {
    /// The amount, in minor units of `currency`.
    public let amountMinorUnits: Int64
    /// ISO 4217, e.g. `KRW`.
    public let currency: String
    /// The account number the money left.
    public let from: String
    /// The account number it went to.
    public let to: String
    public let transferID: String

    public init(amountMinorUnits: Int64, currency: String, from: String, to: String, transferID: String) {
        self.amountMinorUnits = amountMinorUnits
        self.currency = currency
        self.from = from
        self.to = to
        self.transferID = transferID
    }

    enum CodingKeys: String, CodingKey {
        case amount, from, to
        case transferID = "transfer_id"
    }

    struct Amount: Codable {
        let minorUnits: Int64
        let currency: String

        enum CodingKeys: String, CodingKey {
            case minorUnits = "minor_units"
            case currency
        }
    }

    /// `{"amount": {"minor_units", "currency"}, "from", "to", "transfer_id"}`: money as everywhere in moa's JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Amount(minorUnits: amountMinorUnits, currency: currency), forKey: .amount)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(transferID, forKey: .transferID)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let amount = try container.decode(Amount.self, forKey: .amount)
        self.init(
            amountMinorUnits: amount.minorUnits, currency: amount.currency, from: try container.decode(String.self, forKey: .from),
            to: try container.decode(String.self, forKey: .to), transferID: try container.decode(String.self, forKey: .transferID))
    }
}

/// One notice for one user, as a producer publishes it.
public struct InboxNotice: Sendable, Hashable, Codable {
    /// Who sees it.
    public let recipient: UserID
    public let kind: InboxNoticeKind
    /// One line, e.g. "Received ₩50,000".
    public let title: String
    /// Details, e.g. "From 110-1234-5678-9 into 110-8765-4321-0: rent".
    public let body: String
    public let createdAt: Date
    /// The transfer it tells about, as values (money received, large transfer sent); `nil` otherwise.
    public let transfer: NoticeTransferDetails?

    public init(
        recipient: UserID, kind: InboxNoticeKind, title: String, body: String, createdAt: Date, transfer: NoticeTransferDetails? = nil
    ) {
        self.recipient = recipient
        self.kind = kind
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.transfer = transfer
    }
}

/// Where producers put notices. `publish` writes in the caller's transaction (a Data layer's, from
/// `UnitOfWork.perform`, or `SQLiteTransaction(db)` inside `AppDatabase.write`): if the caller rolls
/// back, the notice is gone too. It throws only for a storage failure (or a transaction token from
/// another storage engine), which the caller lets roll its own work back.
///
/// The app's implementation (InboxData, provided under ``InboxPublisherKey`` by `InboxDataModule`)
/// stores the notice for its recipient; they list it with `moa inbox` and mark it read with
/// `moa inbox read ID`. Tests and Examples of other features use `FakeInboxPublisher` (InboxTesting).
public protocol InboxPublisher: Sendable {
    func publish(_ notice: InboxNotice, in transaction: any Transaction) throws
    /// Publishes `notices`, in order (one statement where the engine can).
    func publish(_ notices: [InboxNotice], in transaction: any Transaction) throws
}

extension InboxPublisher {
    /// One notice after the other.
    public func publish(_ notices: [InboxNotice], in transaction: any Transaction) throws {
        for notice in notices { try publish(notice, in: transaction) }
    }
}

public enum InboxPublisherKey: ServiceKey {
    public typealias Service = any InboxPublisher
}
