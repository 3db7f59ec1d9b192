import Money
import TransferAPI
import TransferInterface

// Transfer's values as the API's types (docs/api/openapi.yaml): the same fields as `moa … --json`.

extension Components.Schemas.Money {
    init(_ money: Money) {
        self.init(minorUnits: money.minorUnits, currency: money.currency.code)
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
