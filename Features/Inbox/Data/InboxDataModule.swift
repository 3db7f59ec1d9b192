import Foundation
import GRDB
import InboxDomain
import InboxInterface
import Persistence
import Registry
import SharedKit
import Storage

/// What Inbox's Data layer provides: its store, and the publisher other features write notices with.
/// (The use cases and the user-data owner, which need AuthInterface, are provided by InboxFeatureModule.)
public struct InboxDataModule: FeatureModule {
    public let name = "Inbox"

    private let stores: StoreEngine

    public init(stores: StoreEngine = .sqlite) {
        self.stores = stores
    }

    public var providers: [Provider] {
        stores == .sqlite ? Self.sqliteStores : []
    }

    /// Inbox's stores on SQLite (requiring `DatabaseKey`): `InboxStoreKey` and `InboxPublisherKey`.
    public static var sqliteStores: [Provider] {
        [
            .singleton(InboxStoreKey.self, requires: DatabaseKey.self) { SQLiteInboxStore(database: $0) },
            .singleton(InboxPublisherKey.self) { SQLiteInboxPublisher() },
        ]
    }
}
