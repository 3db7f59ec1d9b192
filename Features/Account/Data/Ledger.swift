import AccountDomain
import AccountInterface
import Foundation
import GRDB
import Money
import SharedKit

/// The double-entry core, used inside an open write transaction (`BEGIN IMMEDIATE`: no other writer
/// can interleave, so a balance read here is still true when it is written).
enum Ledger {
    struct Row {
        let id: String
        let number: AccountNumber
        let name: String
        let kind: String
        let ownerID: String?
        let currency: Currency
        let balance: Int64
        let openedAt: Date
        let closedAt: Date?

        var isCash: Bool { ownerID == nil }

        /// The account as the posting rules see it.
        var rules: PostingRules.Account {
            PostingRules.Account(id: id, number: number, ownerID: ownerID, currency: currency, balance: balance, isClosed: closedAt != nil)
        }

        var summary: AccountSummary? {
            guard let kind = AccountKind(rawValue: kind), let ownerID else { return nil }
            return AccountSummary(
                id: AccountID(id), number: number, name: name, kind: kind, ownerID: UserID(ownerID),
                balance: Money(minorUnits: balance, currency: currency), isClosed: closedAt != nil, openedAt: openedAt)
        }
    }

    static let columns = "id, number, name, kind, owner_id, currency, balance, opened_at, closed_at"

    static func row(_ row: GRDB.Row) throws -> Row {
        let currency = try Currency(code: row["currency"])
        return Row(
            id: row["id"], number: try AccountNumber(row["number"] as String), name: row["name"], kind: row["kind"],
            ownerID: row["owner_id"], currency: currency, balance: row["balance"], openedAt: row["opened_at"], closedAt: row["closed_at"])
    }

    // Hot paths (every posting) use cached statements: prepared once per connection.

