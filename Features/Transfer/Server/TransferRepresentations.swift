import TransferAPI
import TransferInterface

// Transfer's values as the API's types (docs/api/openapi.yaml). A transfer itself needs none: its
// type is TransferInterface's `TransferRecord`, the one shape `moa transfer … --json` prints too.

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
