import GRDB
import Persistence

/// A SQLite write transaction behind the opaque `Persistence.Transaction` token.
public final class SQLiteTransaction: Transaction {
    /// The connection, usable only inside the unit of work that made this token.
    public let db: Database

    /// A token for a write transaction a Data layer already holds (inside `AppDatabase.write`), so
    /// that it can hand it to another feature's Interface (e.g. `InboxPublisher`) and both write in
    /// that one transaction.
    public init(_ db: Database) {
        self.db = db
    }

    /// Opens a token handed to a Data layer.
    public static func open(_ transaction: any Transaction) throws -> Database {
        guard let transaction = transaction as? SQLiteTransaction else { throw ForeignTransactionError() }
        return transaction.db
    }
}

extension AppDatabase: UnitOfWork {
    /// `work` in a write transaction on GRDB's writer queue, the calling task suspended meanwhile (not
    /// blocking its thread: on two cores, two writers waiting for the one SQLite writer would hold
    /// every thread of Swift's cooperative pool, and no request could be read while a group of
    /// transfers is written). Retried like ``write(retries:_:)`` while another process holds the lock.
    public func perform<T: Sendable>(_ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await writer.write { db in try work(SQLiteTransaction(db)) }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < Self.busyRetries {
                attempt += 1
            }
        }
    }
}
