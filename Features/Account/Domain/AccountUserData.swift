import AccountInterface
import AuthInterface
import Foundation
import Money
import Persistence
import Registry
import SharedKit

/// What deleting a user needs from Account's persistence (AccountData implements it on SQLite).
/// Both run inside the one transaction `moa auth delete` opens for every feature.
public protocol AccountUserDataStore: Sendable {
    /// The user's open accounts whose balance is not zero, in the order they were opened.
    func fundedOpenAccounts(of owner: UserID, in transaction: any Transaction) throws -> [AccountSummary]
    /// Closes (at `at`, unless already closed) and anonymises every account of `owner`: the owner
    /// becomes ``AccountUserData/erasedOwner``, the name the user chose and the memos of its entries
    /// are cleared. Accounts and ledger entries stay, so the other side of every transfer keeps its
    /// history and the ledger still balances.
    func eraseAccounts(of owner: UserID, at: Date, in transaction: any Transaction) throws
}

public enum AccountUserDataStoreKey: ServiceKey { public typealias Service = any AccountUserDataStore }

/// Account's share in deleting a user (`moa auth delete`).
///
/// - Blockers: every open account that still holds money — it must be withdrawn or transferred
///   first, because erasing never makes money disappear.
/// - Erase: the user's accounts are closed and anonymised, not deleted: the ledger (entries, the
///   transfers other users received) stays whole, so their histories and the double-entry
///   invariants (`LedgerCheck`, `moa doctor`) still hold, but nothing links an account to the user.
public struct AccountUserData: UserDataOwner {
    /// The owner of an erased account: no user ever has this id (generated ids are UUIDs).
    public static let erasedOwner: UserID = "erased-user"
    /// The name an erased account gets in place of the one the user chose.
    public static let erasedName = "Erased account"

    private let store: any AccountUserDataStore
    private let clock: any WallClock

    public init(store: any AccountUserDataStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    public var name: String { "Account" }

    public func deletionBlockers(for user: UserID, in transaction: any Transaction) throws -> [String] {
        try store.fundedOpenAccounts(of: user, in: transaction).map(Self.blocker)
    }

    public func erase(_ user: UserID, in transaction: any Transaction) throws {
        // Never close an account that holds money, even if called without asking for blockers first.
        if let funded = try store.fundedOpenAccounts(of: user, in: transaction).first {
            throw AccountError.closeWithBalance(funded.number, balance: funded.balance)
        }
        try store.eraseAccounts(of: user, at: clock.now(), in: transaction)
    }

    /// "Account 110-1234-5678-9 (Everyday) holds 50,000 KRW."
    static func blocker(_ account: AccountSummary) -> String {
        "Account \(account.number) (\(account.name)) holds \(account.balance.formatted())."
    }
}

/// Account's `UserDataOwner`, provided by `AccountFeatureModule`; the App lists it under `UserDataOwnersKey`.
public enum AccountUserDataKey: ServiceKey {
    public typealias Service = any UserDataOwner
}
