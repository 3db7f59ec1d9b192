import Foundation
import Money
import Registry
import SharedKit

// What other features may use of Transfer: the transfer models, a starter (how Account's detail
// screen begins "send money"), a reader of the user's transfers, a reader of the user's recipients
// (favourites and recents, offered first when asking where to send), and their keys.
//
// Account numbers are plain strings here (an Interface sees no other feature, so it cannot name
// `AccountNumber`), always in their canonical form `110-1234-5678-9`.

public enum TransferTag {}
/// A transfer's id (a lowercase UUID).
public typealias TransferID = Identifier<TransferTag>

/// What a person asked to send, as typed: Transfer parses and checks every field.
public struct TransferDraft: Sendable, Hashable {
    /// The source: one of the user's accounts, by number (`110-1234-5678-9`, dashes optional) or id.
    public var from: String
    /// The destination: an account number (anyone's), checked digit by digit before any lookup, or
    /// `@alias` — one of the sender's favourites (`moa transfer recipients add`), matched without
    /// regard to case. An unknown alias names nothing (exit status 69) and nothing is sent.
    public var to: String
    /// The amount in the source account's currency, e.g. `50,000` or `12.50`.
    public var amount: String
    public var memo: String?
    /// Makes retries safe: the same key with the same request returns the first transfer. `nil`: a new key.
    public var idempotencyKey: String?

    public init(from: String, to: String, amount: String, memo: String? = nil, idempotencyKey: String? = nil) {
        self.from = from
        self.to = to
        self.amount = amount
        self.memo = memo
        self.idempotencyKey = idempotencyKey
    }
}

/// A transfer as recorded: who sent what, from where to where, and the sender's balance after it.
/// Its JSON shape, for the API and `--json` alike, is ``TransferRecord``.
public struct TransferSummary: Sendable, Hashable {
    public let id: TransferID
    /// The source account number, `110-1234-5678-9`.
    public let from: String
    /// The destination account number.
    public let to: String
    /// What left the source (always positive).
    public let amount: Money
    public let memo: String?
    /// The key given, or the one generated for the request. Unique per user.
    public let idempotencyKey: String
    public let createdAt: Date
    /// The user who sent it (the owner of the source).
    public let initiatedBy: UserID
    /// The source's balance right after the transfer.
    public let fromBalanceAfter: Money

    public init(
        id: TransferID, from: String, to: String, amount: Money, memo: String?, idempotencyKey: String, createdAt: Date,
        initiatedBy: UserID, fromBalanceAfter: Money
    ) {
        self.id = id
        self.from = from
        self.to = to
        self.amount = amount
        self.memo = memo
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        self.initiatedBy = initiatedBy
        self.fromBalanceAfter = fromBalanceAfter
    }
}

/// What sending returned.
public struct TransferReceipt: Sendable, Hashable {
    public let transfer: TransferSummary
    /// `true` when the idempotency key had already been used for this very request: nothing was
    /// posted this time, `transfer` is the original one.
    public let replayed: Bool

    public init(transfer: TransferSummary, replayed: Bool) {
        self.transfer = transfer
        self.replayed = replayed
    }
}

/// Starts a transfer for the logged-in user: the one way other features (Account's detail screen)
/// send money. Refusals are typed `UserFacingError`s with exit status 1 (limits, funds, closed
/// account, same account, currency mismatch, not the owner, a balance that would pass its maximum, a
/// reused idempotency key), 69 for an account or a favourite that does not exist, or 65 for malformed input
/// (account number, amount — zero or less, or above the per-operation maximum —, memo, key).
public protocol TransferStarter: Sendable {
    func send(_ draft: TransferDraft) async throws -> TransferReceipt
}

/// One page of transfers, newest first, and the cursor of the next (`nil`: no more).
public struct TransferPage: Sendable, Hashable {
    public let transfers: [TransferSummary]
    /// Opaque: pass it back as `after` for the next page.
    public let nextCursor: String?

    public init(transfers: [TransferSummary], nextCursor: String?) {
        self.transfers = transfers
        self.nextCursor = nextCursor
    }
}

/// The logged-in user's transfers (the ones they sent).
public protocol TransferReading: Sendable {
    /// Newest first, `limit` (1…200) at a time, after the cursor a previous page gave. Stable while
    /// other transfers are being sent: a page never repeats or skips a transfer.
    func transfers(limit: Int, after cursor: String?) async throws -> TransferPage
    /// One of the user's transfers; another user's is "not found".
    func transfer(id: TransferID) async throws -> TransferSummary
}

public enum TransferStarterKey: ServiceKey { public typealias Service = any TransferStarter }
public enum TransferReadingKey: ServiceKey { public typealias Service = any TransferReading }

// MARK: Recipients

/// A destination the user saved under an alias (`moa transfer recipients add NUMBER --alias A`).
public struct FavouriteRecipient: Sendable, Hashable, Codable {
    /// As the user wrote it, without the `@` (1–20 letters, digits, `-`, `_`; unique per user
    /// without regard to case). `TransferDraft.to` accepts it as `@alias`.
    public let alias: String
    /// Canonical, `110-1234-5678-9`.
    public let accountNumber: String
    public let addedAt: Date

    public init(alias: String, accountNumber: String, addedAt: Date) {
        self.alias = alias
        self.accountNumber = accountNumber
        self.addedAt = addedAt
    }
}

/// A destination the user sent to lately.
public struct RecentRecipient: Sendable, Hashable, Codable {
    /// Canonical, `110-1234-5678-9`.
    public let accountNumber: String
    /// When the user last sent to it.
    public let lastSentAt: Date

    public init(accountNumber: String, lastSentAt: Date) {
        self.accountNumber = accountNumber
        self.lastSentAt = lastSentAt
    }
}

/// The logged-in user's recipients.
public struct Recipients: Sendable, Hashable, Codable {
    /// Every favourite, by alias (case ignored).
    public let favourites: [FavouriteRecipient]
    /// The last ``Recipients/recentLimit`` distinct destinations the user sent to, newest first
    /// (favourites included).
    public let recents: [RecentRecipient]

    public static let recentLimit = 10

    public init(favourites: [FavouriteRecipient], recents: [RecentRecipient]) {
        self.favourites = favourites
        self.recents = recents
    }

    /// The favourite saved under `alias` (with or without `@`, case ignored).
    public func favourite(named alias: String) -> FavouriteRecipient? {
        // Compared as aliases are (TransferDomain's RecipientAlias.key): NFKC, then lower case.
        func key(_ text: String) -> String { text.precomposedStringWithCompatibilityMapping.lowercased() }
        let wanted = key(alias.hasPrefix("@") ? String(alias.dropFirst()) : alias)
        return favourites.first { key($0.alias) == wanted }
    }
}

/// Reads the logged-in user's favourites and recent recipients (`NotLoggedInError` when nobody is).
public protocol RecipientsReading: Sendable {
    func recipients() async throws -> Recipients
}

public enum RecipientsReadingKey: ServiceKey { public typealias Service = any RecipientsReading }
