import AccountDomain
import AccountInterface
import Foundation
import Money
import PostgresNIO
import PostgresStorage

/// The ledger's SQL on PostgreSQL (``LedgerRows``). The accounts a posting reads by number are
/// locked (`FOR UPDATE`, in id order): at `READ COMMITTED` (a transfer) a balance read here is
/// still true when it commits, because no other transaction can change it before; in a
/// `SERIALIZABLE` one the lock makes a writer wait instead of being aborted. Every decision is
/// AccountDomain's ``Ledger``.
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

    /// One statement; the rows are locked in the order of their ids, whichever way the money goes:
    /// two transfers in opposite directions queue on the first instead of deadlocking.
    func accounts(numbered numbers: [AccountNumber]) throws -> [LedgerAccount] {
        try accounts(numbered: numbers, locking: true)
    }

    /// The same, without the cash accounts: none is locked (a transfer to a cash account's number,
    /// refused as unknown, never makes a deposit wait).
    func customerAccounts(numbered numbers: [AccountNumber]) throws -> [LedgerAccount] {
        try accounts(numbered: numbers, locking: true, customersOnly: true)
    }

    /// `locking: false` in a read-only transaction, which may lock nothing.
    func accounts(numbered numbers: [AccountNumber], locking: Bool, customersOnly: Bool = false) throws -> [LedgerAccount] {
        let digits = numbers.map(\.digits)
        let rows =
            switch (locking, customersOnly) {
            case (true, true) where digits.count == 2:
                try transaction.rows(TwoLockedCustomerAccounts(first: digits[0], second: digits[1]))
            case (true, true): try transaction.rows(ByNumbers<LockedCustomerAccounts>(numbers: digits))
            case (true, false): try transaction.rows(ByNumbers<LockedAccounts>(numbers: digits))
            case (false, false) where digits.count == 1: try transaction.rows(OneAccount(number: digits[0]))
            case (false, true): try transaction.rows(ByNumbers<CustomerAccounts>(numbers: digits))
            case (false, false): try transaction.rows(ByNumbers<Accounts>(numbers: digits))
            }
        let found = try rows.map(Self.account)
        return numbers.compactMap { number in found.first { $0.number == number } }
    }

    /// A transfer group's accounts, locked: every group runs it.
    private enum LockedCustomerAccounts: AccountsRead {
        static let sql = byNumbers(customersOnly: true, locking: true)
    }

    /// The same for a lone transfer's two accounts, bound as two values: PostgreSQL then keeps one
    /// plan for it, where ``LockedCustomerAccounts`` is planned at every run (an array's length is
    /// unknown to a plan made for any values; ``BoundColumn/row(_:from:)``).
    private struct TwoLockedCustomerAccounts: ValuesStatement {
        static let rowSets = [BoundRowSet([.text, .text])]
        static let sql = byNumbers(customersOnly: true, locking: true, matching: "IN \(BoundColumn.row(rowSets[0].columns))")
        let values: [[[PostgresValue]]]

        init(first: String, second: String) {
            values = [[[.text(first), .text(second)]]]
        }
    }

    private enum LockedAccounts: AccountsRead {
        static let sql = byNumbers(customersOnly: false, locking: true)
    }

    private enum CustomerAccounts: AccountsRead {
        static let sql = byNumbers(customersOnly: true, locking: false)
    }

    private enum Accounts: AccountsRead {
        static let sql = byNumbers(customersOnly: false, locking: false)
    }

    /// The same for one number (an account looked up by its number, as a sender's source account
    /// is on its first transfer), bound as a value: PostgreSQL keeps one plan for it, where
    /// ``Accounts`` is planned at every run (0.073 ms a lookup at 1,000 accounts).
    private struct OneAccount: ValuesStatement {
        static let rowSets = [BoundRowSet([.text])]
        static let sql = byNumbers(customersOnly: false, locking: false, matching: "= \(BoundColumn.row(rowSets[0].columns))")
        let values: [[[PostgresValue]]]

        init(number: String) {
            values = [[[.text(number)]]]
        }
    }

    private static func byNumbers(customersOnly: Bool, locking: Bool, matching numbers: String = "= ANY($1::text[])") -> String {
        """
        SELECT \(columns) FROM account_accounts WHERE number \(numbers)\(customersOnly ? " AND owner_id IS NOT NULL" : "") \
        ORDER BY id\(locking ? " FOR UPDATE" : "")
        """
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

    /// Two statements, however many postings the plan holds: every balance (each only where it is
    /// still the one read), then every entry.
    func write(_ plan: LedgerPlan) throws -> [Int64] {
        if let balances = Self.balances(plan) {
            try Self.check(balances: try transaction.rows(balances), plan)
        }
        guard !plan.entries.isEmpty else { return [] }
        return try Self.entryIDs(try transaction.rows(Self.entries(plan)), plan)
    }

    /// The same two writes as one statement (one round trip), sent without waiting for its answer
    /// (the transaction's next statement goes with it), checked when the transaction is flushed.
    func writeWithoutIDs(_ plan: LedgerPlan) throws {
        guard let balances = Self.balances(plan), !plan.entries.isEmpty else {
            // Only one of the two: its own statement.
            if let balances = Self.balances(plan) { try transaction.send(balances) { try Self.check(balances: $0, plan) } }
            if !plan.entries.isEmpty { try transaction.send(Self.entries(plan)) { _ = try Self.entryIDs($0, plan) } }
            return
        }
        let check: @Sendable ([PostgresRow]) throws -> Void = { rows in
            // Each entry's row carries how many balances changed (the entries are never none here).
            let first = try rows.first.map { try $0.decode((Int64, String, String, String?, Int64).self) }
            try Self.check(changed: Int(first?.4 ?? 0), plan)
            _ = try Self.entryIDs(rows, plan)
        }
        let entries = Self.entries(plan)
        let lone = TwoBalancesAndEntries(balances: balances.rows, entries: entries.rows)
        if lone.fits {
            try transaction.send(lone, then: check)
        } else {
            try transaction.send(BalancesAndEntries(first: balances.rows, second: entries.rows), then: check)
        }
    }

    private static func balances(_ plan: LedgerPlan) -> Balances? {
        guard !plan.balances.isEmpty else { return nil }
        return Balances(
            rows: plan.balances.sorted { $0.account.id < $1.account.id }.map {
                [.text($0.account.id), .integer($0.expected), .integer($0.after)]
            })
    }

    /// Every balance of a plan, each only where it is still the one read.
    private struct Balances: RowsStatement {
        static let columns: [BoundColumn] = [.text, .integer, .integer]
        static let sql = """
            UPDATE account_accounts AS a SET balance = v.after FROM (\(BoundColumn.unnest(columns))) AS v(id, expected, after)
            WHERE a.id = v.id AND a.balance = v.expected RETURNING a.id
            """
        let rows: [[PostgresValue]]
    }

    /// ``Balances`` then ``Entries``, in one statement: each entry written (as ``Entries`` returns
    /// it) with how many balances changed.
    private struct BalancesAndEntries: TwoRowSetsStatement {
        static let firstColumns = Balances.columns
        static let secondColumns = Entries.columns
        static let sql = balancesAndEntriesSQL(
            balances: BoundColumn.unnest(firstColumns), entries: BoundColumn.unnest(secondColumns, from: firstColumns.count + 1))
        /// The balances' rows, then the entries'.
        let first: [[PostgresValue]]
        let second: [[PostgresValue]]
    }

    /// The same for a lone transfer's plan — two balances, two entries —, bound as values: a plan
    /// made for any values then knows there are two of each, and PostgreSQL keeps one, which finds
    /// the two accounts by their key. The plan it keeps for ``BalancesAndEntries``, made for rows
    /// of unknown number, joins them to every account on a bank of a thousand (0.25 ms of the
    /// statement's 0.4 for a lone transfer, and more with every account opened, until the bank is
    /// large enough for the same guess to probe the key instead).
    private struct TwoBalancesAndEntries: ValuesStatement {
        /// Two balances, then two entries.
        static let rowSets = [BoundRowSet(Balances.columns, rows: 2), BoundRowSet(Entries.columns, rows: 2)]
        static let sql = balancesAndEntriesSQL(
            balances: BoundColumn.values(rowSets[0].columns, rows: rowSets[0].rows),
            entries: BoundColumn.values(rowSets[1].columns, rows: rowSets[1].rows, from: BoundRowSet.firstParameter(of: 1, in: rowSets)))
        let values: [[[PostgresValue]]]

        init(balances: [[PostgresValue]], entries: [[PostgresValue]]) {
            values = [balances, entries]
        }
    }

    /// `balances`' rows `(id, expected, after)` and `entries`' rows, as a query each
    /// (``BoundColumn/unnest(_:from:)`` or ``BoundColumn/values(_:rows:from:)``).
    private static func balancesAndEntriesSQL(balances: String, entries: String) -> String {
        """
        WITH changed AS (
            UPDATE account_accounts AS a SET balance = v.after FROM (\(balances)) AS v(id, expected, after)
            WHERE a.id = v.id AND a.balance = v.expected RETURNING a.id),
        written AS (
            INSERT INTO account_entries
                (account_id, amount, currency, balance_after, kind, counterparty_id, reference, memo, created_at)
            \(entries) RETURNING id, account_id, kind, reference)
        SELECT id, account_id, kind, reference, (SELECT COUNT(*) FROM changed) FROM written
        """
    }

    private static func check(balances changed: [PostgresRow], _ plan: LedgerPlan) throws {
        try check(changed: changed.count, plan)
    }

    private static func check(changed: Int, _ plan: LedgerPlan) throws {
        // Impossible: the rows were read locked (or, serializable, a concurrent change aborts first). A bug.
        guard changed == plan.balances.count else {
            throw PostgresFailure.other(state: nil, message: "a balance changed between its read and its write")
        }
    }

    private static func entries(_ plan: LedgerPlan) -> Entries {
        Entries(
            rows: plan.entries.map { entry in
                [
                    .text(entry.account.id), .integer(entry.amount.minorUnits), .text(entry.amount.currency.code),
                    .integer(entry.balanceAfter.minorUnits), .text(entry.kind.rawValue), .text(entry.counterparty.id),
                    .text(entry.reference), .text(entry.memo), .date(entry.at),
                ]
            })
    }

    /// Every entry of a plan, in its order.
    private struct Entries: RowsStatement {
        static let columns: [BoundColumn] = [.text, .integer, .text, .integer, .text, .text, .text, .text, .date]
        static let sql = """
            INSERT INTO account_entries (account_id, amount, currency, balance_after, kind, counterparty_id, reference, memo, created_at)
            \(BoundColumn.unnest(columns)) RETURNING id, account_id, kind, reference
            """
        let rows: [[PostgresValue]]
    }

    /// Each entry's id, in the plan's order, matched by what tells the entries of one plan apart:
    /// the account, the kind and the reference (two postings of one plan have different references).
    private static func entryIDs(_ returned: [PostgresRow], _ plan: LedgerPlan) throws -> [Int64] {
        var ids: [EntryKey: Int64] = [:]
        for row in returned {
            let (id, account, kind, reference) = try row.decode((Int64, String, String, String?).self)
            ids[EntryKey(account: account, kind: kind, reference: reference)] = id
        }
        let ordered = plan.entries.compactMap { ids[EntryKey(account: $0.account.id, kind: $0.kind.rawValue, reference: $0.reference)] }
        guard ids.count == plan.entries.count, ordered.count == plan.entries.count else {
            throw PostgresFailure.other(state: nil, message: "the ledger entries written do not match the plan")
        }
        return ordered
    }

    private struct EntryKey: Hashable {
        let account: String
        let kind: String
        let reference: String?
    }
}

/// One way of reading accounts by their numbers, in the order of their ids (``ByNumbers``).
private protocol AccountsRead {
    static var sql: String { get }
}

/// The accounts of some numbers, read `Read`'s way: one prepared statement each way.
private struct ByNumbers<Read: AccountsRead>: PreparedSQL {
    static var sql: String { Read.sql }
    static var bindingDataTypes: [PostgresDataType] { [.textArray] }
    let numbers: [String]

    func makeBindings() throws -> PostgresBindings { .one(numbers) }
}
