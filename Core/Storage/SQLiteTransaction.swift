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
    /// `work` in a write transaction, the calling task suspended while it waits for SQLite's writer
    /// (the async ``AppDatabase/write(retries:_:)``).
    public func perform<T: Sendable>(_ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        try await write { db in try work(SQLiteTransaction(db)) }
    }
}
