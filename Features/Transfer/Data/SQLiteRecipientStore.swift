import Foundation
import GRDB
import Persistence
import SharedKit
import Storage
import TransferDomain
import TransferInterface

/// Favourites and recent recipients in SQLite. Recents are written by ``SQLiteTransferStore`` in
/// each transfer's transaction; this store reads them.
struct SQLiteRecipientStore: RecipientStore {
    let database: AppDatabase

    func favourites(of user: UserID) async throws -> [FavouriteRecipient] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT alias, account_number, added_at FROM transfer_favourites WHERE user_id = ? ORDER BY alias_key
                    """, arguments: [user.rawValue]
            ).map(Self.favourite)
        }
    }

    func favourite(_ alias: RecipientAlias, of user: UserID) async throws -> FavouriteRecipient? {
        try database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT alias, account_number, added_at FROM transfer_favourites WHERE user_id = ? AND alias_key = ?
                    """, arguments: [user.rawValue, alias.key]
            ).map(Self.favourite)
        }
    }

    func add(_ favourite: FavouriteRecipient, of user: UserID) async throws {
        // The same key lookups use (RecipientAlias.key: NFKC, lower case); an alias saved through the
        // book is always valid, so the fallback only serves rows written some other way.
        let key = (try? RecipientAlias(favourite.alias))?.key ?? favourite.alias.lowercased()
        try await database.write { db in
            // Checked here, in the write transaction, for a clear error; the table's keys are the last word.
            if let taken = try Row.fetchOne(
                db, sql: "SELECT alias, account_number FROM transfer_favourites WHERE user_id = ? AND alias_key = ?",
                arguments: [user.rawValue, key])
            {
                throw TransferError.aliasTaken(alias: taken["alias"], accountNumber: taken["account_number"])
            }
            if let saved = try String.fetchOne(
                db, sql: "SELECT alias FROM transfer_favourites WHERE user_id = ? AND account_number = ?",
                arguments: [user.rawValue, favourite.accountNumber])
            {
                throw TransferError.alreadyAFavourite(accountNumber: favourite.accountNumber, alias: saved)
            }
            let count =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transfer_favourites WHERE user_id = ?", arguments: [user.rawValue]) ?? 0
            guard count < TransferError.maximumFavourites else { throw TransferError.tooManyFavourites(count) }
            try db.execute(
                sql: """
                    INSERT INTO transfer_favourites (user_id, alias, alias_key, account_number, added_at) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [user.rawValue, favourite.alias, key, favourite.accountNumber, favourite.addedAt])
        }
    }

    func remove(_ alias: RecipientAlias, of user: UserID) async throws -> FavouriteRecipient? {
        try await database.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT alias, account_number, added_at FROM transfer_favourites WHERE user_id = ? AND alias_key = ?
                        """, arguments: [user.rawValue, alias.key])
            else { return nil }
            try db.execute(
                sql: "DELETE FROM transfer_favourites WHERE user_id = ? AND alias_key = ?", arguments: [user.rawValue, alias.key])
            return Self.favourite(row)
        }
    }

    func recentRecipients(of user: UserID, limit: Int) async throws -> [RecentRecipient] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT account_number, last_sent_at FROM transfer_recent_recipients
                    WHERE user_id = ? ORDER BY last_position DESC LIMIT ?
                    """, arguments: [user.rawValue, max(0, limit)]
            ).map { row in
                RecentRecipient(accountNumber: row["account_number"], lastSentAt: row["last_sent_at"])
            }
        }
    }

    private static func favourite(_ row: Row) -> FavouriteRecipient {
        FavouriteRecipient(alias: row["alias"], accountNumber: row["account_number"], addedAt: row["added_at"])
    }
}

/// Erases a deleted user from Transfer's tables, in Auth's deletion transaction.
struct SQLiteTransferUserDataStore: TransferUserDataStore {
    func erase(_ user: UserID, in transaction: any Transaction) throws {
        let db = try SQLiteTransaction.open(transaction)
        let id = user.rawValue
        try db.execute(sql: "DELETE FROM transfer_favourites WHERE user_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM transfer_recent_recipients WHERE user_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM transfer_totals WHERE initiated_by = ?", arguments: [id])
        // One fresh tombstone per deleted user: the rows stay unique per (sender, idempotency key)
        // and carry nothing that leads back to the user.
        let tombstone = "deleted-" + UUID().uuidString.lowercased()
        try db.execute(sql: "UPDATE transfer_transfers SET initiated_by = ? WHERE initiated_by = ?", arguments: [tombstone, id])
    }
}
