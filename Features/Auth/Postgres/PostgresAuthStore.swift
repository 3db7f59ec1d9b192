import AuthDomain
import AuthInterface
import Foundation
import Persistence
import PostgresNIO
import PostgresStorage
import SharedKit

/// ``AuthStore`` on the server's PostgreSQL database, the twin of AuthData's `SQLiteAuthStore`.
/// Every method is one transaction; a writing one is `SERIALIZABLE` (``PostgresAppDatabase/write(_:)``),
/// so a read-modify-write — a wrong code counted, a refresh token rotated once, an address taken —
/// holds when several `moa-server` processes share the database: a conflicting transaction is run
/// again, and then sees the other's row.
///
/// Failures surface as the database's (``PostgresFailure``, ``DatabaseUnavailable``), whose text is
/// PostgreSQL's message or the constraint's name, never a bound value (no e-mail, hash or digest in
/// an error); a row that cannot be decoded is "a stored sign-in record could not be read".
public struct PostgresAuthStore: AuthStore {
    private let database: PostgresAppDatabase

    public init(database: PostgresAppDatabase) {
        self.database = database
    }

    // MARK: Users

    public func createUser(_ user: UserRecord, verification: VerificationRecord) async throws {
        try await write { tx in
            // The address taken (compared as the unique index does) inserts nothing; another clash fails.
            let inserted = try tx.rows(
                """
                INSERT INTO auth_users (id, email, password_hash, created_at, verified_at)
                VALUES (\(user.id.rawValue), \(user.email), \(user.passwordHash), \(user.createdAt), \(user.verifiedAt))
                ON CONFLICT ((lower(email COLLATE "C"))) DO NOTHING RETURNING id
                """)
            guard !inserted.isEmpty else { throw AuthError.emailTaken(user.email) }
            try Self.upsert(verification, in: tx)
        }
    }

    public func deleteUnverifiedUser(_ id: UserID) async throws {
        try await write { tx in
            try tx.execute("DELETE FROM auth_users WHERE id = \(id.rawValue) AND verified_at IS NULL")
        }
    }

    public func user(email: String) async throws -> UserRecord? {
        try await read { tx in
            try tx.rows(
                """
                SELECT \(unescaped: Self.userColumns) FROM auth_users
                WHERE lower(email COLLATE "C") = lower(\(email) COLLATE "C")
                """
            ).first.map(Self.user)
        }
    }

    public func user(id: UserID) async throws -> UserRecord? {
        try await read { tx in
            try tx.rows("SELECT \(unescaped: Self.userColumns) FROM auth_users WHERE id = \(id.rawValue)").first.map(Self.user)
        }
    }

    public func markVerified(_ id: UserID, at date: Date) async throws {
        try await write { tx in
            try tx.execute("UPDATE auth_users SET verified_at = \(date) WHERE id = \(id.rawValue)")
        }
    }

    public func updatePasswordHash(_ id: UserID, to hash: String) async throws {
        try await write { tx in
            try tx.execute("UPDATE auth_users SET password_hash = \(hash) WHERE id = \(id.rawValue)")
        }
    }

    // MARK: Verifications

    public func verification(for id: UserID) async throws -> VerificationRecord? {
        try await read { tx in
            try tx.rows("SELECT user_id, code_digest, expires_at, attempts FROM auth_verifications WHERE user_id = \(id.rawValue)")
                .first.map(Self.verification)
        }
    }

    public func saveVerification(_ verification: VerificationRecord) async throws {
        try await write { tx in try Self.upsert(verification, in: tx) }
    }

    public func recordWrongCode(for id: UserID) async throws -> Int {
        try await write { tx in
            if let attempts = try tx.value(
                "UPDATE auth_verifications SET attempts = attempts + 1 WHERE user_id = \(id.rawValue) RETURNING attempts", as: Int64.self)
            {
                return Int(attempts)
            }
            let email = try tx.value("SELECT email FROM auth_users WHERE id = \(id.rawValue)", as: String.self)
            throw AuthError.noPendingVerification(email ?? id.rawValue)
        }
    }

    public func deleteVerification(for id: UserID) async throws {
        try await write { tx in
            try tx.execute("DELETE FROM auth_verifications WHERE user_id = \(id.rawValue)")
        }
    }

    // MARK: Sessions

    public func insertSession(_ session: SessionRecord) async throws {
        try await write { tx in try Self.insert(session, in: tx) }
    }

    public func session(accessDigest: String) async throws -> SessionRecord? {
        try await read { tx in
            try tx.rows("SELECT \(unescaped: Self.sessionColumns) FROM auth_sessions WHERE access_digest = \(accessDigest)")
                .first.map(Self.session)
        }
    }

