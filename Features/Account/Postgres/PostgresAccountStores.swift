import AccountDomain
import AccountInterface
import Foundation
import Money
import Persistence
import PostgresNIO
import PostgresStorage
import Registry
import SharedKit

/// Account on PostgreSQL, for `moa-server --database`: its schema and its store keys, which the
/// server's composition (`App/MoaPostgres`'s `PostgresStores`) gathers with the other features'.
public enum AccountPostgresStores: PostgresFeatureStores {
    /// Account's schema on PostgreSQL: the accounts (with the hidden cash accounts) and the ledger of
    /// signed entries, as AccountData's on SQLite; the entries' ids are the history's paging key.
    public static var migrations: PostgresMigrationSet {
        PostgresMigrationSet(
            feature: "Account",
            steps: [
                .init(
                    "v1-create-ledger",
                    [
                        """
                        CREATE TABLE account_accounts (
                            id text PRIMARY KEY,
                            number text NOT NULL UNIQUE,
                            name text NOT NULL,
                            kind text NOT NULL,
                            owner_id text,
                            currency text NOT NULL,
                            balance bigint NOT NULL DEFAULT 0,
                            opened_at timestamptz NOT NULL,
                            closed_at timestamptz)
                        """,
                        "CREATE INDEX account_accounts_by_owner ON account_accounts (owner_id)",
                        """
                        CREATE TABLE account_entries (
                            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                            account_id text NOT NULL REFERENCES account_accounts,
                            amount bigint NOT NULL,
                            currency text NOT NULL,
                            balance_after bigint NOT NULL,
                            kind text NOT NULL,
                            counterparty_id text REFERENCES account_accounts,
                            reference text,
                            memo text,
                            created_at timestamptz NOT NULL)
                        """,
                        "CREATE INDEX account_entries_by_account ON account_entries (account_id, id)",
                        "CREATE INDEX account_entries_by_reference ON account_entries (reference)",
                    ])
            ])
    }

    /// `AccountStoreKey`, `AccountPostingKey` and `AccountUserDataStoreKey`, on `database`.
    public static func providers(_ database: PostgresAppDatabase) -> [Provider] {
        [
            .instance(AccountStoreKey.self, PostgresAccountStore(database: database)),
            .instance(AccountPostingKey.self, PostgresAccountPosting()),
            .instance(AccountUserDataStoreKey.self, PostgresAccountUserData()),
        ]
    }
}

/// Accounts and their ledger in PostgreSQL; every check is ``PostingRules``', as on SQLite.
struct PostgresAccountStore: AccountStore {
    let database: PostgresAppDatabase

    func open(_ account: AccountSummary, quota: AccountQuota) async throws {
        // SERIALIZABLE: of two opens that counted before either inserted, one is run again.
        let inserted = try await database.write { transaction in
            let counts = try transaction.rows(
                """
                SELECT count(*)::bigint, (count(*) FILTER (WHERE closed_at IS NULL))::bigint
                FROM account_accounts WHERE owner_id = \(account.ownerID.rawValue)
                """
            ).first.map { try $0.decode((Int64, Int64).self) }
            try quota.allowOneMore(open: Int(counts?.1 ?? 0), held: Int(counts?.0 ?? 0))
            return try transaction.rows(
                """
                INSERT INTO account_accounts (id, number, name, kind, owner_id, currency, balance, opened_at)
                VALUES (\(account.id.rawValue), \(account.number.digits), \(account.name), \(account.kind.rawValue),
                        \(account.ownerID.rawValue), \(account.currency.code), 0, \(account.openedAt))
                ON CONFLICT DO NOTHING RETURNING id
                """
            ).count
        }
        guard inserted == 1 else { throw DuplicateAccountNumber() }
    }

    func account(number: AccountNumber) async throws -> AccountSummary? {
        try await database.readOne { try PostgresLedgerRows(transaction: $0).accounts(numbered: [number], locking: false).first?.summary }
    }

    func account(id: AccountID) async throws -> AccountSummary? {
        try await database.readOne { try PostgresLedgerRows(transaction: $0).account(id: id.rawValue)?.summary }
    }

