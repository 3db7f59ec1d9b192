import AuthDomain
import GRDB
import SharedKit
import Storage

/// How Auth's SQLite stores (sign-in records, PINs) meet the database: each call is one transaction,
/// and its failures reach the person as one sentence without the stored content (rows hold hashes).
enum AuthStorage {
    /// Auth's own errors and other features' refusals (in a shared transaction) pass through; SQLite's
    /// become `StorageError` with SQLite's message only; anything else (a row that cannot be decoded)
    /// is `unreadable`, never the row.
    static func error(_ error: any Error, unreadable: String) -> any Error {
        switch error {
        case let error as AuthError: error
        case let error as any UserFacingError: error
        case let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED: StorageError.busy
        case let error as DatabaseError: StorageError.failed(reason: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        default: StorageError.failed(reason: unreadable)
        }
    }

    /// `body` in a write transaction, the calling task suspended (not its thread blocked) while it
    /// waits for SQLite's writer.
    static func write<T: Sendable>(_ database: AppDatabase, unreadable: String, _ body: @Sendable (Database) throws -> T) async throws -> T
    {
        do {
            return try await database.write(body)
        } catch {
            throw Self.error(error, unreadable: unreadable)
        }
    }

    /// Inserts a security event (address, kind, time: nothing secret) in the transaction of `db`.
    static func insert(_ event: SecurityEvent, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO auth_security_events (user_id, email, kind, at) VALUES (?, ?, ?, ?)",
            arguments: [event.userID?.rawValue, event.email, event.kind.rawValue, event.at])
    }

    static func read<T: Sendable>(_ database: AppDatabase, unreadable: String, _ body: @Sendable (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw Self.error(error, unreadable: unreadable)
        }
    }
}
