import Foundation
import GRDB
import Money
import Persistence
import Registry
import SharedKit
import Storage
import TransferDomain
import TransferInterface

/// What Transfer's Data layer provides: its stores. (The use cases are composed by
/// TransferFeatureModule, which may see the other features' Interfaces they need.)
public struct TransferDataModule: FeatureModule {
    public let name = "Transfer"

    private let stores: StoreEngine

    public init(stores: StoreEngine = .sqlite) {
        self.stores = stores
    }

    public var providers: [Provider] {
        stores == .sqlite ? Self.sqliteStores : []
    }

    /// Transfer's stores on SQLite (requiring `DatabaseKey`): `TransferStoreKey`, `RecipientStoreKey`
    /// and `TransferUserDataStoreKey`.
    public static var sqliteStores: [Provider] {
        [
            .singleton(TransferStoreKey.self, requires: DatabaseKey.self) { SQLiteTransferStore(database: $0) },
            .singleton(RecipientStoreKey.self, requires: DatabaseKey.self) { SQLiteRecipientStore(database: $0) },
            .instance(TransferUserDataStoreKey.self, SQLiteTransferUserDataStore()),
        ]
    }
}
