import AccountDomain
import AccountInterface
import Foundation
import GRDB
import Persistence
import SharedKit
import Storage

/// Deleting a user's accounts, inside the deletion's transaction.
struct SQLiteAccountUserData: AccountUserDataStore {
    func fundedOpenAccounts(of owner: UserID, in transaction: any Transaction) throws -> [AccountSummary] {
        let db = try SQLiteTransaction.open(transaction)
        return try Row.fetchAll(
            db,
            sql: """
                SELECT \(SQLiteLedgerRows.columns) FROM account_accounts
                WHERE owner_id = ? AND closed_at IS NULL AND balance != 0
                ORDER BY opened_at, number
                """, arguments: [owner.rawValue]
        ).compactMap { try SQLiteLedgerRows.account($0).summary }
    }

    func eraseAccounts(of owner: UserID, at: Date, in transaction: any Transaction) throws {
        guard owner != AccountUserData.erasedOwner else { return }
        let db = try SQLiteTransaction.open(transaction)
        // The memos the user wrote: on the entries of their accounts, and on the cash side of their
        // deposits and withdrawals. The entries of other users' accounts keep theirs (their history).
        try db.execute(
            sql: """
                UPDATE account_entries SET memo = NULL
                WHERE memo IS NOT NULL AND (
                    account_id IN (SELECT id FROM account_accounts WHERE owner_id = ?)
                    OR (counterparty_id IN (SELECT id FROM account_accounts WHERE owner_id = ?)
                        AND account_id IN (SELECT id FROM account_accounts WHERE owner_id IS NULL)))
                """, arguments: [owner.rawValue, owner.rawValue])
        // Closed and anonymised; balances, numbers and entries untouched, so the ledger still balances.
        try db.execute(
            sql: """
                UPDATE account_accounts SET owner_id = ?, name = ?, closed_at = COALESCE(closed_at, ?)
                WHERE owner_id = ?
                """, arguments: [AccountUserData.erasedOwner.rawValue, AccountUserData.erasedName, at, owner.rawValue])
    }
}
