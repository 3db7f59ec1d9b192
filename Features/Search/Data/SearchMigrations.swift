import GRDB
import Storage

/// Search's schema: the user-details cache that outlives the process (ETag + body per user and API).
public enum SearchMigrations {
    public static let all = MigrationSet(
        feature: "Search",
        steps: [
            .init("v1-create-user-cache") { db in
                try db.create(table: "search_user_cache") { table in
                    table.column("base_url", .text).notNull()
                    table.column("login", .text).notNull() // lower-cased: logins are case-insensitive
                    table.column("etag", .text).notNull()
                    table.column("body", .blob).notNull() // the JSON as the API sent it
                    table.column("fetched_at", .datetime).notNull()
                    table.primaryKey(["base_url", "login"])
                }
                try db.create(index: "search_user_cache_by_age", on: "search_user_cache", columns: ["fetched_at"])
            }
        ])
}
