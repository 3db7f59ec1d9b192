import Foundation
import Logging
import MoaPostgres
import PostgresNIO
import PostgresStorage
import SharedKit
import Testing

/// `--database`: the URL parsed once, at the edge — the TLS mode libpq would take from it, a
/// default that never sends the bank unverified across a network, and errors that never show the
/// password.
@Suite("moa-server --database: the URL")
struct DatabaseLocationTests {
    @Test func theURLGivesUserHostPortDatabaseAndThePasswordFromTheEnvironment() throws {
        let location = try PostgresLocation("postgres://moa@db.example:6543/bank", environment: ["PGPASSWORD": "s3cret"])
        #expect(location.user == "moa" && location.host == "db.example" && location.port == 6543 && location.database == "bank")
        #expect(location.password == "s3cret")
        #expect(try PostgresLocation("postgresql://moa:inline@db.example/bank", environment: ["PGPASSWORD": "other"]).password == "inline")
        #expect(try PostgresLocation("postgres://moa@db.example/bank").port == 5432)
    }

    @Test func theDefaultTLSModeIsPreferOnThisMachineAndVerifyFullElsewhere() throws {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "[::1]"] {
            #expect(try PostgresLocation("postgres://moa@\(host)/bank").tls == .prefer, "\(host)")
        }
        for host in ["db.example", "10.0.0.7", "127.0.0.1.example", "[2001:db8::1]"] {
            #expect(try PostgresLocation("postgres://moa@\(host)/bank").tls == .verifyFull, "\(host)")
        }
    }

    @Test func everyLibpqModeButAllowIsTakenAsWritten() throws {
        for mode in PostgresLocation.TLSMode.allCases {
            let location = try PostgresLocation("postgres://moa@db.example/bank?sslmode=\(mode.rawValue)")
            #expect(location.tls == mode)
            #expect(location.description == "postgres://moa@db.example:5432/bank?sslmode=\(mode.rawValue)")
        }
        #expect(PostgresLocation.TLSMode.allCases.filter(\.verifies) == [.verifyCA, .verifyFull])
    }

    @Test func rootCertificatesAreAReadableFileAndImplyVerification() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("moa-roots-\(UUID().uuidString).pem")
        try "-----BEGIN CERTIFICATE-----\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }

        let implied = try PostgresLocation("postgres://moa@127.0.0.1/bank?sslrootcert=\(file.path)")
        #expect(implied.tls == .verifyFull && implied.rootCertificates == file.path)
        #expect(implied.description.hasSuffix("?sslmode=verify-full&sslrootcert=\(file.path)"))
        #expect(try PostgresLocation("postgres://moa@db.example/bank?sslmode=verify-ca&sslrootcert=\(file.path)").tls == .verifyCA)

        #expect(
            throws: PostgresLocationError.rootCertificatesUnused(
                "require", "postgres://moa@db.example/bank?sslmode=require&sslrootcert=\(file.path)")
        ) {
            try PostgresLocation("postgres://moa@db.example/bank?sslmode=require&sslrootcert=\(file.path)")
        }
        #expect(
            throws: PostgresLocationError.badRootCertificates(
                "/nowhere/roots.pem", "postgres://moa@db.example/bank?sslrootcert=/nowhere/roots.pem")
        ) {
            try PostgresLocation("postgres://moa@db.example/bank?sslrootcert=/nowhere/roots.pem")
        }
    }

    @Test func badURLsAreRefusedInOneSentenceWithoutThePassword() throws {
        let cases: [(String, String)] = [
            (
                "mysql://moa:hunter2@db/bank",
                #"--database must be a postgres://USER@HOST:PORT/DATABASE URL, not "mysql://moa:•••@db/bank"."#
            ),
            ("postgres://moa:hunter2@db.example", #"--database "postgres://moa:•••@db.example" needs a database name."#),
            ("postgres://db.example/bank", #"--database "postgres://db.example/bank" needs a user."#),
            (
                "postgres://moa:hunter2@db.example/bank?sslmode=verify",
                #"--database "postgres://moa:•••@db.example/bank?sslmode=verify" has sslmode "verify": give it once, as one of disable, prefer, require, verify-ca, verify-full."#
            ),
            (
                "postgres://moa@db.example/bank?sslmode=disable&sslmode=require",
                #"--database "postgres://moa@db.example/bank?sslmode=disable&sslmode=require" has sslmode "require": give it once, as one of disable, prefer, require, verify-ca, verify-full."#
            ),
            (
                "postgres://moa:hunter2@db.example/bank?application_name=x",
                #"--database "postgres://moa:•••@db.example/bank?application_name=x" has a parameter Moa does not know ("application_name"): only sslmode and sslrootcert."#
            ),
        ]
        for (text, sentence) in cases {
            do {
                _ = try PostgresLocation(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.message == sentence)
                #expect(!error.message.contains("hunter2"))
                #expect(error.exitStatus == .usage)
            }
        }
    }
}

/// The unit of work itself, on a real server: no lost update however hot the row, and an audit that
/// writes nothing.
@Suite("PostgreSQL: transactions and migrations")
struct PostgresDatabaseTests {
    static let enabled = Engine.postgresLocation != nil || Engine.inCI

    /// Many read-modify-writes of one row at once: SERIALIZABLE aborts all but one of each round,
    /// so some must run alone (`optimisticAttempts: 0` runs every one alone) — none is lost, none
    /// is refused as busy.
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"), arguments: [0, 1, 6])
    func aHotRowLosesNoUpdateAndRefusesNoWriter(optimisticAttempts: Int) async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false, optimisticAttempts: optimisticAttempts) { database in
            try await database.write { try $0.execute("CREATE TABLE counter (id int PRIMARY KEY, value int NOT NULL)") }
            try await database.write { try $0.execute("INSERT INTO counter VALUES (1, 0)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        try await database.write { transaction in
                            let value = try transaction.value("SELECT value FROM counter WHERE id = 1", as: Int32.self) ?? -1
                            try transaction.execute("UPDATE counter SET value = \(value + 1) WHERE id = 1")
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await database.read { try $0.value("SELECT value FROM counter WHERE id = 1", as: Int32.self) } == 40)
            let statistics = database.statistics
            #expect(statistics.transactions == 44, "the schema, the table, its row, 40 updates and the read")
            if optimisticAttempts == 0 { #expect(statistics.alone == 43 && statistics.retries == 0) }
        }
    }

    /// What a transfer's transaction relies on (`perform(serializingOn:)`, `READ COMMITTED`), from two
    /// server processes' pools at once, beside `SERIALIZABLE` writers of the same row: a count kept
    /// only under a key (read without a lock) loses no update, nor does a row read `FOR UPDATE` that
    /// the serializable writers change too — and the keyed writers are never aborted and run again.
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func writersSerializedOnAKeyLoseNoUpdateAndAreNeverRunAgain() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false) { first in
            let schema = try #require(try await first.read { try $0.value("SELECT current_schema()", as: String.self) })
            let quiet = Logger(label: "moa.tests.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
            let second = PostgresAppDatabase(location: location, logger: quiet, maximumConnections: 4, schema: schema)
            let pool = Task { await second.run() }
            defer { pool.cancel() }
            try await first.write { try $0.execute("CREATE TABLE counter (id int PRIMARY KEY, value int NOT NULL)") }
            try await first.write { try $0.execute("INSERT INTO counter VALUES (1, 0), (2, 0)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<40 {
                    let database = n.isMultiple(of: 2) ? first : second
                    group.addTask {
                        try await database.perform(serializingOn: ["counter"]) { token in
                            let transaction = try PostgresTransaction.open(token)
                            let keyed = try transaction.value("SELECT value FROM counter WHERE id = 2", as: Int32.self) ?? -1
                            let locked = try transaction.value("SELECT value FROM counter WHERE id = 1 FOR UPDATE", as: Int32.self) ?? -1
                            try transaction.execute("UPDATE counter SET value = \(keyed + 1) WHERE id = 2")
                            try transaction.execute("UPDATE counter SET value = \(locked + 1) WHERE id = 1")
                        }
                    }
                }
                for _ in 0..<10 {
                    group.addTask {
                        try await first.write { transaction in
                            let value = try transaction.value("SELECT value FROM counter WHERE id = 1", as: Int32.self) ?? -1
                            try transaction.execute("UPDATE counter SET value = \(value + 1) WHERE id = 1")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let values = try await first.read { try $0.rows("SELECT value FROM counter ORDER BY id").map { try $0.decode(Int32.self) } }
            #expect(values == [50, 40])
            #expect(second.statistics.retries == 0 && second.statistics.transactions == 20)
        }
    }

    /// A lock not granted within `lock_timeout` (10 s in moa-server) is a 503 "busy" at once: run
    /// again, the transaction would wait as long once more, up to ``PostgresAppDatabase/maximumAttempts``
    /// times (a request held for minutes). Here the timeout is 50 ms and the row is held until the
    /// waiter is answered: before the fix the waiter was run again and again (and, the holder
    /// letting go after 10 s, would have succeeded).
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func aLockWaitPastItsTimeoutIsRefusedAsBusyAtOnce() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false) { database in
            try await database.write { try $0.execute("CREATE TABLE held (id int PRIMARY KEY, value int NOT NULL)") }
            try await database.write { try $0.execute("INSERT INTO held VALUES (1, 0)") }
            // The holder keeps the row until the waiter is done (or 10 s, a bound should the test fail).
            let (held, signal) = AsyncStream.makeStream(of: Void.self)
            let release = DispatchSemaphore(value: 0)
            async let holder: Void = database.perform(serializingOn: ["holder"]) { token in
                defer { signal.finish() }
                let transaction = try PostgresTransaction.open(token)
                _ = try transaction.value("SELECT value FROM held WHERE id = 1 FOR UPDATE", as: Int32.self)
                signal.yield()
                _ = release.wait(timeout: .now() + 10)
            }
            var heldYet = held.makeAsyncIterator()
            _ = await heldYet.next()
            let before = database.statistics.retries
            await #expect(throws: DatabaseUnavailable.busy) {
                try await database.perform(serializingOn: ["waiter"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    try transaction.execute("SET LOCAL lock_timeout = '50ms'")
                    try transaction.execute("UPDATE held SET value = value + 1 WHERE id = 1")
                }
            }
            #expect(database.statistics.retries == before)
            release.signal()
            try await holder
            let value = try await database.read { try $0.value("SELECT value FROM held WHERE id = 1", as: Int32.self) }
            #expect(value == 0)
        }
    }

    /// A single-statement read (an account looked up by number, on every transfer whose source is
    /// not cached yet) sends its statement alone, in the server's default transaction (`READ
    /// COMMITTED`), where `read` first sends a `BEGIN` that asks for `REPEATABLE READ` (and a `COMMIT`
    /// after): two round trips fewer. A second statement would see another snapshot, and a write
    /// would commit on its own: both are refused before they are sent, even when `work` swallows the error.
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func aSingleStatementReadSendsNoBeginAndRefusesASecondStatement() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false) { database in
            let alone = try await database.readOne { try $0.value("SELECT current_setting('transaction_isolation')", as: String.self) }
            #expect(alone == "read committed")
            let afterBegin = try await database.read { try $0.value("SELECT current_setting('transaction_isolation')", as: String.self) }
            #expect(afterBegin == "repeatable read")
            try await database.write { try $0.execute("CREATE TABLE seen (n int NOT NULL)") }
            await #expect(throws: PostgresFailure.notOneRead) {
                try await database.readOne { try $0.execute("INSERT INTO seen VALUES (1)") }
            }
            await #expect(throws: PostgresFailure.notOneRead) {
                try await database.readOne { transaction in
                    _ = try transaction.value("SELECT 1", as: Int32.self)
                    try transaction.execute("INSERT INTO seen VALUES (2)")
                }
            }
            await #expect(throws: PostgresFailure.notOneRead) {
                try await database.readOne { transaction -> Int32? in
                    _ = try transaction.value("SELECT 1", as: Int32.self)
                    return try? transaction.value("SELECT 2", as: Int32.self)
                }
            }
            #expect(try await database.readOne { try $0.value("SELECT count(*)::int FROM seen", as: Int32.self) } == 0)
        }
    }

    /// A statement past its `statement_timeout` (57014) fails its transaction on a connection that
    /// lives on: the transaction is rolled back before the pool lends the connection again. Found by
    /// a reviewer: the timeout counted as a lost connection, no `ROLLBACK` was sent, and the next
    /// transactions leased that connection were refused (25P02, "current transaction is aborted")
    /// until PostgreSQL's idle-in-transaction timeout closed it a minute later.
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func aStatementTimeoutIsRolledBackAndItsConnectionServesTheNextTransactions() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false) { database in
            // A read, and a transfer's keyed transaction: neither holds the writers' session lock,
            // whose release on a failed connection closes it.
            await #expect(throws: DatabaseUnavailable.self) {
                try await database.read { transaction in
                    try transaction.execute("SET LOCAL statement_timeout = '20ms'")
                    try transaction.execute("SELECT pg_sleep(1)")
                }
            }
            await #expect(throws: DatabaseUnavailable.self) {
                try await database.perform(serializingOn: ["slow"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    try transaction.execute("SET LOCAL statement_timeout = '20ms'")
                    try transaction.execute("SELECT pg_sleep(1)")
                }
            }
            for _ in 0..<8 {
                let one = try await database.read { try $0.value("SELECT 1", as: Int32.self) }
                #expect(one == 1)
            }
        }
    }

    /// Statements sent without waiting (`send(_:then:)`: a transfer group's postings, transfers
    /// and notices, queued on the connection back to back) commit only if every one of them
    /// succeeded and every check passed — even when `work` returns normally, or swallows the
    /// flush's error (a reviewer found a swallowed check's refusal committed) — and a
    /// statement waited for behind a failed one throws that failure, not PostgreSQL's "current
    /// transaction is aborted".
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func statementsSentAheadCommitOnlyIfEveryOneAndEveryCheckSucceeded() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false) { database in
            try await database.write { try $0.execute("CREATE TABLE sent (n int PRIMARY KEY)") }
            let count: @Sendable () async throws -> Int32? = {
                try await database.read { try $0.value("SELECT count(*)::int FROM sent", as: Int32.self) }
            }
            // Sent in a row, answered at the end: both written.
            try await database.perform(serializingOn: ["sent"]) { token in
                let transaction = try PostgresTransaction.open(token)
                try transaction.send("INSERT INTO sent VALUES (1)")
                try transaction.send("INSERT INTO sent VALUES (2)") { rows in #expect(rows.isEmpty) }
            }
            #expect(try await count() == 2)

            // One of three fails: none is written, though work returned normally.
            await #expect(throws: PostgresFailure.uniqueViolation(constraint: "sent_pkey")) {
                try await database.perform(serializingOn: ["sent"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    try transaction.send("INSERT INTO sent VALUES (3)")
                    try transaction.send("INSERT INTO sent VALUES (1)")
                    try transaction.send("INSERT INTO sent VALUES (4)")
                }
            }
            // … nor when work swallows the flush's error.
            await #expect(throws: PostgresFailure.uniqueViolation(constraint: "sent_pkey")) {
                try await database.perform(serializingOn: ["sent"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    try transaction.send("INSERT INTO sent VALUES (5)")
                    try transaction.send("INSERT INTO sent VALUES (2)")
                    try? transaction.flush()
                }
            }
            // The next statement waited for throws the first failure.
            let seen = Locked<(any Error)?>(nil)
            await #expect(throws: PostgresFailure.uniqueViolation(constraint: "sent_pkey")) {
                try await database.perform(serializingOn: ["sent"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    try transaction.send("INSERT INTO sent VALUES (1)")
                    do { _ = try transaction.value("SELECT 1", as: Int32.self) } catch { seen.withLock { $0 = error } }
                }
            }
            #expect(seen.withLock { $0 as? PostgresFailure } == .uniqueViolation(constraint: "sent_pkey"))
            #expect(try await count() == 2)

            // A check that refuses: nothing written, its error is the transaction's.
            struct Refused: Error, Equatable {}
            await #expect(throws: Refused()) {
                try await database.perform(serializingOn: ["sent"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    try transaction.send("INSERT INTO sent VALUES (6)") { _ in throw Refused() }
                    try transaction.send("INSERT INTO sent VALUES (7)")
                }
            }
            #expect(try await count() == 2)

            // … nor when work swallows the check's refusal.
            await #expect(throws: Refused()) {
                try await database.perform(serializingOn: ["sent"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    try transaction.send("INSERT INTO sent VALUES (6)") { _ in throw Refused() }
                    try? transaction.flush()
                    try transaction.send("INSERT INTO sent VALUES (7)")
                }
            }
            #expect(try await count() == 2)

            // A single-statement read sends nothing ahead: it would wait for no answer.
            await #expect(throws: PostgresFailure.notOneRead) {
                try await database.readOne { try $0.send("SELECT 1") }
            }

            // A check sees its statement's rows, and may run statements of its own.
            let checked = Locked<[Int32]>([])
            try await database.perform(serializingOn: ["sent"]) { token in
                let transaction = try PostgresTransaction.open(token)
                try transaction.send("INSERT INTO sent VALUES (8) RETURNING n") { rows in
                    let mine = try rows.map { try $0.decode(Int32.self) }
                    let all = try transaction.value("SELECT count(*)::int FROM sent", as: Int32.self) ?? -1
                    checked.withLock { $0 = mine + [all] }
                }
                try transaction.send("INSERT INTO sent VALUES (9)")
            }
            #expect(checked.withLock { $0 } == [8, 4], "its own row, and a count that sees the statement sent after it")
            #expect(try await count() == 4)
        }
    }

    /// PostgreSQL ends the session of a transaction in flight (a shutdown, `pg_terminate_backend`):
    /// the transaction is refused as unreachable (503, retryable) within moments, and the pool
    /// serves the next one — never a request that waits for ever. Before, the unit of work then
    /// wrote `ROLLBACK` (a keyed transaction whose lock wait failed) or the writers lock's release
    /// (a serializable one) to the dead connection; PostgresNIO drops a statement written to a
    /// connection already closed, its answer never came, and the transaction — with every transfer
    /// queued behind it — waited for ever (CI's fault run: no answer in 120 s).
    @Test(
        .enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"),
        arguments: ["waiting for a key's lock", "running a statement"])
    func aSessionPostgreSQLEndsMidTransactionIsRefusedAtOnceNotWaitedForForEver(while moment: String) async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false) { database in
            try await database.write { try $0.execute("CREATE TABLE survivors (n int PRIMARY KEY)") }
            // Whether the dead connection's handlers are gone by the time the next statement is
            // written is a race: eight rounds, so that a regression shows (each hung one in three before).
            for round in Int32(1)...8 {
                // Every pooled connection has run the key locks (a statement new to its connection
                // that fails closes the connection instead of writing ROLLBACK to it).
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<4 {
                        group.addTask {
                            try await database.perform(serializingOn: ["warm\(index)"]) { _ in
                                Thread.sleep(forTimeInterval: 0.1)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                guard try await Self.endSession(in: database, while: moment, round: round) else { break }
            }
        }
    }

    /// One round: a transaction whose session PostgreSQL ends `moment`; whether it was refused in time.
    private static func endSession(in database: PostgresAppDatabase, while moment: String, round: Int32) async throws -> Bool {
        let holder = Locked<Int32?>(nil)
        let release = DispatchSemaphore(value: 0)
        // A: holds the key's lock until told to let go (on its database thread, at most 30 s).
        let first = Task {
            try await database.perform(serializingOn: ["hot"]) { token in
                let transaction = try PostgresTransaction.open(token)
                holder.withLock { $0 = try? transaction.value("SELECT pg_backend_pid()", as: Int32.self) }
                _ = release.wait(timeout: .now() + 30)
            }
        }
        defer { release.signal() }
        let held = ContinuousClock.now + .seconds(10)
        while holder.withLock({ $0 }) == nil, ContinuousClock.now < held { try await Task.sleep(for: .milliseconds(10)) }
        let holding = try #require(holder.withLock { $0 }, "the first transaction never held the key")
        // The victim: a keyed transaction behind A's lock, or a serializable one in a long statement.
        let victim: Task<Void, any Error>
        let marker = "victim_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        if moment == "waiting for a key's lock" {
            victim = Task {
                try await database.perform(serializingOn: ["hot"]) {
                    try PostgresTransaction.open($0).execute("INSERT INTO survivors VALUES (\(-round))")
                }
            }
        } else {
            victim = Task { try await database.write { try $0.execute("SELECT pg_sleep(20) AS \(unescaped: marker)") } }
        }
        // Its backend, once it waits (behind A's lock, or in pg_sleep), is ended by PostgreSQL.
        var ended: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(10)
        let pattern = "%" + marker + "%"
        while ended == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            ended =
                try await database.readOne { transaction in
                    moment == "waiting for a key's lock"
                        ? try transaction.value(
                            """
                            SELECT count(pg_terminate_backend(pid))::int FROM pg_stat_activity
                            WHERE wait_event_type = 'Lock' AND \(holding) = ANY(pg_blocking_pids(pid))
                            """, as: Int32.self)
                        : try transaction.value(
                            """
                            SELECT count(pg_terminate_backend(pid))::int FROM pg_stat_activity
                            WHERE query LIKE \(pattern) AND pid <> pg_backend_pid()
                            """, as: Int32.self)
                } ?? 0
        }
        #expect(ended == 1, "round \(round): no backend was found \(moment)")
        let outcome = await outcome(of: victim, within: .seconds(20))
        switch outcome {
        case .none: Issue.record("round \(round): a transaction whose session PostgreSQL ended got no answer in 20 s")
        case .success?: Issue.record("round \(round): a transaction whose session PostgreSQL ended committed")
        case .failure(let error)?:
            guard case .unreachable? = error as? DatabaseUnavailable else {
                Issue.record("round \(round): refused as \(error), not as unreachable")
                return false
            }
        }
        release.signal()
        _ = await Self.outcome(of: first, within: .seconds(20))
        // The pool serves the next transaction.
        try await database.perform(serializingOn: ["hot"]) {
            try PostgresTransaction.open($0).execute("INSERT INTO survivors VALUES (\(round))")
        }
        let survivors = try await database.read { try $0.value("SELECT count(*)::int FROM survivors", as: Int32.self) }
        #expect(survivors == round, "round \(round): only the transactions after each ended session are written")
        if case .failure? = outcome { return true }
        return false
    }

    /// How `task` ended, if it did within `limit` (`nil`: it still runs — and is left running).
    static func outcome(of task: Task<Void, any Error>, within limit: Duration) async -> Result<Void, any Error>? {
        let ended = Locked<Result<Void, any Error>?>(nil)
        Task {
            do {
                try await task.value
                ended.withLock { $0 = .success(()) }
            } catch {
                ended.withLock { $0 = .failure(error) }
            }
        }
        let deadline = ContinuousClock.now + limit
        while ended.withLock({ $0 }) == nil, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return ended.withLock { $0 }
    }

    /// PostgreSQL keeps the first 63 bytes of a prepared statement's name; PostgresNIO names one
    /// after its type, and two statements of one store (`…PostgresTransferStore.(unknown context
    /// at $…).TransfersByKey` and `….NewTransfers`) were refused as one ("already exists").
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func preparedStatementsWhoseTypeNamesBeginAlikeAreTwoStatements() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false, connections: 1) { database in
            let answers = try await database.write { token in
                let transaction = try PostgresTransaction.open(token)
                return try [
                    transaction.rows(AStatementNamespaceWhoseNameIsLongerThanTheSixtyThreeBytesPostgreSQLKeeps.One(n: 1)),
                    transaction.rows(AStatementNamespaceWhoseNameIsLongerThanTheSixtyThreeBytesPostgreSQLKeeps.Two(n: 1)),
                    transaction.rows(AStatementNamespaceWhoseNameIsLongerThanTheSixtyThreeBytesPostgreSQLKeeps.One(n: 5)),
                ].map { try $0.map { try $0.decode(String.self) } }
            }
            #expect(answers == [["one 1"], ["two 1"], ["one 5"]])
        }
    }

    /// A statement sent behind one that failed is refused ("current transaction is aborted"); when
    /// it is a prepared statement used there for the first time on its connection, PostgresNIO keeps
    /// its preparation as failed and refuses it on that connection ever after. So a cold statement
    /// is sent only once what went before it is answered: the failure before it is the
    /// transaction's, and the next transaction (on the pool's only connection here) runs it.
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func aPreparedStatementRefusedBehindAFailedOneRunsInTheNextTransaction() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false, connections: 1) { database in
            try await database.write { try $0.execute("CREATE TABLE taken (n int PRIMARY KEY)") }
            try await database.write { try $0.execute("INSERT INTO taken VALUES (1)") }
            await #expect(throws: PostgresFailure.uniqueViolation(constraint: "taken_pkey")) {
                try await database.perform(serializingOn: ["taken"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    try transaction.send("INSERT INTO taken VALUES (1)")
                    try transaction.send(AStatementNamespaceWhoseNameIsLongerThanTheSixtyThreeBytesPostgreSQLKeeps.Two(n: 2))
                }
            }
            for n in 3...5 {
                let answer = try await database.perform(serializingOn: ["taken"]) { token in
                    try PostgresTransaction.open(token).rows(
                        AStatementNamespaceWhoseNameIsLongerThanTheSixtyThreeBytesPostgreSQLKeeps.Two(n: n)
                    )
                    .map { try $0.decode(String.self) }
                }
                #expect(answer == ["two \(n)"])
            }
        }
    }

    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func anAuditWritesNothingAndRefusesADatabaseNotSetUp() async throws {
        let location = try #require(Engine.postgresLocation)
        let known = PostgresStores.migrations.flatMap { set in set.steps.map { "\(set.feature)/\($0.name)" } }
        try await withPostgres(location, migrated: false) { database in
            await #expect(throws: MigrationRefused.notSetUp(missing: known)) {
                try await database.migrate(PostgresStores.migrations, applying: false)
            }
            let created = try await database.read { try $0.value("SELECT to_regclass('moa_migrations') IS NOT NULL", as: Bool.self) }
            #expect(created == false, "the audit created the migrations table")

            try await database.migrate(PostgresStores.migrations)
            try await database.migrate(PostgresStores.migrations, applying: false)
            let applied = try await database.appliedMigrations()
            #expect(applied.count == known.count && Set(applied) == Set(known))
        }
    }
}

