import AccountDomain
import AccountInterface
import Foundation
import GRDB
import Money
import Persistence
import SharedKit
import Storage

/// Accounts and their ledger in SQLite.
struct SQLiteAccountStore: AccountStore {
    let database: AppDatabase
    /// How far each hidden cash account may go from zero (``PostingRules/cashBound``; smaller in tests).
    var cashBound = PostingRules.cashBound

    func open(_ account: AccountSummary, quota: AccountQuota) async throws {
        do {
            try await database.write { db in
                let counts = try Row.fetchOne(
                    db,
                    sql: "SELECT count(*) AS held, coalesce(sum(closed_at IS NULL), 0) AS open FROM account_accounts WHERE owner_id = ?",
                    arguments: [account.ownerID.rawValue])
                try quota.allowOneMore(open: counts?["open"] ?? 0, held: counts?["held"] ?? 0)
                try db.execute(
                    sql: """
                        INSERT INTO account_accounts (id, number, name, kind, owner_id, currency, balance, opened_at)
                        VALUES (?, ?, ?, ?, ?, ?, 0, ?)
                        """,
                    arguments: [
                        account.id.rawValue, account.number.digits, account.name, account.kind.rawValue,
                        account.ownerID.rawValue, account.currency.code, account.openedAt,
                    ])
            }
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            throw DuplicateAccountNumber()
        }
    }

    func account(number: AccountNumber) async throws -> AccountSummary? {
        try database.read { db in try SQLiteLedgerRows.account(number: number, db)?.summary }
    }

    func account(id: AccountID) async throws -> AccountSummary? {
        try database.read { db in try SQLiteLedgerRows(db: db).account(id: id.rawValue)?.summary }
    }