    func accounts(of owner: UserID) async throws -> [AccountSummary] {
        try await database.readOne { transaction in
            try transaction.rows(
                """
                SELECT \(unescaped: PostgresLedgerRows.columns) FROM account_accounts WHERE owner_id = \(owner.rawValue)
                ORDER BY closed_at IS NOT NULL, opened_at, number
                """
            ).compactMap { try PostgresLedgerRows.account($0).summary }
        }
    }

    func rename(_ number: AccountNumber, to name: String) async throws -> AccountSummary {
        try await database.write { transaction in
            try transaction.execute("UPDATE account_accounts SET name = \(name) WHERE number = \(number.digits)")
            guard let account = try PostgresLedgerRows(transaction: transaction).accounts(numbered: [number]).first?.summary else {
                throw AccountError.notFound(number.description)
            }
            return account
        }
    }

    func close(_ number: AccountNumber, at: Date) async throws -> AccountSummary {
        try await database.write { transaction in
            guard let row = try PostgresLedgerRows(transaction: transaction).accounts(numbered: [number]).first, let account = row.summary
            else {
                throw AccountError.notFound(number.description)
            }
            guard !row.isClosed else { throw AccountError.alreadyClosed(number) }
            guard row.balance == 0 else { throw AccountError.closeWithBalance(number, balance: account.balance) }
            try transaction.execute("UPDATE account_accounts SET closed_at = \(at) WHERE id = \(row.id)")
            guard let closed = try PostgresLedgerRows(transaction: transaction).accounts(numbered: [number]).first?.summary else {
                throw AccountError.notFound(number.description)
            }
            return closed
        }
    }

    func deposit(_ amount: Money, to number: AccountNumber, memo: String?, at: Date) async throws -> LedgerEntry {
        try await database.write { transaction in
            try Ledger.deposit(amount, to: number, memo: memo, at: at, PostgresLedgerRows(transaction: transaction))
        }
    }

    func withdraw(_ amount: Money, from number: AccountNumber, memo: String?, at: Date) async throws -> LedgerEntry {
        try await database.write { transaction in
            try Ledger.withdraw(amount, from: number, memo: memo, at: at, PostgresLedgerRows(transaction: transaction))
        }
    }

    func history(of number: AccountNumber, before: Int64?, limit: Int) async throws -> [LedgerEntry] {
        try await database.read { transaction in
            try transaction.rows(
                """
                SELECT e.id, e.amount, e.currency, e.balance_after, e.kind, e.reference, e.memo, e.created_at,
                       c.number, c.owner_id
                FROM account_entries e LEFT JOIN account_accounts c ON c.id = e.counterparty_id
                WHERE e.account_id = (SELECT id FROM account_accounts WHERE number = \(number.digits)) AND e.id < \(before ?? Int64.max)
                ORDER BY e.id DESC LIMIT \(Int64(max(0, limit)))
                """
            ).map { row in
                let (id, amount, code, balanceAfter, kind, reference, memo, createdAt, counterpartyNumber, counterpartyOwner) =
                    try row.decode((Int64, Int64, String, Int64, String, String?, String?, Date, String?, String?).self)
                let currency = try Currency(code: code)
                return LedgerEntry(
                    id: id, account: number, amount: Money(minorUnits: amount, currency: currency),
                    balanceAfter: Money(minorUnits: balanceAfter, currency: currency), kind: LedgerEntry.Kind(rawValue: kind) ?? .deposit,
                    counterparty: try (counterpartyOwner == nil ? nil : counterpartyNumber).map { try AccountNumber($0) },
                    memo: memo, reference: reference, at: createdAt)
            }
        }
    }

