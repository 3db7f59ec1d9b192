import AuthDomain
import GRDB
import Storage

/// Auth's schema, applied by the App (and the Example) when the database opens.
///
/// Dates use GRDB's storage (`yyyy-MM-dd HH:mm:ss.SSS`, UTC), so SQL comparisons and `ORDER BY` are correct.
public enum AuthMigrations {
    public static let all = MigrationSet(
        feature: "Auth",
        steps: [
            .init("v1-create-tables") { db in
                try db.create(table: "auth_users") { table in
                    table.primaryKey("id", .text)
                    table.column("email", .text).notNull().unique().collate(.nocase)
                    table.column("password_hash", .text).notNull()
                    table.column("created_at", .datetime).notNull()
                    table.column("verified_at", .datetime)
                }
                try db.create(table: "auth_verifications") { table in
                    table.primaryKey("user_id", .text).references("auth_users", onDelete: .cascade)
                    table.column("code_digest", .text).notNull()
                    table.column("expires_at", .datetime).notNull()
                    table.column("attempts", .integer).notNull().defaults(to: 0)
                }
                try db.create(table: "auth_sessions") { table in
                    table.primaryKey("id", .text)
                    table.column("family_id", .text).notNull().indexed()
                    table.column("user_id", .text).notNull().indexed().references("auth_users", onDelete: .cascade)
                    table.column("access_digest", .text).notNull().unique()
                    table.column("access_expires_at", .datetime).notNull()
                    table.column("refresh_digest", .text).notNull().unique()
                    table.column("refresh_expires_at", .datetime).notNull()
                    table.column("created_at", .datetime).notNull()
                    table.column("rotated_at", .datetime)
                    table.column("revoked_at", .datetime)
                }
                try db.create(table: "auth_throttles") { table in
                    table.primaryKey("email", .text) // the lower-cased address
                    table.column("failures", .integer).notNull()
                    table.column("window_start", .datetime)
                    table.column("locked_until", .datetime)
                    table.column("lockouts", .integer).notNull()
                }
                try db.create(table: "auth_security_events") { table in
                    table.autoIncrementedPrimaryKey("id")
                    table.column("user_id", .text).indexed()
                    table.column("email", .text).notNull()
                    table.column("kind", .text).notNull()
                    table.column("at", .datetime).notNull()
                }
            },
            // Quick-unlock PINs: the scrypt hash (own salt) and the wrong PINs in a row, one row per user.
            .init("v2-pins") { db in
                try db.create(table: "auth_pins") { table in
                    table.primaryKey("user_id", .text).references("auth_users", onDelete: .cascade)
                    table.column("pin_hash", .text).notNull()
                    table.column("failures", .integer).notNull().defaults(to: 0)
                    table.column("updated_at", .datetime).notNull()
                }
            },
            // Addresses are stored, compared and looked up in their canonical form (NFKC, lower-cased:
            // `EmailAddress.canonical`). Earlier builds kept the part before "@" as typed. An address
            // whose canonical form another account already has keeps its old form: it is no longer
            // found (a login with that address reaches the older account), rather than two accounts
            // merging. A throttle whose canonical key already exists is dropped (the existing one stays).
            .init("v3-canonical-emails") { db in
                let users = try Row.fetchAll(db, sql: "SELECT id, email FROM auth_users ORDER BY created_at, id")
                for user in users {
                    let id = try user.decode(String.self, forColumn: "id")
                    let email = try user.decode(String.self, forColumn: "email")
                    let canonical = EmailAddress.canonical(email)
                    guard canonical != email else { continue }
                    let taken = try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM auth_users WHERE email = ? AND id != ?)", arguments: [canonical, id])
                    if taken != true {
                        try db.execute(sql: "UPDATE auth_users SET email = ? WHERE id = ?", arguments: [canonical, id])
                    }
                }
                for key in try String.fetchAll(db, sql: "SELECT email FROM auth_throttles") {
                    let canonical = EmailAddress.canonical(key)
                    guard canonical != key else { continue }
                    let taken = try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM auth_throttles WHERE email = ?)", arguments: [canonical])
                    if taken == true {
                        try db.execute(sql: "DELETE FROM auth_throttles WHERE email = ?", arguments: [key])
                    } else {
                        try db.execute(sql: "UPDATE auth_throttles SET email = ? WHERE email = ?", arguments: [canonical, key])
                    }
                }
            },
            // Whoever enters a sign-up's code chooses the password (issue 24): a password given at a
            // sign-up nobody verified yet is dropped, since whoever gave it may not own the address.
            // The throttle is kept per client and per (address, client) now: the old per-address
            // locks, which locked owners out, are dropped.
            .init("v4-codes-choose-passwords") { db in
                try db.execute(sql: "UPDATE auth_users SET password_hash = '!unverified' WHERE verified_at IS NULL")
                try db.execute(sql: "DELETE FROM auth_throttles WHERE email NOT LIKE '%:%'")
            },
        ])
}