extension PostgresDatabaseTests {
    /// A prepared statement whose first preparation on a connection failed (here: its table did not
    /// exist yet; in production a migration elsewhere holding its table past `lock_timeout`) would
    /// be refused on that connection for ever: the connection is closed instead.
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func aStatementWhosePreparationFailedRunsOnceItCan() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false, connections: 1) { database in
            await #expect(throws: PostgresFailure.self) {
                try await database.write { try PostgresTransaction.open($0).rows(InsertInOrder(n: 1)) }
            }
            try await database.write { try $0.execute("CREATE TABLE ordered (id serial PRIMARY KEY, n int)") }
            let rows = try await database.write { try PostgresTransaction.open($0).rows(InsertInOrder(n: 1)) }
            #expect(rows.isEmpty)
        }
    }

    /// PostgresNIO runs a prepared statement new to its connection only once PostgreSQL answered its
    /// preparation, behind whatever was sent meanwhile: sent between two others, it ran last.
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func statementsSentAheadRunInTheOrderSentWhenOneIsNewToItsConnection() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false, connections: 1) { database in
            try await database.write { try $0.execute("CREATE TABLE ordered (id serial PRIMARY KEY, n int)") }
            try await database.perform(serializingOn: ["ordered"]) { token in
                let transaction = try PostgresTransaction.open(token)
                try transaction.send("INSERT INTO ordered (n) VALUES (1)")
                try transaction.send(InsertInOrder(n: 2))
                try transaction.send("INSERT INTO ordered (n) VALUES (3)")
            }
            let order = try await database.read { try $0.rows("SELECT n FROM ordered ORDER BY id").map { try $0.decode(Int32.self) } }
            #expect(order == [1, 2, 3])
        }
    }
}

