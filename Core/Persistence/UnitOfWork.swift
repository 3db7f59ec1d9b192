import Registry

/// An open write transaction, as an opaque token.
///
/// Domain code and feature Interfaces pass it along without seeing what is inside; only Data
/// layers (which know the storage engine) use it. That is how two features — Transfer and
/// Account — write into *one* transaction while each still sees the other only through its
/// Interface: Transfer's use case opens the unit of work, hands the token to Account's posting
/// protocol, and records its transfer in the same token.
public protocol Transaction: AnyObject {
    /// Waits for the statements a store sent without waiting for their answers, and checks them:
    /// once this returns, what was sent is written — or what refused it is thrown. A store of an
    /// engine that answers each statement at once sends nothing ahead (the default: nothing to do).
    /// The unit of work flushes before it commits; code that must see a deferred refusal itself,
    /// to answer it (a key taken, say), flushes first.
    func flush() throws
}

extension Transaction {
    public func flush() throws {}
}

/// Runs work in one write transaction: all of it is committed, or none of it.
public protocol UnitOfWork: Sendable {
    /// Runs `work` in a write transaction (`BEGIN IMMEDIATE`); commits if it returns, rolls back if it throws.
    func perform<T: Sendable>(_ work: @Sendable (any Transaction) throws -> T) async throws -> T

    /// Runs `work` in a write transaction that is serialized with every other one naming any of
    /// `keys` (say, `transfer-sender:<user>`): what `work` decides from rows no single row lock
    /// covers — a key not used yet, a day's total — it decides on `keys`, and the rows it changes it
    /// reads through its stores' locking reads. An engine with one writer (SQLite) serializes every
    /// transaction anyway; PostgreSQL takes the keys' locks at `READ COMMITTED` instead of running
    /// `SERIALIZABLE` (no abort to retry on a hot row).
    func perform<T: Sendable>(serializingOn keys: [String], _ work: @Sendable (any Transaction) throws -> T) async throws -> T
}

extension UnitOfWork {
    /// One writer at a time (SQLite, the fakes): every transaction is serialized with every other.
    public func perform<T: Sendable>(serializingOn keys: [String], _ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        try await perform(work)
    }
}

/// The app's unit of work (provided by Core, implemented on the SQLite database).
public enum UnitOfWorkKey: ServiceKey {
    public typealias Service = any UnitOfWork
    public static var expectedProvider: String { "Core" }
}

/// Using a transaction token that a Data layer cannot open (a bug: tokens come from one storage).
public struct ForeignTransactionError: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "A transaction from another storage engine was passed to a Data layer." }
}

/// An invariant a feature checks on the live database (`moa doctor` runs every one).
public protocol ConsistencyCheck: Sendable {
    /// What is checked, e.g. "Ledger".
    var name: String { get }
    /// One sentence per broken invariant; empty when all hold. `summary` describes what was checked.
    func run() async throws -> (summary: String, problems: [String])
}

/// Which engine a served feature's Data module provides its stores on: SQLite (the default — `moa`,
/// and `moa-server` on its embedded database), or none, the composition root providing the same
/// store keys itself (`moa-server --database postgres://…`, from MoaPostgres). The registry then
/// refuses a composition in which a store key is missing or provided twice.
public enum StoreEngine: Sendable, Equatable {
    case sqlite
    case providedByRoot
}
