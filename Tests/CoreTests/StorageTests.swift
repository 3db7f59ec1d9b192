import Foundation
import GRDB
import Persistence
import SharedKit
import TestSupport
import Testing

@testable import Storage

private let notes = MigrationSet(
    feature: "Notes",
    steps: [
        .init("v1-create-notes") { db in
            try db.create(table: "note") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("text", .text).notNull()
            }
        },
        .init("v2-create-tags") { db in
            try db.create(table: "tag") { table in
                table.column("noteId", .integer).notNull().references("note", onDelete: .cascade)
                table.column("name", .text).notNull()
            }
        },
    ])

@Suite("Storage")
struct StorageTests {
    @Test func aNewDatabaseIsWALWithForeignKeysAndAllMigrations() throws {
        let database = try AppDatabase.temporary(migrations: [notes])
        let (journal, foreignKeys) = try database.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(journal == "wal")
        #expect(foreignKeys == 1)
        #expect(try database.appliedMigrations() == ["Notes/v1-create-notes", "Notes/v2-create-tags"])
        #expect(throws: DatabaseError.self) {
            try database.write { db in try db.execute(sql: "INSERT INTO tag (noteId, name) VALUES (42, 'orphan')") }
        }
    }

    /// The write-ahead log is copied into the database file as commits go, long before the writer's
    /// own threshold (``Checkpoints/writerPages``), which it would otherwise reach only at 40 MB.
    @Test func theLogIsCopiedIntoTheDatabaseAsCommitsGo() async throws {
        let database = try AppDatabase.temporary(migrations: [notes])
        let file = URL(fileURLWithPath: database.path)
        let before = try #require(try file.resourceValues(forKeys: [.fileSizeKey]).fileSize)
        let text = String(repeating: "x", count: 8_000)
        for _ in 0..<(Checkpoints.every * 4) {
            try await database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [text]) }
        }
        // 128 commits of two pages each: about 1 MB of log, under a tenth of the writer's threshold.
        var size = before
        let started = ContinuousClock.now
        while size < before + 500_000, ContinuousClock.now - started < .seconds(10) {
            try await Task.sleep(for: .milliseconds(50))
            size = try #require(try file.resourceValues(forKeys: [.fileSizeKey]).fileSize)
        }
        #expect(size >= before + 500_000, "the database file grew from \(before) to \(size) bytes only")
    }

    @Test func anInMemoryDatabaseHasTheSameSchemaAndNoFile() throws {
        let database = try AppDatabase.inMemory(migrations: [notes])
        #expect(database.path == ":memory:")
        #expect(try database.appliedMigrations() == notes.identifiers)
        try database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('in memory')") }
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM note") } == 1)
        #expect(throws: DatabaseError.self) {
            try database.write { db in try db.execute(sql: "INSERT INTO tag (noteId, name) VALUES (42, 'orphan')") }
        }
    }

    @Test func aUnitOfWorkCommitsAllOrNothing() async throws {
        struct Refused: Error {}
        let database = try AppDatabase.inMemory(migrations: [notes])
        let unitOfWork: any UnitOfWork = database
        let id = try await unitOfWork.perform { transaction in
            let db = try SQLiteTransaction.open(transaction)
            try db.execute(sql: "INSERT INTO note (text) VALUES ('kept')")
            return db.lastInsertedRowID
        }
        await #expect(throws: Refused.self) {
            try await unitOfWork.perform { transaction in
                let db = try SQLiteTransaction.open(transaction)
                try db.execute(sql: "INSERT INTO note (text) VALUES ('rolled back')")
                try db.execute(sql: "INSERT INTO tag (noteId, name) VALUES (?, 'also rolled back')", arguments: [id])
                throw Refused()
            }
        }
        #expect(try database.read { try String.fetchAll($0, sql: "SELECT text FROM note") } == ["kept"])
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM tag") } == 0)
    }

    @Test func reopeningAppliesOnlyNewStepsAndKeepsData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moa-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("moa.sqlite")
        let first = MigrationSet(feature: "Notes", steps: [notes.steps[0]])
        do {
            let database = try AppDatabase.open(at: url, migrations: [first])
            try database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('kept')") }
        }
        let reopened = try AppDatabase.open(at: url, migrations: [notes])
        #expect(try reopened.appliedMigrations() == notes.identifiers)
        #expect(try reopened.read { try String.fetchOne($0, sql: "SELECT text FROM note") } == "kept")
    }

    @Test func aDatabaseFromANewerMoaIsRefusedByName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moa-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("moa.sqlite")
        _ = try AppDatabase.open(at: url, migrations: [notes])
        let older = MigrationSet(feature: "Notes", steps: [notes.steps[0]])
        #expect(throws: StorageError.newerSchema(unknown: ["Notes/v2-create-tags"])) {
            try AppDatabase.open(at: url, migrations: [older])
        }
    }

    @Test func aFailingStepIsNamedAndNothingOfItStays() throws {
        let broken = MigrationSet(
            feature: "Broken",
            steps: [
                .init("v1-half") { db in
                    try db.execute(sql: "CREATE TABLE half (id INTEGER)")
                    try db.execute(sql: "THIS IS NOT SQL")
                }
            ])
        #expect {
            try AppDatabase.temporary(migrations: [broken])
        } throws: { error in
            guard case .migrationFailed(let id, _) = error as? StorageError else { return false }
            return id == "Broken/v1-half"
        }
    }

    @Test func anUnopenableDatabaseSaysWhere() {
        #expect {
            try AppDatabase.open(at: URL(fileURLWithPath: "/proc/definitely/not/here/moa.sqlite"), migrations: [])
        } throws: { error in
            guard let error = error as? StorageError, case .cannotOpen(let path, _) = error else { return false }
            return path == "/proc/definitely/not/here/moa.sqlite" && error.exitStatus == .ioError
        }
    }

    @Test func theTemporaryDatabaseFolderIsRemovedOnRelease() throws {
        var database: AppDatabase? = try AppDatabase.temporary(migrations: [notes])
        let folder = URL(fileURLWithPath: database?.path ?? "").deletingLastPathComponent().path
        #expect(FileManager.default.fileExists(atPath: folder))
        database = nil
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test func twoConnectionsWritingAtOnceNeverFailWithLocked() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moa-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("moa.sqlite")
        // Two pools on one file behave like two moa processes.
        let one = try AppDatabase.open(at: url, migrations: [notes])
        let two = try AppDatabase.open(at: url, migrations: [notes])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for database in [one, two] {
                group.addTask {
                    for index in 0..<200 {
                        try database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: ["n\(index)"]) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try one.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM note") } == 400)
    }

    @Test func homeComesFromTheOptionThenTheEnvironmentThenTheUsersHome() {
        #expect(MoaHome.resolve(option: "/tmp/a", environment: ["MOA_HOME": "/tmp/b", "HOME": "/home/x"]).root.path == "/tmp/a")
        #expect(MoaHome.resolve(option: nil, environment: ["MOA_HOME": "/tmp/b", "HOME": "/home/x"]).root.path == "/tmp/b")
        #expect(MoaHome.resolve(option: nil, environment: ["HOME": "/home/x"]).root.path == "/home/x/.moa")
        #expect(MoaHome.resolve(option: "~/moa", environment: ["HOME": "/home/x"]).root.path == "/home/x/moa")
    }
}

/// moa-server on SQLite: requests that wait for SQLite's one writer must not hold the threads every
/// other request needs (Swift's cooperative pool has one per core).
@Suite("Storage: waiting for the writer")
struct WriterWaitTests {
    /// Two writes wait for a writer held elsewhere, on an executor of two threads (as the cooperative
    /// pool has on two cores; its own, so that other tests running at once cannot starve it); an
    /// unrelated task on that executor must still run meanwhile. With the blocking `write` (as every
    /// store but the transfers' used until now) the two writes took both threads, and the unrelated
    /// task ran only once the watchdog let the writer go (20 s).
    @Test func writesWaitingForTheWriterLeaveThePoolFree() async throws {
        let database = try AppDatabase.temporary(migrations: [notes])
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let released = Locked<String?>(nil)
        Thread {
            try? database.write { _ in
                holding.signal()
                // Let go when the unrelated task ran, or after 20 s (so a failing test ends).
                let why = release.wait(timeout: .now() + 20) == .success ? "the unrelated task ran" : "the watchdog"
                released.withLock { $0 = why }
            }
        }.start()
        let pool = ThreadPoolExecutor(label: "moa.tests.writer-wait", count: 2)
        defer { pool.shutdown() }
        // All of it on the two threads, none on the shared pool that other tests keep busy.
        let (written, ranWhileHeld) = try await Task(executorPreference: pool) {
            holding.wait()
            let writers = (0..<2).map { index in
                Task(executorPreference: pool) {
                    try await database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: ["\(index)"]) }
                }
            }
            try await Task.sleep(for: .milliseconds(100)) // the writers are waiting by now
            let ranWhileHeld = await Task(executorPreference: pool) { released.withLock { $0 } == nil }.value
            release.signal()
            for writer in writers { try await writer.value }
            return (writers.count, ranWhileHeld)
        }.value
        #expect(ranWhileHeld)
        #expect(released.withLock { $0 } == "the unrelated task ran")
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM note") } == written)
    }
}

