import AccountInterface
import AuthInterface
import Foundation
import Money
import Persistence
import Registry
import SharedKit

/// Account's persistence (AccountData implements it on SQLite). Each method is one transaction.
public protocol AccountStore: Sendable {
    /// Inserts a new account if its owner may have one more (`quota`, given the owner's accounts as
    /// counted inside this transaction); throws ``DuplicateAccountNumber`` if the number is taken.
    func open(_ account: AccountSummary, quota: AccountQuota) async throws
    func account(number: AccountNumber) async throws -> AccountSummary?
    func account(id: AccountID) async throws -> AccountSummary?
    /// Every account of `owner` (at most ``AccountQuota/maximumHeld``, unless opened before the
    /// quota), open first, in the order they were opened.
    func accounts(of owner: UserID) async throws -> [AccountSummary]
    func rename(_ number: AccountNumber, to name: String) async throws -> AccountSummary
    /// Closes the account if its balance is zero (checked inside the transaction).
    func close(_ number: AccountNumber, at: Date) async throws -> AccountSummary
    /// Money in from outside (cash): a credit of the account, a debit of one of the currency's hidden
    /// cash accounts. Refused above the per-balance maximum (`AmountBounds`).
    func deposit(_ amount: Money, to number: AccountNumber, memo: String?, at: Date) async throws -> LedgerEntry
    /// Money out (cash): refused below zero.
    func withdraw(_ amount: Money, from number: AccountNumber, memo: String?, at: Date) async throws -> LedgerEntry
    /// Newest first, entries with an id below `before` (all when `nil`).
    func history(of number: AccountNumber, before: Int64?, limit: Int) async throws -> [LedgerEntry]
    /// Checks every invariant of the ledger.
    func audit() async throws -> LedgerAudit
}

extension AccountStore {
    /// Inserts a new account under the standard quota (``AccountQuota/standard``).
    public func open(_ account: AccountSummary) async throws {
        try await open(account, quota: .standard)
    }
}

/// The number drawn was already taken (the caller draws another).
public struct DuplicateAccountNumber: Error {
    public init() {}
}

public enum AccountStoreKey: ServiceKey { public typealias Service = any AccountStore }

/// The account use cases, for Account's commands and screens.
public enum AccountServiceKey: ServiceKey { public typealias Service = any AccountUseCases }

/// The ledger's invariants, for `moa doctor`: every balance equals the sum of its entries, the
/// entries of each currency sum to zero, and every transfer has exactly two entries that cancel.
public struct LedgerCheck: ConsistencyCheck {
    private let store: any AccountStore

    public init(store: any AccountStore) {
        self.store = store
    }

    public var name: String { "Ledger" }

    public func run() async throws -> (summary: String, problems: [String]) {
        let audit = try await store.audit()
        return (
            "\(audit.accounts) accounts, \(audit.entries) entries: balances = sum of entries, entries per currency sum to 0, 2 entries per transfer",
            audit.problems
        )
    }
}

public enum LedgerCheckKey: ServiceKey { public typealias Service = any ConsistencyCheck }

extension AccountService {
    /// How a composition root composes Account's use cases: ``AccountServiceKey`` for whoever
    /// `SessionProviderKey` says is acting (the terminal's session in `moa`, the request's user in
    /// `moa-server`), and ``AccountUserDataKey``, Account's share in deleting a user.
    public static var providers: [Provider] {
        [
            .singleton(AccountServiceKey.self, requires: AccountStoreKey.self, SessionProviderKey.self, WallClockKey.self) {
                AccountService(store: $0, session: $1, clock: $2)
            },
            .singleton(AccountUserDataKey.self, requires: AccountUserDataStoreKey.self, WallClockKey.self) {
                AccountUserData(store: $0, clock: $1)
            },
        ]
    }
}
