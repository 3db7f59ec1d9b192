import AuthDomain
import AuthInterface
import Foundation
import GRDB
import Persistence
import SharedKit
import Storage

/// ``AuthStore`` on the app's SQLite database. Every method is one transaction.
///
/// Database failures surface as `StorageError` whose reason is SQLite's message (never a bound
/// value: no e-mail, hash or digest ends up in an error).
public struct SQLiteAuthStore: AuthStore {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    // MARK: Users

    public func createUser(_ user: UserRecord, verification: VerificationRecord) async throws {
        do {
            try await database.write { db in
                try db.execute(
                    sql: "INSERT INTO auth_users (id, email, password_hash, created_at, verified_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [user.id.rawValue, user.email, user.passwordHash, user.createdAt, user.verifiedAt])
                try Self.upsert(verification, in: db)
            }
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE && (error.message ?? "").contains("auth_users.email")
        {
            throw AuthError.emailTaken(user.email)
        } catch {
            throw Self.storageError(error)
        }
    }

    public func deleteUnverifiedUser(_ id: UserID) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM auth_users WHERE id = ? AND verified_at IS NULL", arguments: [id.rawValue])
        }
    }

    public func user(email: String) async throws -> UserRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM auth_users WHERE email = ? COLLATE NOCASE", arguments: [email]).map(Self.user)
        }
    }

    public func user(id: UserID) async throws -> UserRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM auth_users WHERE id = ?", arguments: [id.rawValue]).map(Self.user)
        }
    }

    public func markVerified(_ id: UserID, at date: Date) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE auth_users SET verified_at = ? WHERE id = ?", arguments: [date, id.rawValue])
        }
    }

    public func updatePasswordHash(_ id: UserID, to hash: String) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE auth_users SET password_hash = ? WHERE id = ?", arguments: [hash, id.rawValue])
        }
    }

    // MARK: Verifications

    public func verification(for id: UserID) async throws -> VerificationRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM auth_verifications WHERE user_id = ?", arguments: [id.rawValue]).map(Self.verification)
        }
    }

    public func saveVerification(_ verification: VerificationRecord) async throws {
        try await write { db in try Self.upsert(verification, in: db) }
    }

    public func recordWrongCode(for id: UserID) async throws -> Int {
        try await write { db in
            try db.execute(sql: "UPDATE auth_verifications SET attempts = attempts + 1 WHERE user_id = ?", arguments: [id.rawValue])
            if let attempts = try Int.fetchOne(
                db, sql: "SELECT attempts FROM auth_verifications WHERE user_id = ?", arguments: [id.rawValue])
            {
                return attempts
            }
            let email = try String.fetchOne(db, sql: "SELECT email FROM auth_users WHERE id = ?", arguments: [id.rawValue])
            throw AuthError.noPendingVerification(email ?? id.rawValue)
        }
    }

    public func deleteVerification(for id: UserID) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM auth_verifications WHERE user_id = ?", arguments: [id.rawValue])
        }
    }

    // MARK: Sessions

    public func insertSession(_ session: SessionRecord) async throws {
        try await write { db in try Self.insert(session, in: db) }
    }

    public func session(accessDigest: String) async throws -> SessionRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM auth_sessions WHERE access_digest = ?", arguments: [accessDigest]).map(Self.session)
        }
    }

    public func session(refreshDigest: String) async throws -> SessionRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM auth_sessions WHERE refresh_digest = ?", arguments: [refreshDigest]).map(Self.session)
        }
    }

    public func rotate(_ id: String, to next: SessionRecord, at date: Date) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE auth_sessions SET rotated_at = ? WHERE id = ? AND rotated_at IS NULL AND revoked_at IS NULL",
                arguments: [date, id])
            guard db.changesCount == 1 else { return false }
            try Self.insert(next, in: db)
            return true
        }
    }

    public func revokeFamily(_ familyID: String, at date: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE auth_sessions SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL", arguments: [date, familyID])
        }
    }

    public func revokeAllSessions(of user: UserID, at date: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE auth_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", arguments: [date, user.rawValue])
        }
    }

    // MARK: Throttling and events

    public func throttle(for email: String) async throws -> ThrottleState {
        try read { db in try Self.throttle(for: email.lowercased(), in: db) }
    }

    /// Reads, changes and stores the state in one write transaction (SQLite's writers take turns);
    /// the fresh state is stored as no row at all.
    public func updateThrottle(for email: String, _ change: @Sendable (ThrottleState) -> ThrottleState) async throws
        -> ThrottleUpdate
    {
        let key = email.lowercased()
        return try await write { db in
            let before = try Self.throttle(for: key, in: db)
            let after = change(before)
            if after == before { return ThrottleUpdate(before: before, after: after) }
            if after == .fresh {
                try db.execute(sql: "DELETE FROM auth_throttles WHERE email = ?", arguments: [key])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO auth_throttles (email, failures, window_start, locked_until, lockouts) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(email) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start,
                            locked_until = excluded.locked_until, lockouts = excluded.lockouts
                        """, arguments: [key, after.failures, after.windowStart, after.lockedUntil, after.lockouts])
            }
            return ThrottleUpdate(before: before, after: after)
        }
    }

    private static func throttle(for key: String, in db: Database) throws -> ThrottleState {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM auth_throttles WHERE email = ?", arguments: [key]) else {
            return .fresh
        }
        return ThrottleState(
            failures: try row.decode(forColumn: "failures"), windowStart: try row.decode(forColumn: "window_start"),
            lockedUntil: try row.decode(forColumn: "locked_until"), lockouts: try row.decode(forColumn: "lockouts"))
    }

    /// Stores the event (address, kind, time: nothing secret). Nothing is logged.
    public func record(_ event: SecurityEvent) async throws {
        try await write { db in
            try Self.insert(event, in: db)
        }
    }

    // MARK: Work shared with other features' transactions

    public func insertSession(
        _ session: SessionRecord, recording event: SecurityEvent, clearingWrongPins: Bool,
        alongside: @Sendable (any Transaction) throws -> Void
    ) async throws {
        try await write { db in
            try Self.insert(session, in: db)
            try Self.insert(event, in: db)
            if clearingWrongPins {
                try db.execute(sql: "UPDATE auth_pins SET failures = 0 WHERE user_id = ?", arguments: [session.userID.rawValue])
            }
            try alongside(SQLiteTransaction(db))
        }
    }

    public func record(_ event: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void) async throws {
        try await write { db in
            try Self.insert(event, in: db)
            try alongside(SQLiteTransaction(db))
        }
    }

    public func replacePassword(
        of user: UserID, with hash: String, at date: Date, newSession: SessionRecord?, event: SecurityEvent,
        alongside: @Sendable (any Transaction) throws -> Void
    ) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE auth_users SET password_hash = ?, verified_at = COALESCE(verified_at, ?) WHERE id = ?",
                arguments: [hash, date, user.rawValue])
            try db.execute(
                sql: "UPDATE auth_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", arguments: [date, user.rawValue])
            try db.execute(sql: "DELETE FROM auth_verifications WHERE user_id = ?", arguments: [user.rawValue])
            if let newSession { try Self.insert(newSession, in: db) }
            try Self.insert(event, in: db)
            try alongside(SQLiteTransaction(db))
        }
    }

    public func eraseUser(_ id: UserID, email: String, in transaction: any Transaction) throws {
        do {
            let db = try SQLiteTransaction.open(transaction)
            try db.execute(sql: "DELETE FROM auth_sessions WHERE user_id = ?", arguments: [id.rawValue])
            try db.execute(sql: "DELETE FROM auth_verifications WHERE user_id = ?", arguments: [id.rawValue])
            let keys = ThrottleKey.keys(of: email.lowercased())
            for key in keys.exact { try db.execute(sql: "DELETE FROM auth_throttles WHERE email = ?", arguments: [key]) }
            for prefix in keys.prefixes {
                try db.execute(
                    sql: "DELETE FROM auth_throttles WHERE substr(email, 1, ?) = ?", arguments: [prefix.unicodeScalars.count, prefix])
            }
            try db.execute(
                sql: "DELETE FROM auth_security_events WHERE user_id = ? OR email = ? COLLATE NOCASE", arguments: [id.rawValue, email])
            try db.execute(sql: "DELETE FROM auth_users WHERE id = ?", arguments: [id.rawValue])
        } catch let error as ForeignTransactionError {
            throw error
        } catch {
            throw Self.storageError(error)
        }
    }

    // MARK: Helpers

    private static let unreadable = "a stored sign-in record could not be read"

    private func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await AuthStorage.write(database, unreadable: Self.unreadable, body)
    }

    private func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try AuthStorage.read(database, unreadable: Self.unreadable, body)
    }

    private static func storageError(_ error: any Error) -> any Error {
        AuthStorage.error(error, unreadable: unreadable)
    }

    private static func upsert(_ verification: VerificationRecord, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO auth_verifications (user_id, code_digest, expires_at, attempts) VALUES (?, ?, ?, ?)
                ON CONFLICT(user_id) DO UPDATE SET code_digest = excluded.code_digest, expires_at = excluded.expires_at,
                    attempts = excluded.attempts
                """, arguments: [verification.userID.rawValue, verification.codeDigest, verification.expiresAt, verification.attempts])
    }

    private static func insert(_ session: SessionRecord, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO auth_sessions (id, family_id, user_id, access_digest, access_expires_at, refresh_digest,
                    refresh_expires_at, created_at, rotated_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                session.id, session.familyID, session.userID.rawValue, session.accessDigest, session.accessExpiresAt,
                session.refreshDigest, session.refreshExpiresAt, session.createdAt, session.rotatedAt, session.revokedAt,
            ])
    }

    private static func insert(_ event: SecurityEvent, in db: Database) throws {
        try AuthStorage.insert(event, in: db)
    }

    private static func user(_ row: Row) throws -> UserRecord {
        UserRecord(
            id: UserID(try row.decode(String.self, forColumn: "id")), email: try row.decode(forColumn: "email"),
            passwordHash: try row.decode(forColumn: "password_hash"), createdAt: try row.decode(forColumn: "created_at"),
            verifiedAt: try row.decode(forColumn: "verified_at"))
    }

    private static func verification(_ row: Row) throws -> VerificationRecord {
        VerificationRecord(
            userID: UserID(try row.decode(String.self, forColumn: "user_id")), codeDigest: try row.decode(forColumn: "code_digest"),
            expiresAt: try row.decode(forColumn: "expires_at"), attempts: try row.decode(forColumn: "attempts"))
    }

    private static func session(_ row: Row) throws -> SessionRecord {
        SessionRecord(
            id: try row.decode(forColumn: "id"), familyID: try row.decode(forColumn: "family_id"),
            userID: UserID(try row.decode(String.self, forColumn: "user_id")),
            accessDigest: try row.decode(forColumn: "access_digest"), accessExpiresAt: try row.decode(forColumn: "access_expires_at"),
            refreshDigest: try row.decode(forColumn: "refresh_digest"), refreshExpiresAt: try row.decode(forColumn: "refresh_expires_at"),
            createdAt: try row.decode(forColumn: "created_at"), rotatedAt: try row.decode(forColumn: "rotated_at"),
            revokedAt: try row.decode(forColumn: "revoked_at"))
    }
}