    static func account(number: AccountNumber, _ db: Database) throws -> Row? {
        try GRDB.Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(columns) FROM account_accounts WHERE number = ?"),
            arguments: [number.digits]
        ).map(row)
    }

    static func account(id: String, _ db: Database) throws -> Row? {
        try GRDB.Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM account_accounts WHERE id = ?"), arguments: [id]).map(row)
    }

    // MARK: Cash accounts

    /// ``PostingRules/cashBound``.
    static let cashBound = PostingRules.cashBound

    /// The cash account of `currency` to post a change of `change` minor units against (negative for
    /// a deposit, positive for a withdrawal): the oldest whose balance stays within ±`bound`, or a new
    /// one, created here (inside the caller's transaction).
    static func cashAccount(_ currency: Currency, taking change: Int64, bound: Int64 = cashBound, _ db: Database, at: Date) throws -> Row {
        let fitting = try GRDB.Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT \(columns) FROM account_accounts
                    WHERE owner_id IS NULL AND kind = 'cash' AND currency = ? AND balance + ? BETWEEN ? AND ?
                    ORDER BY opened_at, id LIMIT 1
                    """),
            arguments: [currency.code, change, -bound, bound])
        if let fitting { return try row(fitting) }
        return try openCashAccount(currency, db, at: at)
    }

    /// A new cash account of `currency`: `cash-KRW` for the first, `cash-KRW-2` for the second, and so
    /// on; its number is `000` + 8 digits (the currency's place in `Currency.supported` + 100 × the
    /// cash account's rank) + the check digit, or the next free `000` number if that one is taken.
    private static func openCashAccount(_ currency: Currency, _ db: Database, at: Date) throws -> Row {
        var rank =
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM account_accounts WHERE owner_id IS NULL AND kind = 'cash' AND currency = ?",
                arguments: [currency.code]) ?? 0
        var id: String
        repeat {
            rank += 1
            id = PostingRules.cashAccountID(currency, rank: rank)
        } while try account(id: id, db) != nil
        var number = try PostingRules.cashAccountNumber(currency, rank: rank)
        if try number.map({ try account(number: $0, db) != nil }) ?? true {
            let highest =
                try Int.fetchOne(
                    db, sql: "SELECT MAX(CAST(substr(number, 4, 8) AS INTEGER)) FROM account_accounts WHERE number LIKE '000%'") ?? 0
            number = try PostingRules.cashNumber(highest + 1)
        }
        guard let number else { throw PostingError.unknownAccount(try PostingRules.cashNumber(0)) }
        let name = PostingRules.cashAccountName(currency)
        try db.execute(
            sql: """
                INSERT INTO account_accounts (id, number, name, kind, owner_id, currency, balance, opened_at)
                VALUES (?, ?, ?, 'cash', NULL, ?, 0, ?)
                """, arguments: [id, number.digits, name, currency.code, at])
        return Row(
            id: id, number: number, name: name, kind: "cash", ownerID: nil, currency: currency, balance: 0, openedAt: at, closedAt: nil)
    }

    // MARK: Postings

    /// Moves `amount` from `from` to `to`: both balances and two entries, or a thrown error (and the
    /// caller's transaction rolls back), by ``PostingRules/balancesAfter(moving:from:to:)``; cash
    /// accounts stay within ±``cashBound`` (``cashAccount(_:taking:bound:_:at:)`` picks one that does).
    static func move(
        _ amount: Money, from: Row, to: Row, kinds: (out: LedgerEntry.Kind, in: LedgerEntry.Kind),
        memo: String?, reference: String?, at: Date, _ db: Database
    ) throws -> (debit: LedgerEntry, credit: LedgerEntry) {
        let (fromBalance, toBalance) = try PostingRules.balancesAfter(moving: amount, from: from.rules, to: to.rules)
        try setBalance(of: from, expected: from.balance, to: fromBalance.minorUnits, db)
        try setBalance(of: to, expected: to.balance, to: toBalance.minorUnits, db)
        let debit = try insertEntry(
            account: from, amount: try amount.negated(), balanceAfter: fromBalance, kind: kinds.out,
            counterparty: to, memo: memo, reference: reference, at: at, db)
        let credit = try insertEntry(
            account: to, amount: amount, balanceAfter: toBalance, kind: kinds.in,
            counterparty: from, memo: memo, reference: reference, at: at, db)
        return (debit, credit)
    }

    private static func setBalance(of account: Row, expected: Int64, to balance: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE account_accounts SET balance = ? WHERE id = ? AND balance = ?")
            .execute(arguments: [balance, account.id, expected])
        guard db.changesCount == 1 else { throw LedgerConflict(account: account.number) }
    }

    private static func insertEntry(
        account: Row, amount: Money, balanceAfter: Money, kind: LedgerEntry.Kind, counterparty: Row,
        memo: String?, reference: String?, at: Date, _ db: Database
    ) throws -> LedgerEntry {
        try db.cachedStatement(
            sql: """
                INSERT INTO account_entries (account_id, amount, currency, balance_after, kind, counterparty_id, reference, memo, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            account.id, amount.minorUnits, amount.currency.code, balanceAfter.minorUnits, kind.rawValue,
            counterparty.id, reference, memo, at,
        ])
        return LedgerEntry(
            id: db.lastInsertedRowID, account: account.number, amount: amount, balanceAfter: balanceAfter, kind: kind,
            counterparty: counterparty.isCash ? nil : counterparty.number, memo: memo, reference: reference, at: at)
    }
}

/// A balance changed under the ledger's feet: impossible inside one IMMEDIATE transaction, so a bug.
struct LedgerConflict: Error, CustomStringConvertible {
    let account: AccountNumber
    var description: String { "The balance of \(account) changed during the posting." }
}

extension Ledger.Row {
    /// The row with another balance (after a posting), without reading it again.
    func with(balance: Int64) -> Ledger.Row {
        Ledger.Row(
            id: id, number: number, name: name, kind: kind, ownerID: ownerID, currency: currency, balance: balance,
            openedAt: openedAt, closedAt: closedAt)
    }
}