    /// The same invariants as on SQLite, in one snapshot; sums per account in SQL's `numeric`, the
    /// totals per currency in 128 bits.
    func audit() async throws -> LedgerAudit {
        try await database.read { transaction in
            var problems: [String] = []
            var perCurrency: [String: Int128] = [:]
            for row in try transaction.rows(
                """
                SELECT a.number, a.balance, a.currency,
                       (SELECT COALESCE(SUM(e.amount), 0) FROM account_entries e WHERE e.account_id = a.id)::text
                FROM account_accounts a ORDER BY a.currency, a.id
                """)
            {
                let (number, balance, currency, totalText) = try row.decode((String, Int64, String, String).self)
                guard let total = Int128(totalText) else {
                    problems.append("account \(number)'s entries sum to \(totalText), beyond any balance (\(currency))")
                    continue
                }
                perCurrency[currency, default: 0] += total
                if Int128(balance) != total {
                    problems.append("account \(number) has balance \(balance) but its entries sum to \(total) (\(currency))")
                }
            }
            for row in try transaction.rows(
                """
                SELECT a.number, e.currency, a.currency, COUNT(*)
                FROM account_entries e JOIN account_accounts a ON a.id = e.account_id
                WHERE e.currency != a.currency GROUP BY a.id, a.number, a.currency, e.currency
                """)
            {
                let (number, entryCurrency, accountCurrency, count) = try row.decode((String, String, String, Int64).self)
                problems.append("account \(number) holds \(accountCurrency) but has \(count) entries in \(entryCurrency)")
            }
            for (currency, total) in perCurrency.sorted(by: { $0.key < $1.key }) where total != 0 {
                problems.append("the entries in \(currency) sum to \(total), not 0: money was created or lost")
            }
            for row in try transaction.rows(
                """
                SELECT reference, COUNT(*), SUM(amount)::text FROM account_entries
                WHERE reference IS NOT NULL GROUP BY reference HAVING COUNT(*) != 2 OR SUM(amount) != 0
                """)
            {
                let (reference, count, total) = try row.decode((String, Int64, String).self)
                problems.append("transfer \(reference) has \(count) entries summing to \(total); it must have exactly 2 that cancel")
            }
            let accounts = try transaction.value("SELECT COUNT(*) FROM account_accounts WHERE owner_id IS NOT NULL", as: Int64.self) ?? 0
            let entries = try transaction.value("SELECT COUNT(*) FROM account_entries", as: Int64.self) ?? 0
            return LedgerAudit(accounts: Int(accounts), entries: Int(entries), problems: problems)
        }
    }
}

/// Transfers between customer accounts, inside the caller's transaction.
struct PostgresAccountPosting: AccountPosting {
    func post(_ request: PostingRequest, in transaction: any Transaction) throws -> PostingReceipt {
        try Ledger.transfer(request, PostgresLedgerRows(transaction: try PostgresTransaction.open(transaction)))
    }

    func group(touching numbers: [AccountNumber], in transaction: any Transaction) throws -> any PostingGroup {
        try LedgerGroup(PostgresLedgerRows(transaction: try PostgresTransaction.open(transaction)), touching: numbers)
    }
}

/// Deleting a user's accounts, inside the deletion's transaction (as AccountData does on SQLite).
struct PostgresAccountUserData: AccountUserDataStore {
    func fundedOpenAccounts(of owner: UserID, in transaction: any Transaction) throws -> [AccountSummary] {
        let transaction = try PostgresTransaction.open(transaction)
        return try transaction.rows(
            """
            SELECT \(unescaped: PostgresLedgerRows.columns) FROM account_accounts
            WHERE owner_id = \(owner.rawValue) AND closed_at IS NULL AND balance != 0
            ORDER BY opened_at, number
            """
        ).compactMap { try PostgresLedgerRows.account($0).summary }
    }

    func eraseAccounts(of owner: UserID, at: Date, in transaction: any Transaction) throws {
        guard owner != AccountUserData.erasedOwner else { return }
        let transaction = try PostgresTransaction.open(transaction)
        try transaction.execute(
            """
            UPDATE account_entries SET memo = NULL
            WHERE memo IS NOT NULL AND (
                account_id IN (SELECT id FROM account_accounts WHERE owner_id = \(owner.rawValue))
                OR (counterparty_id IN (SELECT id FROM account_accounts WHERE owner_id = \(owner.rawValue))
                    AND account_id IN (SELECT id FROM account_accounts WHERE owner_id IS NULL)))
            """)
        try transaction.execute(
            """
            UPDATE account_accounts SET owner_id = \(AccountUserData.erasedOwner.rawValue), name = \(AccountUserData.erasedName),
                closed_at = COALESCE(closed_at, \(at))
            WHERE owner_id = \(owner.rawValue)
            """)
    }
}