    func accounts(of owner: UserID) async throws -> [AccountSummary] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(SQLiteLedgerRows.columns) FROM account_accounts WHERE owner_id = ?
                    ORDER BY closed_at IS NOT NULL, opened_at, number
                    """, arguments: [owner.rawValue]
            ).compactMap { try SQLiteLedgerRows.account($0).summary }
        }
    }

    func rename(_ number: AccountNumber, to name: String) async throws -> AccountSummary {
        try await database.write { db in
            try db.execute(sql: "UPDATE account_accounts SET name = ? WHERE number = ?", arguments: [name, number.digits])
            guard let account = try SQLiteLedgerRows.account(number: number, db)?.summary else {
                throw AccountError.notFound(number.description)
            }
            return account
        }
    }

    func close(_ number: AccountNumber, at: Date) async throws -> AccountSummary {
        try await database.write { db in
            guard let row = try SQLiteLedgerRows.account(number: number, db), let account = row.summary else {
                throw AccountError.notFound(number.description)
            }
            guard !row.isClosed else { throw AccountError.alreadyClosed(number) }
            guard row.balance == 0 else { throw AccountError.closeWithBalance(number, balance: account.balance) }
            try db.execute(sql: "UPDATE account_accounts SET closed_at = ? WHERE id = ?", arguments: [at, row.id])
            guard let closed = try SQLiteLedgerRows.account(number: number, db)?.summary else {
                throw AccountError.notFound(number.description)
            }
            return closed
        }
    }

    func deposit(_ amount: Money, to number: AccountNumber, memo: String?, at: Date) async throws -> LedgerEntry {
        try await database.write { db in
            try Ledger.deposit(amount, to: number, memo: memo, at: at, cashBound: cashBound, SQLiteLedgerRows(db: db))
        }
    }

    func withdraw(_ amount: Money, from number: AccountNumber, memo: String?, at: Date) async throws -> LedgerEntry {
        try await database.write { db in
            try Ledger.withdraw(amount, from: number, memo: memo, at: at, cashBound: cashBound, SQLiteLedgerRows(db: db))
        }
    }

    func history(of number: AccountNumber, before: Int64?, limit: Int) async throws -> [LedgerEntry] {
        try database.readSingleStatement { db in
            // One cached statement: the account is found by number inside the query, and the
            // (account_id, id) index makes a page at any depth one index seek.
            let statement = try db.cachedStatement(
                sql: """
                    SELECT e.id, e.amount, e.currency, e.balance_after, e.kind, e.reference, e.memo, e.created_at,
                           c.number AS counterparty_number, c.owner_id AS counterparty_owner
                    FROM account_entries e LEFT JOIN account_accounts c ON c.id = e.counterparty_id
                    WHERE e.account_id = (SELECT id FROM account_accounts WHERE number = ?) AND e.id < ?
                    ORDER BY e.id DESC LIMIT ?
                    """)
            var currencies: [String: Currency] = [:]
            return try Row.fetchAll(statement, arguments: [number.digits, before ?? Int64.max, limit]).map { row in
                let code: String = row["currency"]
                let currency =
                    try currencies[code]
                    ?? {
                        let parsed = try Currency(code: code)
                        currencies[code] = parsed
                        return parsed
                    }()
                let counterparty: String? = row["counterparty_owner"] == nil ? nil : row["counterparty_number"]
                return LedgerEntry(
                    id: row["id"], account: number, amount: Money(minorUnits: row["amount"], currency: currency),
                    balanceAfter: Money(minorUnits: row["balance_after"], currency: currency),
                    kind: LedgerEntry.Kind(rawValue: row["kind"]) ?? .deposit,
                    counterparty: try counterparty.map { try AccountNumber($0) },
                    memo: row["memo"], reference: row["reference"], at: row["created_at"])
            }
        }
    }

    /// Checks the invariants without any sum that could overflow: an account's entries are added in
    /// the order they were written (the `(account_id, id)` index), so every partial sum is one of its
    /// past balances, which the bounds keep within `Int64`; the accounts' totals per currency are then
    /// added in 128 bits.
    func audit() async throws -> LedgerAudit {
        try database.read { db in
            var problems: [String] = []
            var perCurrency: [String: Int128] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT a.number, a.balance, a.currency,
                           (SELECT COALESCE(SUM(e.amount), 0) FROM account_entries e WHERE e.account_id = a.id) AS total
                    FROM account_accounts a ORDER BY a.currency, a.id
                    """)
            {
                let balance: Int64 = row["balance"]
                let total: Int64 = row["total"]
                let currency: String = row["currency"]
                perCurrency[currency, default: 0] += Int128(total)
                if balance != total {
                    problems.append(
                        "account \(row["number"] as String) has balance \(balance) but its entries sum to \(total) (\(currency))")
                }
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT a.number, e.currency AS entry_currency, a.currency AS account_currency, COUNT(*) AS count
                    FROM account_entries e JOIN account_accounts a ON a.id = e.account_id
                    WHERE e.currency != a.currency GROUP BY a.id, e.currency
                    """)
            {
                problems.append(
                    "account \(row["number"] as String) holds \(row["account_currency"] as String) but has \(row["count"] as Int) entries in \(row["entry_currency"] as String)"
                )
            }
            for (currency, total) in perCurrency.sorted(by: { $0.key < $1.key }) where total != 0 {
                problems.append("the entries in \(currency) sum to \(total), not 0: money was created or lost")
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT reference, COUNT(*) AS count, SUM(amount) AS total FROM account_entries
                    WHERE reference IS NOT NULL GROUP BY reference HAVING count != 2 OR total != 0
                    """)
            {
                problems.append(
                    "transfer \(row["reference"] as String) has \(row["count"] as Int) entries summing to \(row["total"] as Int64); it must have exactly 2 that cancel"
                )
            }
            let accounts = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account_accounts WHERE owner_id IS NOT NULL") ?? 0
            let entries = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account_entries") ?? 0
            return LedgerAudit(accounts: accounts, entries: entries, problems: problems)
        }
    }
}

/// Transfers between customer accounts, inside the caller's transaction.
struct SQLiteAccountPosting: AccountPosting {
    func post(_ request: PostingRequest, in transaction: any Transaction) throws -> PostingReceipt {
        try Ledger.transfer(request, SQLiteLedgerRows(db: try SQLiteTransaction.open(transaction)))
    }

    func group(touching numbers: [AccountNumber], in transaction: any Transaction) throws -> any PostingGroup {
        try LedgerGroup(SQLiteLedgerRows(db: try SQLiteTransaction.open(transaction)), touching: numbers)
    }
}