    public func session(refreshDigest: String) async throws -> SessionRecord? {
        try await read { tx in
            try tx.rows("SELECT \(unescaped: Self.sessionColumns) FROM auth_sessions WHERE refresh_digest = \(refreshDigest)")
                .first.map(Self.session)
        }
    }

    /// Two servers rotating one token at once: the second waits for the first's row, then conflicts,
    /// and its re-run finds the record rotated (false).
    public func rotate(_ id: String, to next: SessionRecord, at date: Date) async throws -> Bool {
        try await write { tx in
            let rotated = try tx.rows(
                """
                UPDATE auth_sessions SET rotated_at = \(date)
                WHERE id = \(id) AND rotated_at IS NULL AND revoked_at IS NULL RETURNING id
                """)
            guard rotated.count == 1 else { return false }
            try Self.insert(next, in: tx)
            return true
        }
    }

    public func revokeFamily(_ familyID: String, at date: Date) async throws {
        try await write { tx in
            try tx.execute("UPDATE auth_sessions SET revoked_at = \(date) WHERE family_id = \(familyID) AND revoked_at IS NULL")
        }
    }

    public func revokeAllSessions(of user: UserID, at date: Date) async throws {
        try await write { tx in
            try tx.execute("UPDATE auth_sessions SET revoked_at = \(date) WHERE user_id = \(user.rawValue) AND revoked_at IS NULL")
        }
    }

    // MARK: Throttling and events

    public func throttle(for email: String) async throws -> ThrottleState {
        try await read { tx in try Self.throttle(for: email.lowercased(), in: tx) }
    }

    /// Reads, changes and stores the state in one SERIALIZABLE transaction, re-run (with `change`
    /// applied again) when another process changed the row first; the fresh state is stored as no
    /// row at all.
    public func updateThrottle(for email: String, _ change: @Sendable (ThrottleState) -> ThrottleState) async throws
        -> ThrottleUpdate
    {
        let key = email.lowercased()
        return try await write { tx in
            let before = try Self.throttle(for: key, in: tx)
            let after = change(before)
            if after == before { return ThrottleUpdate(before: before, after: after) }
            if after == .fresh {
                try tx.execute("DELETE FROM auth_throttles WHERE email = \(key)")
            } else {
                try tx.execute(
                    """
                    INSERT INTO auth_throttles (email, failures, window_start, locked_until, lockouts)
                    VALUES (\(key), \(Int64(after.failures)), \(after.windowStart), \(after.lockedUntil), \(Int64(after.lockouts)))
                    ON CONFLICT (email) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start,
                        locked_until = excluded.locked_until, lockouts = excluded.lockouts
                    """)
            }
            return ThrottleUpdate(before: before, after: after)
        }
    }

    private static func throttle(for key: String, in tx: PostgresTransaction) throws -> ThrottleState {
        guard
            let row = try tx.rows("SELECT failures, window_start, locked_until, lockouts FROM auth_throttles WHERE email = \(key)")
                .first
        else {
            return .fresh
        }
        let (failures, windowStart, lockedUntil, lockouts) = try row.decode((Int64, Date?, Date?, Int64).self)
        return ThrottleState(failures: Int(failures), windowStart: windowStart, lockedUntil: lockedUntil, lockouts: Int(lockouts))
    }

    /// Stores the event (address, kind, time: nothing secret). Nothing is logged.
    public func record(_ event: SecurityEvent) async throws {
        try await write { tx in try Self.insert(event, in: tx) }
    }

    // MARK: Work shared with other features' transactions

    public func insertSession(
        _ session: SessionRecord, recording event: SecurityEvent, clearingWrongPins: Bool,
        alongside: @Sendable (any Transaction) throws -> Void
    ) async throws {
        try await write { tx in
            try Self.insert(session, in: tx)
            try Self.insert(event, in: tx)
            if clearingWrongPins {
                try tx.execute("UPDATE auth_pins SET failures = 0 WHERE user_id = \(session.userID.rawValue)")
            }
            try alongside(tx)
        }
    }

    public func record(_ event: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void) async throws {
        try await write { tx in
            try Self.insert(event, in: tx)
            try alongside(tx)
        }
    }

    public func replacePassword(
        of user: UserID, with hash: String, at date: Date, newSession: SessionRecord?, event: SecurityEvent,
        alongside: @Sendable (any Transaction) throws -> Void
    ) async throws {
        try await write { tx in
            try tx.execute(
                "UPDATE auth_users SET password_hash = \(hash), verified_at = COALESCE(verified_at, \(date)) WHERE id = \(user.rawValue)")
            try tx.execute("UPDATE auth_sessions SET revoked_at = \(date) WHERE user_id = \(user.rawValue) AND revoked_at IS NULL")
            try tx.execute("DELETE FROM auth_verifications WHERE user_id = \(user.rawValue)")
            if let newSession { try Self.insert(newSession, in: tx) }
            try Self.insert(event, in: tx)
            try alongside(tx)
        }
    }

