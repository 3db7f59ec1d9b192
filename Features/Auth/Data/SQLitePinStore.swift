import AuthDomain
import Foundation
import GRDB
import Persistence
import SharedKit
import Storage

/// ``PinStore`` on the app's SQLite database (`auth_pins`, one row per user, removed with the
/// user; its security events go to `auth_security_events`, as the sign-in store's do). Every method
/// is one transaction; errors carry SQLite's message, never a bound value.
public struct SQLitePinStore: PinStore {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func pin(for user: UserID) async throws -> PinRecord? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM auth_pins WHERE user_id = ?", arguments: [user.rawValue]) else {
                return nil
            }
            return PinRecord(
                userID: UserID(try row.decode(String.self, forColumn: "user_id")), pinHash: try row.decode(forColumn: "pin_hash"),
                failures: try row.decode(forColumn: "failures"), updatedAt: try row.decode(forColumn: "updated_at"))
        }
    }

    public func savePin(hash: String, for user: UserID, at date: Date) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO auth_pins (user_id, pin_hash, failures, updated_at) VALUES (?, ?, 0, ?)
                    ON CONFLICT(user_id) DO UPDATE SET pin_hash = excluded.pin_hash, failures = 0, updated_at = excluded.updated_at
                    """, arguments: [user.rawValue, hash, date])
        }
    }

    public func deletePin(
        for user: UserID, recording event: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void
    ) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM auth_pins WHERE user_id = ?", arguments: [user.rawValue])
            guard db.changesCount > 0 else { return false }
            try AuthStorage.insert(event, in: db)
            try alongside(SQLiteTransaction(db))
            return true
        }
    }

    public func recordWrongPin(
        for user: UserID, limit: Int, lockout: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void
    ) async throws -> Int {
        try await write { db in
            try db.execute(sql: "UPDATE auth_pins SET failures = failures + 1 WHERE user_id = ?", arguments: [user.rawValue])
            let failures = try Int.fetchOne(db, sql: "SELECT failures FROM auth_pins WHERE user_id = ?", arguments: [user.rawValue]) ?? 0
            if failures == limit {
                try AuthStorage.insert(lockout, in: db)
                try alongside(SQLiteTransaction(db))
            }
            return failures
        }
    }

    public func resetWrongPins(for user: UserID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE auth_pins SET failures = 0 WHERE user_id = ?", arguments: [user.rawValue])
        }
    }

    // MARK: Helpers

    private static let unreadable = "a stored PIN record could not be read"

    private func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await AuthStorage.write(database, unreadable: Self.unreadable, body)
    }

    private func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try AuthStorage.read(database, unreadable: Self.unreadable, body)
    }
}
