import AccountDomain
import AccountInterface
import AuthDomain
import Foundation
import InboxDomain
import MoaAPI
import Money
import SettingsDomain
import TransferInterface

// The Domain's values as the API's types (docs/api/openapi.yaml): the same fields as `moa … --json`.

extension Components.Schemas.Money {
    init(_ money: Money) {
        self.init(minorUnits: money.minorUnits, currency: money.currency.code)
    }
}

extension Components.Schemas.Session {
    init(_ session: StoredSession) {
        self.init(
            userId: session.userID.rawValue, email: session.email, tokenType: .bearer, accessToken: session.accessToken,
            accessExpiresAt: session.accessExpiresAt, refreshToken: session.refreshToken, refreshExpiresAt: session.refreshExpiresAt)
    }
}

extension Components.Schemas.Account {
    init(_ account: AccountSummary) {
        let kind: Components.Schemas.AccountType =
            switch account.kind {
            case .checking: .checking
            case .savings: .savings
            case .investment: .investment
            }
        self.init(
            id: account.id.rawValue, number: account.number.description, name: account.name, _type: kind,
            balance: .init(account.balance), closed: account.isClosed, openedAt: account.openedAt)
    }
}

extension Components.Schemas.LedgerEntry {
    init(_ entry: LedgerEntry) {
        let kind: KindPayload =
            switch entry.kind {
            case .deposit: .deposit
            case .withdrawal: .withdrawal
            case .transferIn: .transferIn
            case .transferOut: .transferOut
            }
        self.init(
            id: entry.id, account: entry.account.description, kind: kind, amount: .init(entry.amount),
            balanceAfter: .init(entry.balanceAfter), counterparty: entry.counterparty?.description, memo: entry.memo,
            reference: entry.reference, at: entry.at)
    }
}

extension Components.Schemas.Transfer {
    /// `replayed`: only for a send's answer; `nil` for a listed or shown transfer.
    init(_ transfer: TransferSummary, replayed: Bool?) {
        self.init(
            id: transfer.id.rawValue, from: transfer.from, to: transfer.to, amount: .init(transfer.amount), memo: transfer.memo,
            idempotencyKey: transfer.idempotencyKey, createdAt: transfer.createdAt, initiatedBy: transfer.initiatedBy.rawValue,
            fromBalanceAfter: .init(transfer.fromBalanceAfter), replayed: replayed)
    }
}

extension Components.Schemas.FavouriteRecipient {
    init(_ favourite: FavouriteRecipient) {
        self.init(alias: favourite.alias, accountNumber: favourite.accountNumber, addedAt: favourite.addedAt)
    }
}

extension Components.Schemas.RecentRecipient {
    /// `favourites`: to name the recent destination's alias, when it is one.
    init(_ recent: RecentRecipient, favourites: [FavouriteRecipient]) {
        self.init(
            accountNumber: recent.accountNumber, lastSentAt: recent.lastSentAt,
            alias: favourites.first { $0.accountNumber == recent.accountNumber }?.alias)
    }
}

extension Components.Schemas.Notice {
    init(_ notice: InboxItem) {
        self.init(
            id: notice.id, kind: notice.kind.rawValue, title: notice.title, body: notice.body, createdAt: notice.createdAt,
            read: notice.readAt != nil, readAt: notice.readAt)
    }
}

extension Components.Schemas.Setting {
    /// One of the money-protecting settings (the only ones the server serves: their values are KRW).
    init(_ entry: SettingEntry) throws {
        guard let key = Components.Schemas.SettingKey(rawValue: entry.key.name), case .money(let value)? = entry.value,
            case .money(let fallback)? = entry.defaultValue
        else {
            throw Problem(
                kind: "invalid-parameter", title: "Invalid parameter", status: .badRequest,
                detail: "The setting \(entry.key.name) is not served by moa-server.", exitStatus: .usage)
        }
        self.init(
            key: key, value: .init(value), _default: .init(fallback), source: entry.source == .user ? .user : ._default,
            description: entry.key.summary.en)
    }
}
