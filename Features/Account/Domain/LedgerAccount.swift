import AccountInterface
import Foundation
import Money
import SharedKit

/// An account as the ledger reads it inside a write transaction: a customer's, or one of the hidden
/// cash accounts (no owner) on the other side of deposits and withdrawals.
public struct LedgerAccount: Sendable, Equatable {
    public let id: String
    public let number: AccountNumber
    public let name: String
    /// An ``AccountKind``'s raw value, or `cash`.
    public let kind: String
    /// `nil` for a cash account.
    public let ownerID: String?
    public let currency: Currency
    public let balance: Int64
    public let openedAt: Date
    public let isClosed: Bool

    public init(
        id: String, number: AccountNumber, name: String, kind: String, ownerID: String?, currency: Currency, balance: Int64,
        openedAt: Date, isClosed: Bool
    ) {
        self.id = id
        self.number = number
        self.name = name
        self.kind = kind
        self.ownerID = ownerID
        self.currency = currency
        self.balance = balance
        self.openedAt = openedAt
        self.isClosed = isClosed
    }

    public var isCash: Bool { ownerID == nil }

    /// The account as the posting rules see it.
    public var rules: PostingRules.Account {
        PostingRules.Account(id: id, number: number, ownerID: ownerID, currency: currency, balance: balance, isClosed: isClosed)
    }

    /// A customer's account as the use cases show it (`nil` for a cash account).
    public var summary: AccountSummary? {
        guard let kind = AccountKind(rawValue: kind), let ownerID else { return nil }
        return AccountSummary(
            id: AccountID(id), number: number, name: name, kind: kind, ownerID: UserID(ownerID),
            balance: Money(minorUnits: balance, currency: currency), isClosed: isClosed, openedAt: openedAt)
    }

    /// The same account with another balance (after a posting), without reading it again.
    public func with(balance: Int64) -> LedgerAccount {
        LedgerAccount(
            id: id, number: number, name: name, kind: kind, ownerID: ownerID, currency: currency, balance: balance, openedAt: openedAt,
            isClosed: isClosed)
    }
}
