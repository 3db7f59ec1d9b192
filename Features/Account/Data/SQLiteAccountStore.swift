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
    /// How far each hidden cash account may go from zero (``Ledger/cashBound``; smaller in tests).
    var cashBound = Ledger.cashBound

    func open(_ account: AccountSummary, quota: AccountQuota) async throws {
        do {
            try database.write { db in
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
        try database.read { db in try Ledger.account(number: number, db)?.summary }
    }

    func account(id: AccountID) async throws -> AccountSummary? {
        try database.read { db in try Ledger.account(id: id.rawValue, db)?.summary }
    }

    func accounts(of owner: UserID) async throws -> [AccountSummary] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Ledger.columns) FROM account_accounts WHERE owner_id = ?
                    ORDER BY closed_at IS NOT NULL, opened_at, number
                    """, arguments: [owner.rawValue]
            ).compactMap { try Ledger.row($0).summary }
        }
    }

    func rename(_ number: AccountNumber, to name: String) async throws -> AccountSummary {
        try database.write { db in
            try db.execute(sql: "UPDATE account_accounts SET name = ? WHERE number = ?", arguments: [name, number.digits])
            guard let account = try Ledger.account(number: number, db)?.summary else { throw AccountError.notFound(number.description) }
            return account
        }
    }

    func close(_ number: AccountNumber, at: Date) async throws -> AccountSummary {
        try database.write { db in
            guard let row = try Ledger.account(number: number, db), let account = row.summary else {
                throw AccountError.notFound(number.description)
            }
            guard row.closedAt == nil else { throw AccountError.alreadyClosed(number) }
            guard row.balance == 0 else { throw AccountError.closeWithBalance(number, balance: account.balance) }
            try db.execute(sql: "UPDATE account_accounts SET closed_at = ? WHERE id = ?", arguments: [at, row.id])
            guard let closed = try Ledger.account(number: number, db)?.summary else { throw AccountError.notFound(number.description) }
            return closed
        }
    }

    func deposit(_ amount: Money, to number: AccountNumber, memo: String?, at: Date) async throws -> LedgerEntry {
        try database.write { db in
            let account = try Self.openAccount(number, currency: amount.currency, db)
            let cash = try Ledger.cashAccount(amount.currency, taking: 0 - amount.minorUnits, bound: cashBound, db, at: at)
            return try Ledger.move(amount, from: cash, to: account, kinds: (.withdrawal, .deposit), memo: memo, reference: nil, at: at, db)
                .credit
        }
    }

    func withdraw(_ amount: Money, from number: AccountNumber, memo: String?, at: Date) async throws -> LedgerEntry {
        try database.write { db in
            let account = try Self.openAccount(number, currency: amount.currency, db)
            let cash = try Ledger.cashAccount(amount.currency, taking: amount.minorUnits, bound: cashBound, db, at: at)
            return try Ledger.move(amount, from: account, to: cash, kinds: (.withdrawal, .deposit), memo: memo, reference: nil, at: at, db)
                .debit
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

    /// An open account of the right currency, for a cash movement.
    static func openAccount(_ number: AccountNumber, currency: Currency, _ db: Database) throws -> Ledger.Row {
        let account = try Ledger.account(number: number, db)
        _ = try PostingRules.checkCashMovement(number, currency: currency, account: account?.rules)
        guard let account else { throw PostingError.unknownAccount(number) }
        return account
    }
}

/// Transfers between customer accounts, inside the caller's transaction.
struct SQLiteAccountPosting: AccountPosting {
    func post(_ request: PostingRequest, in transaction: any Transaction) throws -> PostingReceipt {
        let db = try SQLiteTransaction.open(transaction)
        // The same account and a non-positive amount are refused before anything is read.
        if request.from == request.to || !request.amount.isPositive {
            _ = try PostingRules.checkTransfer(request, from: nil, to: nil)
        }
        let from = try Ledger.account(number: request.from, db)
        let to = try Ledger.account(number: request.to, db)
        let memo = try PostingRules.checkTransfer(request, from: from?.rules, to: to?.rules)
        guard let from, let to else { throw PostingError.unknownAccount(request.to) }
        let (debit, credit) = try Ledger.move(
            request.amount, from: from, to: to, kinds: (.transferOut, .transferIn),
            memo: memo, reference: request.reference, at: request.at, db)
        // The balances after are those the entries recorded: no need to read the accounts again.
        guard let fromAfter = from.with(balance: debit.balanceAfter.minorUnits).summary,
            let toAfter = to.with(balance: credit.balanceAfter.minorUnits).summary
        else { throw PostingError.unknownAccount(request.to) }
        return PostingReceipt(from: fromAfter, to: toAfter, debitEntryID: debit.id, creditEntryID: credit.id)
    }
}
