import ArchiveDomain
import ArchiveInterface
import Foundation
import GRDB
import Persistence
import SharedKit
import Storage

/// Each user's preferences in SQLite: one row per user, the lists as JSON arrays of strings.
public struct SQLitePreferenceStore: PreferenceStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func preferences(of owner: UserID) async throws -> ArchivePreferences? {
        try database.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT districts, categories, updated_at FROM archive_preferences WHERE owner_id = ?",
                    arguments: [owner.rawValue])
            else { return nil }
            return ArchivePreferences(
                districts: try Self.list(row["districts"]), categories: try Self.list(row["categories"]),
                updatedAt: row["updated_at"])
        }
    }

    public func save(_ preferences: ArchivePreferences, of owner: UserID, at date: Date) async throws {
        let districts = try Self.text(preferences.districts)
        let categories = try Self.text(preferences.categories)
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO archive_preferences (owner_id, districts, categories, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(owner_id) DO UPDATE SET districts = excluded.districts, categories = excluded.categories,
                                                        updated_at = excluded.updated_at
                    """, arguments: [owner.rawValue, districts, categories, date])
        }
    }

    public func clear(of owner: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM archive_preferences WHERE owner_id = ?", arguments: [owner.rawValue])
            return db.changesCount > 0
        }
    }

    static func text(_ list: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
    }

    static func list(_ text: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }
}

/// Erases a user's Archive rows (tickets, preferences) inside the caller's transaction.
public struct SQLiteArchiveUserDataStore: ArchiveUserDataStore {
    public init() {}

    @discardableResult
    public func erase(_ user: UserID, in transaction: any Transaction) throws -> Int {
        let db = try SQLiteTransaction.open(transaction)
        var removed = 0
        for table in ["archive_tickets", "archive_preferences"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE owner_id = ?", arguments: [user.rawValue])
            removed += db.changesCount
        }
        return removed
    }
}
