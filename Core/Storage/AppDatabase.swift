import Foundation
import GRDB
import Registry

/// The app's SQLite database: WAL, foreign keys on, a busy timeout, migrations applied on open.
///
/// Write transactions start IMMEDIATE (GRDB's default for `write`), so two `moa` processes that
/// write at once queue on the busy timeout instead of failing with "database is locked".
public final class AppDatabase: Sendable {
    /// Use for reads and writes (`reader.read { … }`, `writer.write { … }`).
    public let writer: any DatabaseWriter
    public let path: String
    /// The write-ahead log copied into the database off the writer's way (`nil` in memory).
    private let checkpoints: Checkpoints?
    private let cleanup: TemporaryDirectory?

    /// How long a writer waits for another process's lock before giving up.
    public static let busyTimeout: TimeInterval = 10

    /// How many times a write still refused as busy after ``busyTimeout`` is tried again.
    public static let busyRetries = 3

    private init(writer: any DatabaseWriter, path: String, cleanup: TemporaryDirectory?, checkpoints: Checkpoints? = nil) {
        self.writer = writer
        self.path = path
        self.cleanup = cleanup
        self.checkpoints = checkpoints
    }

    /// Opens (creating if needed) the database at `url` and applies every pending migration.
    public static func open(at url: URL, migrations: [MigrationSet]) throws(StorageError) -> AppDatabase {
        try open(at: url, migrations: migrations, cleanup: nil)
    }

    /// A fresh database in its own temporary folder, removed when the database is released. For tests.
    public static func temporary(migrations: [MigrationSet]) throws(StorageError) -> AppDatabase {
        let directory: TemporaryDirectory
        do {
            directory = try TemporaryDirectory()
        } catch {
            throw .cannotCreateHome(path: NSTemporaryDirectory(), reason: MoaHome.reason(error))
        }
        return try open(at: directory.url.appendingPathComponent("moa.sqlite"), migrations: migrations, cleanup: directory)
    }

    /// A database that lives in memory only, with every migration applied: for domain tests and
    /// Examples that must not touch the disk. Same schema, same SQL, no file.
    public static func inMemory(migrations: [MigrationSet]) throws(StorageError) -> AppDatabase {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch {
            throw .cannotOpen(path: ":memory:", reason: describe(error))
        }
        let database = AppDatabase(writer: queue, path: ":memory:", cleanup: nil)
        try database.migrate(migrations)
        return database
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Checkpoints.writerPages)")
        }
        return configuration
    }

    private static func open(at url: URL, migrations: [MigrationSet], cleanup: TemporaryDirectory?) throws(StorageError) -> AppDatabase {
        let configuration = configuration()
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: url.path, configuration: configuration)
        } catch {
            throw .cannotOpen(path: url.path, reason: describe(error))
        }
        let database = AppDatabase(writer: pool, path: url.path, cleanup: cleanup, checkpoints: Checkpoints(path: url.path))
        try database.migrate(migrations)
        return database
    }

    private func migrate(_ sets: [MigrationSet]) throws(StorageError) {
        var migrator = DatabaseMigrator()
        for set in sets {
            for step in set.steps {
                migrator.registerMigration("\(set.feature)/\(step.name)", migrate: step.migrate)
            }
        }
        let known = Set(sets.flatMap(\.identifiers))
        do {
            let applied = try writer.read { try migrator.appliedIdentifiers($0) }
            let unknown = applied.subtracting(known).sorted()
            if !unknown.isEmpty { throw StorageError.newerSchema(unknown: unknown) }
            try migrator.migrate(writer)
        } catch let error as StorageError {
            throw error
        } catch {
            let pending = (try? writer.read { try migrator.appliedIdentifiers($0) }).map { known.subtracting($0).sorted().first } ?? nil
            throw .migrationFailed(id: pending ?? "unknown", reason: Self.describe(error))
        }
    }

    /// The migration identifiers applied to this database, in the order they were applied.
    public func appliedMigrations() throws(StorageError) -> [String] {
        do {
            return try writer.read { db in
                guard try db.tableExists("grdb_migrations") else { return [] }
                return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
            }
        } catch {
            throw .failed(reason: Self.describe(error))
        }
    }

    /// Runs a write transaction, retrying a bounded number of times if SQLite still reports busy
    /// after the busy timeout (for example under heavy contention from other processes). Blocks the
    /// calling thread until SQLite's one writer is free: for synchronous code (migrations, the
    /// command line's own steps); async code awaits the other `write`.
    public func write<T: Sendable>(retries: Int = AppDatabase.busyRetries, _ updates: @Sendable (Database) throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                let value = try writer.write(updates)
                checkpoints?.committed()
                return value
            } catch let error where Self.isBusy(error, attempt: attempt, of: retries) {
                attempt += 1
            }
        }
    }

    /// `updates` in a write transaction on GRDB's writer queue, the calling task suspended meanwhile
    /// rather than its thread blocked: on two cores, two requests waiting for SQLite's one writer
    /// would otherwise hold every thread of Swift's cooperative pool, and nothing else could run
    /// (not even the request that is writing, should it await). Retried like the synchronous `write`.
    public func write<T: Sendable>(retries: Int = AppDatabase.busyRetries, _ updates: @Sendable (Database) throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                let value = try await writer.write(updates)
                checkpoints?.committed()
                return value
            } catch let error where Self.isBusy(error, attempt: attempt, of: retries) {
                attempt += 1
            }
        }
    }

    /// Whether `error` is SQLite still busy after its timeout, with retries left.
    private static func isBusy(_ error: any Error, attempt: Int, of retries: Int) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_BUSY && attempt < retries
    }

    /// Runs a read (in a read transaction: a consistent snapshot across its statements).
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) throws -> T {
        try writer.read(value)
    }

    /// Runs a read made of **one** statement, without wrapping it in a transaction: SQLite already
    /// gives a single statement a consistent snapshot, and the BEGIN/COMMIT pair costs as much as a
    /// small indexed query. For hot paths such as a history page.
    public func readSingleStatement<T: Sendable>(_ value: @Sendable (Database) throws -> T) throws -> T {
        try writer.unsafeRead(value)
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
        return MoaHome.reason(error)
    }
}

/// The database of this run of the app.
public enum DatabaseKey: ServiceKey {
    public typealias Service = AppDatabase
    public static var expectedProvider: String { "Core" }
}

/// The home folder of this run of the app.
public enum MoaHomeKey: ServiceKey {
    public typealias Service = MoaHome
    public static var expectedProvider: String { "Core" }
}

/// A uniquely named folder under the system's temporary directory, deleted on release.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("moa-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