extension PostgresDatabaseTests {
    /// Reads sent ahead (a group of transfers sends its three at once and waits once): each is
    /// answered with its own rows, sees what was sent before it, and a statement that failed before
    /// one is what its answer throws — and the transaction's failure even if `work` swallows it.
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func readsSentAheadAreEachAnsweredInOrderAndRefusedAfterAFailure() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false, connections: 1) { database in
            try await database.write { try $0.execute("CREATE TABLE ordered (id serial PRIMARY KEY, n int UNIQUE)") }
            let answers = try await database.perform(serializingOn: ["ordered"]) { token in
                let transaction = try PostgresTransaction.open(token)
                try transaction.send("INSERT INTO ordered (n) VALUES (1), (2)")
                let before = try transaction.pending(CountOrdered(atLeast: 1))
                let one = try transaction.pending(AStatementNamespaceWhoseNameIsLongerThanTheSixtyThreeBytesPostgreSQLKeeps.One(n: 7))
                try transaction.send(InsertInOrder(n: 3))
                let after = try transaction.pending(CountOrdered(atLeast: 1))
                // Asked for out of order, after a statement that waited for all of them.
                let waited = try transaction.value("SELECT count(*)::int FROM ordered", as: Int32.self)
                return try [
                    after.value().map { "\(try $0.decode(Int32.self))" }, one.value().map { try $0.decode(String.self) },
                    before.value().map { "\(try $0.decode(Int32.self))" }, [waited.map { "\($0)" } ?? "none"],
                ]
            }
            #expect(answers == [["3"], ["one 7"], ["2"], ["3"]])

            let seen = Locked<(any Error)?>(nil)
            await #expect(throws: PostgresFailure.uniqueViolation(constraint: "ordered_n_key")) {
                try await database.perform(serializingOn: ["ordered"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    try transaction.send("INSERT INTO ordered (n) VALUES (4)")
                    try transaction.send(InsertInOrder(n: 1))
                    let count = try transaction.pending(CountOrdered(atLeast: 1))
                    do { _ = try count.value() } catch { seen.withLock { $0 = error } }
                }
            }
            #expect(seen.withLock { $0 as? PostgresFailure } == .uniqueViolation(constraint: "ordered_n_key"))
            let count = try await database.read { try $0.value("SELECT count(*)::int FROM ordered", as: Int32.self) }
            #expect(count == 3, "nothing of the failed transaction is written")
        }
    }

    /// The key locks are on the wire before `work` starts, and `work`'s first reads may be behind
    /// them: a key held elsewhere past `lock_timeout` (10 s) refuses the transaction as busy — at
    /// once, not run again, nothing of it written, whatever `work` sent behind the locks — and the
    /// next transactions on that key run (the waiter's connection, on which the locks' statement
    /// was new, is not handed out broken).
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func aKeyHeldPastTheLockTimeoutRefusesTheWaiterAsBusyAndItsConnectionServesNoMore() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false, connections: 2) { database in
            try await database.write { try $0.execute("CREATE TABLE keyed (n int PRIMARY KEY)") }
            let (held, signal) = AsyncStream.makeStream(of: Void.self)
            let release = DispatchSemaphore(value: 0)
            async let holder: Void = database.perform(serializingOn: ["hot"]) { _ in
                signal.yield()
                _ = release.wait(timeout: .now() + 30)
            }
            var heldYet = held.makeAsyncIterator()
            _ = await heldYet.next()
            let before = database.statistics.retries
            await #expect(throws: DatabaseUnavailable.busy) {
                try await database.perform(serializingOn: ["hot"]) { token in
                    let transaction = try PostgresTransaction.open(token)
                    let count = try transaction.pending(CountKeyed())
                    _ = try count.value()
                    try transaction.execute("INSERT INTO keyed VALUES (1)")
                }
            }
            #expect(database.statistics.retries == before)
            release.signal()
            try await holder
            for n in Int32(2)...5 {
                try await database.perform(serializingOn: ["hot"]) {
                    try PostgresTransaction.open($0).execute("INSERT INTO keyed VALUES (\(n))")
                }
            }
            let kept = try await database.read { try $0.rows("SELECT n FROM keyed ORDER BY n").map { try $0.decode(Int32.self) } }
            #expect(kept == [2, 3, 4, 5])
        }
    }

    /// A pooled connection PostgreSQL ended while it was idle (a restart, an administrator) is
    /// replaced unseen: the next transactions — keyed, serializable and read alike — run on another,
    /// whether the pool noticed first or the transaction's `BEGIN` found it closed (then tried again
    /// on another connection; which comes first is a race this test does not steer).
    @Test(.enabled(if: enabled, "PostgreSQL not configured (MOA_TEST_POSTGRES_URL)"))
    func aPooledConnectionPostgreSQLEndedWhileIdleIsReplacedUnseen() async throws {
        let location = try #require(Engine.postgresLocation)
        try await withPostgres(location, migrated: false, connections: 1) { database in
            try await withPostgres(location, migrated: false, connections: 1) { other in
                try await database.write { try $0.execute("CREATE TABLE kept (n int PRIMARY KEY)") }
                for round in Int32(1)...6 {
                    let pid = try #require(try await database.readOne { try $0.value("SELECT pg_backend_pid()", as: Int32.self) })
                    let ended = try await other.readOne { try $0.value("SELECT pg_terminate_backend(\(pid))", as: Bool.self) }
                    #expect(ended == true)
                    // PostgreSQL has ended it once no backend of that pid is left.
                    while try await other.readOne({
                        try $0.value("SELECT count(*)::int FROM pg_stat_activity WHERE pid = \(pid)", as: Int32.self)
                    }) != 0 { try await Task.sleep(for: .milliseconds(5)) }
                    switch round % 3 {
                    case 0:
                        try await database.perform(serializingOn: ["kept"]) {
                            try PostgresTransaction.open($0).execute("INSERT INTO kept VALUES (\(round))")
                        }
                    case 1: try await database.write { try $0.execute("INSERT INTO kept VALUES (\(round))") }
                    default: _ = try await database.read { try $0.value("SELECT count(*)::int FROM kept", as: Int32.self) }
                    }
                }
                let kept = try await database.read { try $0.rows("SELECT n FROM kept ORDER BY n").map { try $0.decode(Int32.self) } }
                #expect(kept == [1, 3, 4, 6])
            }
        }
    }
}

