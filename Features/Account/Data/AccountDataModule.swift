import AccountDomain
import AccountInterface
import Persistence
import Registry
import SharedKit
import Storage

/// What Account's Data layer provides: its store, its Interface's directory and posting, the ledger audit,
/// and the store behind user deletion. (The use cases and the `UserDataOwner`, which need AuthInterface,
/// are provided by AccountFeatureModule.)
public struct AccountDataModule: FeatureModule {
    public let name = "Account"
    private let stores: StoreEngine

    public init(stores: StoreEngine = .sqlite) {
        self.stores = stores
    }

    public var providers: [Provider] {
        (stores == .sqlite ? Self.sqliteStores : []) + [
            .singleton(AccountDirectoryKey.self, requires: AccountStoreKey.self) { StoreDirectory(store: $0) },
            .singleton(LedgerCheckKey.self, requires: AccountStoreKey.self) { LedgerCheck(store: $0) },
        ]
    }

    /// Account's stores on SQLite (requiring `DatabaseKey`): `AccountStoreKey`, `AccountPostingKey`
    /// and `AccountUserDataStoreKey`.
    public static var sqliteStores: [Provider] {
        [
            .singleton(AccountStoreKey.self, requires: DatabaseKey.self) { SQLiteAccountStore(database: $0) },
            .singleton(AccountPostingKey.self) { SQLiteAccountPosting() },
            .singleton(AccountUserDataStoreKey.self) { SQLiteAccountUserData() },
        ]
    }
}

/// `AccountDirectory` over the store.
struct StoreDirectory: AccountDirectory {
    let store: any AccountStore
    func account(number: AccountNumber) async throws -> AccountSummary? { try await store.account(number: number) }
    func accounts(of owner: UserID) async throws -> [AccountSummary] { try await store.accounts(of: owner) }
}
