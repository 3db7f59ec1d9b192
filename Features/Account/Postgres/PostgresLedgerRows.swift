import AccountDomain
import AccountInterface
import Foundation
import Money
import PostgresNIO
import PostgresStorage

/// The ledger's SQL on PostgreSQL (``LedgerRows``), inside a `SERIALIZABLE` transaction: a balance
/// read here is still true when it commits, or the transaction is aborted and run again. Every
/// decision is AccountDomain's ``Ledger``.
struct PostgresLedgerRows: LedgerRows {
    let transaction: PostgresTransaction

    static let columns = "id, number, name, kind, owner_id, currency, balance, opened_at, closed_at"

    static func account(_ row: PostgresRow) throws -> LedgerAccount {
        let (id, number, name, kind, ownerID, currency, balance, openedAt, closedAt) =
            try row.decode((String, String, String, String, String?, String, Int64, Date, Date?).self)
        return LedgerAccount(
            id: id, number: try AccountNumber(number), name: name, kind: kind, ownerID: ownerID, currency: try Currency(code: currency),
            balance: balance, openedAt: openedAt, isClosed: closedAt != nil)
    }

    func accounts(numbered numbers: [AccountNumber]) throws -> [LedgerAccount] {
        try numbers.compactMap { number in
            try transaction.rows("SELECT \(unescaped: Self.columns) FROM account_accounts WHERE number = \(number.digits)").first
                .map(Self.account)
        }
    }

    func account(id: String) throws -> LedgerAccount? {
        try transaction.rows("SELECT \(unescaped: Self.columns) FROM account_accounts WHERE id = \(id)").first.map(Self.account)
    }

    func fittingCashAccount(_ currency: Currency, change: Int64, bound: Int64) throws -> LedgerAccount? {
        try transaction.rows(
            """
            SELECT \(unescaped: Self.columns) FROM account_accounts
            WHERE owner_id IS NULL AND kind = 'cash' AND currency = \(currency.code)
              AND balance::numeric + \(change) BETWEEN \(-bound) AND \(bound)
            ORDER BY opened_at, id LIMIT 1
            """
        ).first.map(Self.account)
    }

    func cashAccountCount(_ currency: Currency) throws -> Int {
        Int(
            try transaction.value(
                "SELECT COUNT(*) FROM account_accounts WHERE owner_id IS NULL AND kind = 'cash' AND currency = \(currency.code)",
                as: Int64.self) ?? 0)
    }

    func highestCashNumberBody() throws -> Int {
        let highest =
            try transaction.value(
                "SELECT MAX(CAST(substr(number, 4, 8) AS bigint)) FROM account_accounts WHERE number LIKE '000%'", as: Int64?.self) ?? nil
        return Int(highest ?? 0)
    }

    func insertCashAccount(_ account: LedgerAccount) throws {
        let inserted = try transaction.rows(
            """
            INSERT INTO account_accounts (id, number, name, kind, owner_id, currency, balance, opened_at)
            VALUES (\(account.id), \(account.number.digits), \(account.name), 'cash', NULL, \(account.currency.code), 0, \(account.openedAt))
            ON CONFLICT DO NOTHING RETURNING id
            """)
        // Another server opened it at the same moment: run the transaction again, which then finds it.
        guard inserted.count == 1 else { throw PostgresFailure.conflict(state: "23505") }
    }

    func write(_ plan: LedgerPlan) throws -> [Int64] {
        // The rows are written in the order of their ids, whichever way the money goes: two
        // transfers in opposite directions then queue on the first row instead of deadlocking.
        for balance in plan.balances.sorted(by: { $0.account.id < $1.account.id }) {
            let changed = try transaction.rows(
                """
                UPDATE account_accounts SET balance = \(balance.after)
                WHERE id = \(balance.account.id) AND balance = \(balance.expected) RETURNING id
                """)
            // Impossible in a serializable transaction (a concurrent change aborts it first): a bug.
            guard changed.count == 1 else {
                throw PostgresFailure.other(state: nil, message: "the balance of \(balance.account.number) changed")
            }
        }
        return try plan.entries.map { entry in
            let id = try transaction.value(
                """
                INSERT INTO account_entries (account_id, amount, currency, balance_after, kind, counterparty_id, reference, memo, created_at)
                VALUES (\(entry.account.id), \(entry.amount.minorUnits), \(entry.amount.currency.code), \(entry.balanceAfter.minorUnits),
                        \(entry.kind.rawValue), \(entry.counterparty.id), \(entry.reference), \(entry.memo), \(entry.at))
                RETURNING id
                """, as: Int64.self)
            guard let id else { throw PostgresFailure.other(state: nil, message: "no id for a new ledger entry") }
            return id
        }
    }
}