/// How many rows `keyed` has.
struct CountKeyed: PreparedSQL {
    static let sql = "SELECT count(*)::int FROM keyed WHERE n > $1::int"

    func makeBindings() throws -> PostgresBindings { .one(Int32(0)) }
}

/// How many rows of `ordered` have `n` at least `atLeast`.
struct CountOrdered: PreparedSQL {
    static let sql = "SELECT count(*)::int FROM ordered WHERE n >= $1::int"
    let atLeast: Int

    func makeBindings() throws -> PostgresBindings { .one(Int32(atLeast)) }
}

/// One row into `ordered`.
struct InsertInOrder: PreparedSQL {
    static let sql = "INSERT INTO ordered (n) VALUES ($1::int)"
    let n: Int

    func makeBindings() throws -> PostgresBindings { .one(Int32(n)) }
}

/// Two prepared statements whose type names share their first 63 bytes.
enum AStatementNamespaceWhoseNameIsLongerThanTheSixtyThreeBytesPostgreSQLKeeps {
    struct One: PreparedSQL {
        static let sql = "SELECT 'one ' || $1::int"
        let n: Int

        func makeBindings() throws -> PostgresBindings { .one(Int32(n)) }
    }

    struct Two: PreparedSQL {
        static let sql = "SELECT 'two ' || $1::int"
        let n: Int

        func makeBindings() throws -> PostgresBindings { .one(Int32(n)) }
    }
}
