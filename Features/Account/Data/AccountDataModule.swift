import SharedKit
import AccountDomain
import AccountInterface
import Registry
import Storage

/// What Account's Data layer provides: its store, its Interface's directory and posting, and the ledger audit.
/// (The use cases, which need the session from AuthInterface, are provided by AccountFeatureModule.)
public struct AccountDataModule: FeatureModule {
    public let name = "Account"

    public init() {}

    public var providers: [Provider] {
        [
            .singleton(AccountStoreKey.self, requires: DatabaseKey.self) { SQLiteAccountStore(database: $0) },
            .singleton(AccountDirectoryKey.self, requires: AccountStoreKey.self) { StoreDirectory(store: $0) },
            .singleton(AccountPostingKey.self) { SQLiteAccountPosting() },
            .singleton(LedgerCheckKey.self, requires: AccountStoreKey.self) { LedgerCheck(store: $0) },
        ]
    }
}

/// `AccountDirectory` over the store.
struct StoreDirectory: AccountDirectory {
    let store: any AccountStore
    func account(number: AccountNumber) async throws -> AccountSummary? { try await store.account(number: number) }
    func accounts(of owner: UserID) async throws -> [AccountSummary] { try await store.accounts(of: owner) }
}