    public func eraseUser(_ id: UserID, email: String, in transaction: any Transaction) throws {
        let tx = try PostgresTransaction.open(transaction)
        try tx.execute("DELETE FROM auth_sessions WHERE user_id = \(id.rawValue)")
        try tx.execute("DELETE FROM auth_verifications WHERE user_id = \(id.rawValue)")
        let keys = ThrottleKey.keys(of: email.lowercased())
        for key in keys.exact { try tx.execute("DELETE FROM auth_throttles WHERE email = \(key)") }
        for prefix in keys.prefixes {
            try tx.execute("DELETE FROM auth_throttles WHERE left(email, \(Int32(prefix.unicodeScalars.count))) = \(prefix)")
        }
        try tx.execute(
            #"DELETE FROM auth_security_events WHERE user_id = \#(id.rawValue) OR lower(email COLLATE "C") = lower(\#(email) COLLATE "C")"#)
        try tx.execute("DELETE FROM auth_users WHERE id = \(id.rawValue)")
    }

    // MARK: Helpers

    private static let unreadable = PostgresFailure.other(state: nil, message: "a stored sign-in record could not be read")

    private static let userColumns = "id, email, password_hash, created_at, verified_at"

    private static let sessionColumns = """
        id, family_id, user_id, access_digest, access_expires_at, refresh_digest, refresh_expires_at, created_at, rotated_at, revoked_at
        """

    private func write<T: Sendable>(_ body: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        do {
            return try await database.write(body)
        } catch is PostgresDecodingError {
            throw Self.unreadable
        }
    }

    private func read<T: Sendable>(_ body: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        do {
            return try await database.read(body)
        } catch is PostgresDecodingError {
            throw Self.unreadable
        }
    }

    private static func upsert(_ verification: VerificationRecord, in tx: PostgresTransaction) throws {
        try tx.execute(
            """
            INSERT INTO auth_verifications (user_id, code_digest, expires_at, attempts)
            VALUES (\(verification.userID.rawValue), \(verification.codeDigest), \(verification.expiresAt), \(Int64(verification.attempts)))
            ON CONFLICT (user_id) DO UPDATE SET code_digest = excluded.code_digest, expires_at = excluded.expires_at,
                attempts = excluded.attempts
            """)
    }

    private static func insert(_ session: SessionRecord, in tx: PostgresTransaction) throws {
        try tx.execute(
            """
            INSERT INTO auth_sessions (\(unescaped: sessionColumns))
            VALUES (\(session.id), \(session.familyID), \(session.userID.rawValue), \(session.accessDigest), \(session.accessExpiresAt),
                \(session.refreshDigest), \(session.refreshExpiresAt), \(session.createdAt), \(session.rotatedAt), \(session.revokedAt))
            """)
    }

    private static func insert(_ event: SecurityEvent, in tx: PostgresTransaction) throws {
        try tx.execute(
            """
            INSERT INTO auth_security_events (user_id, email, kind, at)
            VALUES (\(event.userID?.rawValue), \(event.email), \(event.kind.rawValue), \(event.at))
            """)
    }

    private static func user(_ row: PostgresRow) throws -> UserRecord {
        let (id, email, passwordHash, createdAt, verifiedAt) = try row.decode((String, String, String, Date, Date?).self)
        return UserRecord(id: UserID(id), email: email, passwordHash: passwordHash, createdAt: createdAt, verifiedAt: verifiedAt)
    }

    private static func verification(_ row: PostgresRow) throws -> VerificationRecord {
        let (userID, codeDigest, expiresAt, attempts) = try row.decode((String, String, Date, Int64).self)
        return VerificationRecord(userID: UserID(userID), codeDigest: codeDigest, expiresAt: expiresAt, attempts: Int(attempts))
    }

    private static func session(_ row: PostgresRow) throws -> SessionRecord {
        let (id, familyID, userID, accessDigest, accessExpiresAt, refreshDigest, refreshExpiresAt, createdAt, rotatedAt, revokedAt) =
            try row.decode((String, String, String, String, Date, String, Date, Date, Date?, Date?).self)
        return SessionRecord(
            id: id, familyID: familyID, userID: UserID(userID), accessDigest: accessDigest, accessExpiresAt: accessExpiresAt,
            refreshDigest: refreshDigest, refreshExpiresAt: refreshExpiresAt, createdAt: createdAt, rotatedAt: rotatedAt,
            revokedAt: revokedAt)
    }
}
