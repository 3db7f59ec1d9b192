import Foundation
import GRDB
import Storage

/// ``UserCacheStore`` in the `search_user_cache` table, keeping the `limit` most recently fetched users.
struct SQLiteUserCacheStore: UserCacheStore {
    let database: AppDatabase
    var limit = 1_000

    func load(_ key: UserCacheKey) throws -> StoredUser? {
        try database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT etag, body, fetched_at FROM search_user_cache WHERE base_url = ? AND login = ?",
                arguments: [key.baseURL, key.login]
            ).map { row in
                StoredUser(etag: row["etag"], body: row["body"], fetchedAt: row["fetched_at"])
            }
        }
    }

    func save(_ key: UserCacheKey, _ user: StoredUser) async throws {
        let limit = limit
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO search_user_cache (base_url, login, etag, body, fetched_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (base_url, login) DO UPDATE SET etag = excluded.etag, body = excluded.body, fetched_at = excluded.fetched_at
                    """, arguments: [key.baseURL, key.login, user.etag, user.body, user.fetchedAt])
            try db.execute(
                sql: """
                    DELETE FROM search_user_cache WHERE rowid NOT IN (
                        SELECT rowid FROM search_user_cache ORDER BY fetched_at DESC LIMIT ?)
                    """, arguments: [limit])
        }
    }

    func touch(_ key: UserCacheKey, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE search_user_cache SET fetched_at = ? WHERE base_url = ? AND login = ?",
                arguments: [date, key.baseURL, key.login])
        }
    }
}