/// ``StoredDate`` writes GRDB's text to the byte, so a row written through it and one written
/// through GRDB's `Date` compare and sort alike in SQL.
@Suite("Stored dates")
struct StoredDateTests {
    static func grdb(_ date: Date) -> String? {
        String.fromDatabaseValue(date.databaseValue)
    }

    static func ours(_ date: Date) -> String? {
        String.fromDatabaseValue(StoredDate(date).databaseValue)
    }

    @Test func theTextIsGRDBsToTheByte() {
        var random = SeededGenerator(seed: 26)
        var dates = (0..<20_000).map { _ in
            // 1600–2200, to the microsecond: every millisecond's edge is met somewhere.
            Date(
                timeIntervalSince1970: Double(Int64.random(in: -11_676_096_000_000_000...7_258_118_400_000_000, using: &random)) / 1_000_000
            )
        }
        dates += [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0005), Date(timeIntervalSince1970: -0.001),
            Date(timeIntervalSince1970: 1_795_435_209.9995), Date(timeIntervalSince1970: 1_795_435_209.0005),
            Date(timeIntervalSince1970: 1_795_435_209.999_999_9), Date(timeIntervalSince1970: 951_782_400), // 2000-02-29
            Date(timeIntervalSince1970: 4_107_542_399.999), // 2100-02-28T23:59:59.999
            Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 0.0015),
            Date(timeIntervalSinceReferenceDate: -0.0015),
        ]
        let differing = dates.filter { Self.ours($0) != Self.grdb($0) }.prefix(5)
            .map { "\($0.timeIntervalSince1970): \(Self.ours($0) ?? "nil") ≠ \(Self.grdb($0) ?? "nil")" }
        let count = differing.count
        #expect(count == 0, "\(differing)")
    }

    @Test func outsideTheYearsItKnowsGRDBWritesIt() {
        for date in [Date(timeIntervalSince1970: -20_000_000_000), Date(timeIntervalSince1970: 300_000_000_000), Date.distantPast] {
            #expect(Self.ours(date) == Self.grdb(date))
            #expect(StoredDate.text(date) == nil)
        }
        #expect(Self.ours(Date.distantFuture) == Self.grdb(Date.distantFuture))
        #expect(Self.ours(Date.distantFuture) == "4001-01-01 00:00:00.000")
    }

    @Test func itIsReadBackAsGRDBReadsADate() throws {
        let date = Date(timeIntervalSince1970: 1_795_435_209.25)
        let back = try #require(StoredDate.fromDatabaseValue(StoredDate(date).databaseValue))
        #expect(back.date == date)
        #expect(Self.ours(date) == "2026-11-23 12:00:09.250")
    }
}
