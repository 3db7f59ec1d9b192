import AccountInterface
import Foundation
import Money
import SharedKit

/// An account as a program reads it — `moa account show/list/open/rename/close --json`, and
/// moa-server's answers about accounts: its one JSON shape, written once. docs/api/openapi.yaml
/// documents it as the schema `Account`, whose generated type is this one (`x-moa-swift-type`, see
/// Scripts/generate-api). The owner is not part of it: an account is only ever shown to its owner.
///
/// Decoding is the client's edge: a number that is not a valid account number, a currency that is
/// not ISO 4217 or a type the document does not list fails it.
public struct AccountRecord: Codable, Hashable, Sendable {
    public let id: AccountID
    public let number: AccountNumber
    public let name: String
    public let type: AccountKind
    public let balance: Money
    public let closed: Bool
    public let openedAt: Date

    public init(_ account: AccountSummary) {
        (id, number, name, type) = (account.id, account.number, account.name, account.kind)
        (balance, closed, openedAt) = (account.balance, account.isClosed, account.openedAt)
    }

    /// The account, as owned by `owner` (the user the answer was for).
    public func summary(owner: UserID) -> AccountSummary {
        AccountSummary(
            id: id, number: number, name: name, kind: type, ownerID: owner, balance: balance, isClosed: closed, openedAt: openedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, number, name, type, balance, closed
        case openedAt = "opened_at"
    }
}

/// A page of an account's history as a program reads it — `moa account history --json`, and
/// moa-server's answer to `GET /v1/accounts/{account}/history` (the schema `HistoryPage`):
/// `{"account": …, "entries": […], "next_cursor": "…"}`, `next_cursor` `null` on the last page (as
/// a page of transfers or notices says it).
public struct HistoryRecord: Codable, Hashable, Sendable {
    public let account: AccountRecord
    public let entries: [LedgerEntry]
    public let nextCursor: String?

    public init(account: AccountSummary, page: HistoryPage) {
        self.account = AccountRecord(account)
        entries = page.entries
        nextCursor = page.nextCursor
    }

    /// The page, without the account.
    public var page: HistoryPage { HistoryPage(entries: entries, nextCursor: nextCursor) }

    enum CodingKeys: String, CodingKey {
        case account, entries
        case nextCursor = "next_cursor"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account, forKey: .account)
        try container.encode(entries, forKey: .entries)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}
