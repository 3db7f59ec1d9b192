import Dispatch
import Foundation
import Logging
import Persistence
import PostgresNIO
import SharedKit
import Synchronization

/// The server's PostgreSQL database: a pool of connections (PostgresNIO's `PostgresClient`), the
/// features' migrations, and the ``UnitOfWork`` the Domain writes in.
///
/// **The seam.** The Domain's unit of work is synchronous (`work` reads and writes through
/// synchronous store methods) and PostgresNIO is asynchronous. Each transaction therefore runs its
/// `work` on a thread of its own — a ``ThreadPoolExecutor`` with one thread per connection, never a
/// NIO event loop nor Swift's cooperative pool — and each statement waits there for PostgresNIO's
/// answer. At most as many threads wait as there are leased connections (``maximumConnections``): the
/// connection is leased, and `BEGIN` sent, before `work` is handed a thread.
///
/// **Isolation.** A transaction that names what it serializes on (``perform(serializingOn:_:)``:
/// a group of transfers names its senders) runs at `READ COMMITTED`: one statement right after
/// `BEGIN` takes the schema's writers lock shared and the keys' transaction advisory locks
/// (``keyLocks(_:)``), and its stores lock the ledger rows they read (`FOR UPDATE`, in id order):
/// it waits for the transactions it conflicts with instead of being aborted by them, and runs again
/// only after a deadlock PostgreSQL broke (a lock wait past `lock_timeout` is refused as busy at once:
/// it has waited 10 s already, and waiting again would hold the request for minutes). Every other writing
/// transaction is `SERIALIZABLE`: PostgreSQL then guarantees that the committed serializable
/// transactions had the effect of some serial order, so what each checks still holds when it
/// commits, whichever other server process wrote in between (beside a keyed transaction too, as
/// long as what it checks it also writes or locks: see docs/architecture.md). A transaction
/// PostgreSQL aborts to keep that promise (serialization failure 40001, deadlock 40P01) is rolled
/// back and run again, from the start, with a growing random pause. Optimism alone can starve a
/// transaction on hot rows (ten accounts shared by many clients: it loses to a newer one every
/// time), so after ``optimisticAttempts`` conflicts it runs **alone**: every serializable
/// transaction first takes a shared advisory lock of the schema (`pg_advisory_lock_shared`, on its
/// connection, before `BEGIN`: ``WritersLock`` says why; a keyed one takes it inside, which at
/// `READ COMMITTED` is as safe), and a transaction that lost that often takes it exclusively, in
/// `READ COMMITTED` — it waits for the writers in flight, new ones wait for it, and with no writer
/// beside it nothing can abort it. A client sees a conflict only if ``maximumAttempts`` all failed,
/// or a lock was not granted within `lock_timeout`, as a retryable 503 ("busy"). Reads that span several
/// statements run in `REPEATABLE READ READ ONLY`: one snapshot, never aborted, and take no lock.
public final class PostgresAppDatabase: UnitOfWork, Sendable {
    public static let maximumAttempts = 40
    /// Conflicts after which a writing transaction runs alone (6 unless the tests say otherwise).
    public let optimisticAttempts: Int
    public let location: PostgresLocation
    public let maximumConnections: Int
    /// The pool in use: replaced by a fresh one when the database answers again after it was away
    /// (PostgresNIO's pool backs off up to a minute between attempts; a fresh one connects at once).
    var client: PostgresClient { pool.withLock { $0.client } }
    private let pool: Locked<Pool>
    private let clientConfiguration: PostgresClient.Configuration
    let logger: Logger
    /// The threads `work` runs on, one per connection (a transaction holds its connection first).
    let threads: ThreadPoolExecutor
    /// One per connection: a transaction waits here, as long as it takes, for its turn; then the
    /// pool has a connection for it at once — unless the server is away (``leaseTimeout``).
    private let turns: Permits
    private let attempts = Locked<(transactions: Int, retries: Int, alone: Int)>((0, 0, 0))
    private let inUse = Atomic<Int>(0)

    /// A pool for `location` (nothing is connected until the first transaction; ``run()`` must run
    /// meanwhile). `schema`: the tests' throwaway schema, first on every connection's search path.
    public init(
        location: PostgresLocation, logger: Logger, maximumConnections: Int = 16, schema: String? = nil, optimisticAttempts: Int = 6
    ) {
        self.optimisticAttempts = optimisticAttempts
        var configuration = location.configuration
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        // No statement, lock wait or idle transaction holds a connection (and a thread) for ever.
        configuration.options.additionalStartupParameters =
            [("statement_timeout", "30s"), ("lock_timeout", "10s"), ("idle_in_transaction_session_timeout", "60s")]
            + (schema.map { [("search_path", $0)] } ?? [])
        threads = ThreadPoolExecutor(label: "moa.postgres", count: maximumConnections)
        turns = Permits(maximumConnections)
        self.location = location
        self.maximumConnections = maximumConnections
        self.logger = logger
        clientConfiguration = configuration
        pool = Locked(Pool(client: PostgresClient(configuration: configuration, backgroundLogger: logger)))
    }

    deinit {
        threads.shutdown()
    }

    /// The pool in use, the task that runs it, and whether the database is known to be away.
    private struct Pool: Sendable {
        var client: PostgresClient
        var runner: Task<Void, Never>?
        /// Set when a connection could not be made and the server did not take a TCP connection
        /// either: transactions are refused at once (503) until ``run()`` sees it answer again.
        var away = false
    }

    /// Whether the database is known to be away (transactions are refused at once meanwhile).
    public var isAway: Bool { pool.withLock { $0.away } }

    /// Runs the pool — and while the database is away, looks for it every 250 ms and, once it takes
    /// connections again, runs a fresh pool in place of the one that backs off; returns when the
    /// surrounding task is cancelled, once the pool in use has closed. Transactions wait until it runs.
    public func run() async {
        pool.withLock { pool in
            let client = pool.client
            pool.runner = Task { await client.run() }
        }
        await withTaskCancellationHandler {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                if isAway, await probe() { renew() }
            }
        } onCancel: {
            pool.withLock { $0.runner }?.cancel()
        }
        await pool.withLock { $0.runner }?.value
    }

    /// A fresh pool in place of the current one (whose task is cancelled: its connections close).
    private func renew() {
        let fresh = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
        let runner = Task { await fresh.run() }
        let old = pool.withLock { pool in
            defer { (pool.client, pool.runner, pool.away) = (fresh, runner, false) }
            return pool.runner
        }
        old?.cancel()
        logger.info("PostgreSQL answers again at \(location): a fresh connection pool is in use.")
    }

    /// Marks the database away (refusing transactions at once), once.
    private func markAway(_ reason: String) {
        let first = pool.withLock { pool in
            defer { pool.away = true }
            return !pool.away
        }
        if first { logger.error("PostgreSQL at \(location) does not answer (\(reason)); requests are refused until it does.") }
    }

    /// Whether the database's host takes a TCP connection on its port within a second.
    func probe() async -> Bool {
        let (host, port) = (location.host, location.port)
        let future = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connectTimeout(.seconds(1)).connect(
            host: host, port: port)
        do {
            let channel = try await future.get()
            try? await channel.close()
            return true
        } catch {
            return false
        }
    }

    /// `body` with a connection of the pool, refused within about a second when the database is away
    /// (its host refuses TCP), else within ``leaseTimeout``.
    private func withConnectionFailingFast<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws
        -> T
    {
        if isAway { throw PostgresFailure.unreachable("the database is away") }
        let client = client
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await client.withConnection(body) }
            group.addTask {
                try await Task.sleep(for: Self.probeAfter)
                if await self.probe() == false {
                    self.markAway("no TCP connection")
                    return nil
                }
                try await Task.sleep(for: Self.leaseTimeout - Self.probeAfter)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw PostgresFailure.unreachable("no connection within \(isAway ? Self.probeAfter : Self.leaseTimeout)")
            }
            return value
        }
    }

    /// How long a connection may take before the database's host is asked whether it is there at all.
    static let probeAfter: Duration = .milliseconds(500)

    /// How many transactions ran, how many attempts were run again after a conflict, and how many
    /// attempts ran alone.
    public var statistics: (transactions: Int, retries: Int, alone: Int) { attempts.withLock { $0 } }

    /// Transactions holding their turn (a connection, leased or being leased) now.
    public var connectionsInUse: Int { inUse.load(ordering: .relaxed) }

    // MARK: Transactions

    public func perform<T: Sendable>(_ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        try await write { try work($0) }
    }

    /// `work` at `READ COMMITTED`, serialized with every transaction naming one of `keys` by
    /// transaction-scoped advisory locks taken in one statement right after `BEGIN` (``keyLocks(_:)``):
    /// nothing to abort and retry on a hot row — the stores' ledger reads lock the rows they will
    /// change (`FOR UPDATE`, in id order), and what no row covers is decided under the keys. Run
    /// again only after a deadlock PostgreSQL broke.
    public func perform<T: Sendable>(serializingOn keys: [String], _ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        try await transaction(.locking(keys)) { try work($0) }
    }

    /// `work` in a `SERIALIZABLE` transaction, run again after a serialization failure or a deadlock
    /// (after ``optimisticAttempts`` of them, alone).
    public func write<T: Sendable>(_ work: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await transaction(.serializable, work)
    }

    /// `work` in a `REPEATABLE READ READ ONLY` transaction: one consistent snapshot.
    public func read<T: Sendable>(_ work: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await transaction(.reading, work)
    }

    /// A read made of **one** statement, sent without `BEGIN` and `COMMIT`: PostgreSQL runs a lone
    /// statement as its own transaction, on one snapshot, so the pair adds two round trips and no
    /// promise. A second statement in `work`, or one that is not a `SELECT`, is refused as a bug of
    /// ours (``PostgresFailure/notOneRead``) before it is sent: two statements outside a transaction
    /// would each see a different database, and a write would commit on its own.
    /// For hot lookups by key (an account by its number or id).
    public func readOne<T: Sendable>(_ work: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await transaction(.single, work)
    }

    /// How a transaction keeps its promises.
    enum Mode: Sendable {
        /// One statement, no `BEGIN` (``readOne(_:)``).
        case single
        /// `REPEATABLE READ READ ONLY`.
        case reading
        /// `SERIALIZABLE`, retried after a conflict (after ``optimisticAttempts`` of them, alone).
        case serializable
        /// `READ COMMITTED` with the keys' advisory locks (``keyLocks(_:)``).
        case locking([String])
    }

    /// One statement that takes, in a fixed order, the schema's writers lock shared (so that a
    /// writer running alone still runs alone) and then one exclusive transaction lock per key (a
    /// 64-bit hash of the schema and the key; a collision only makes two keys wait for each other),
    /// sorted: two transactions naming the same keys never wait for each other in a cycle. The order
    /// is the inner query's (`ORDER BY` keeps it from being flattened), the locks are the outer
    /// query's (a volatile function is evaluated once per row, as the rows come).
    static func keyLocks(_ keys: [String]) -> KeyLocks {
        KeyLocks(keys: Set(keys).sorted())
    }

    struct KeyLocks: PreparedSQL {
        static let sql = """
            SELECT count((CASE WHEN k.key IS NULL
                THEN pg_advisory_xact_lock_shared(\(writersLock), hashtext(current_schema()))
                ELSE pg_advisory_xact_lock(hashtextextended(current_schema() || '/' || k.key, 0)) END)::text)
            FROM (SELECT NULL::text AS key, 0::bigint AS n
                  UNION ALL SELECT u.key, u.n FROM unnest($1::text[]) WITH ORDINALITY AS u(key, n)
                  ORDER BY n) k
            """
        static let bindingDataTypes: [PostgresDataType] = [.textArray]
        let keys: [String]

        func makeBindings() throws -> PostgresBindings { .one(keys) }
    }

    /// The advisory lock that writers share and a starved writer takes alone: one per schema (the
    /// tests' schemas do not wait for each other), beside the migrations' (`migrationLock`).
    static let writersLock: Int32 = 0x6D6F62

    private func transaction<T: Sendable>(_ mode: Mode, _ work: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        // Known away: refused at once, not after a wait for a pool that backs off (run() looks for it).
        if isAway { throw DatabaseUnavailable.unreachable("PostgreSQL at \(location) does not answer") }
        try await turns.acquire()
        inUse.wrappingAdd(1, ordering: .relaxed)
        defer { inUse.wrappingSubtract(1, ordering: .relaxed) }
        do {
            let value = try await attempts(mode, work)
            await turns.release()
            return value
        } catch {
            await turns.release()
            throw error
        }
    }

    private func attempts<T: Sendable>(_ mode: Mode, _ work: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        var attempt = 1
        var staleConnections = 0
        while true {
            do {
                let value: T
                if case .single = mode {
                    value = try await once(nil, work)
                } else if case .reading = mode {
                    value = try await once("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", work)
                } else if case .locking(let keys) = mode {
                    value = try await once("BEGIN ISOLATION LEVEL READ COMMITTED", locks: Self.keyLocks(keys), work)
                } else if attempt <= optimisticAttempts {
                    value = try await once("BEGIN ISOLATION LEVEL SERIALIZABLE", writers: .shared, work)
                } else {
                    // Alone: the writers in flight finish first, the next ones wait.
                    attempts.withLock { $0.alone += 1 }
                    value = try await once("BEGIN ISOLATION LEVEL READ COMMITTED", writers: .exclusive, work)
                }
                attempts.withLock { $0.transactions += 1 }
                return value
            } catch PostgresFailure.conflict(let state) {
                attempts.withLock { $0.retries += 1 }
                guard attempt < Self.maximumAttempts else {
                    logger.warning("A transaction conflicted \(attempt) times (SQLSTATE \(state)); the request is refused as busy.")
                    throw DatabaseUnavailable.busy
                }
                // At random below 1, 2, 4 … 64 ms ("full jitter"), so that conflicting transactions part ways.
                let ceiling = 1 << min(attempt - 1, 6)
                try await Task.sleep(for: .microseconds(Int.random(in: 50...(ceiling * 1_000))))
                attempt += 1
            } catch PostgresFailure.lockTimeout {
                logger.warning("A lock was not granted within lock_timeout (SQLSTATE 55P03); the request is refused as busy.")
                throw DatabaseUnavailable.busy
            } catch PostgresFailure.staleConnection(let reason) {
                // Connections opened before PostgreSQL restarted fail at once: try the next, a few times.
                staleConnections += 1
                guard staleConnections < 4 else { throw DatabaseUnavailable.unreachable(reason) }
            } catch let failure as PostgresFailure {
                throw failure.asRequestError
            }
        }
    }

    /// How long a transaction waits for a connection before it is refused as unavailable (503, 75):
    /// while PostgreSQL restarts, the pool backs off between attempts to connect, and a request
    /// would otherwise wait for as long as that.
    public static let leaseTimeout: Duration = .seconds(10)

    /// One attempt: a leased connection (within ``leaseTimeout``), BEGIN, `work` on the database
    /// threads, COMMIT (or ROLLBACK).
    /// How a writing transaction holds the schema's writers lock (``writersLock``), a session lock
    /// taken **before** `BEGIN` and released after the transaction ended: a transaction's snapshot is
    /// taken by its first statement, so a lock taken inside it would be waited for on a snapshot
    /// older than what a writer running alone committed meanwhile — and a `SERIALIZABLE` check that
    /// reads no row that writer changed (how many accounts a user has, the day's total of transfers
    /// from another account) would pass on that stale count, since PostgreSQL does not track a
    /// `READ COMMITTED` writer's predicates. Taken first, the snapshot is never older than the lock.
    enum WritersLock {
        case shared, exclusive

        var take: PostgresQuery {
            switch self {
            case .shared: "SELECT pg_advisory_lock_shared(\(PostgresAppDatabase.writersLock), hashtext(current_schema()))"
            case .exclusive: "SELECT pg_advisory_lock(\(PostgresAppDatabase.writersLock), hashtext(current_schema()))"
            }
        }

        var release: PostgresQuery {
            switch self {
            case .shared: "SELECT pg_advisory_unlock_shared(\(PostgresAppDatabase.writersLock), hashtext(current_schema()))"
            case .exclusive: "SELECT pg_advisory_unlock(\(PostgresAppDatabase.writersLock), hashtext(current_schema()))"
            }
        }
    }

    private func once<T: Sendable>(
        _ begin: PostgresQuery?, writers: WritersLock? = nil, locks: KeyLocks? = nil,
        _ work: @Sendable (PostgresTransaction) throws -> T
    ) async throws -> T {
        let lease = LeaseState()
        do {
            return try await withoutActuallyEscaping(work) { work in
                try await withThrowingTaskGroup(of: T?.self) { group in
                    group.addTask { try await self.leased(begin, writers: writers, locks: locks, lease, work) }
                    group.addTask {
                        // Never throws: a begun transaction is always awaited. After a moment without a
                        // connection, the database's host is asked: away, the transaction is refused now.
                        try? await Task.sleep(for: Self.probeAfter)
                        if !lease.hasConnection, await self.probe() == false {
                            self.markAway("no TCP connection")
                            return nil
                        }
                        try? await Task.sleep(for: Self.leaseTimeout - Self.probeAfter)
                        return nil
                    }
                    while let next = try await group.next() {
                        if let value = next {
                            group.cancelAll()
                            return value
                        }
                        // The timer: give up only if no connection was leased (once leased, the work runs to its end).
                        if lease.giveUp() {
                            group.cancelAll()
                            throw PostgresFailure.unreachable("no connection within \(Self.leaseTimeout)")
                        }
                    }
                    throw PostgresFailure.other(state: nil, message: "a transaction ended without an outcome")
                }
            }
        } catch let error as PSQLError {
            throw PostgresFailure(error)
        } catch let error where !(error is PostgresFailure) && !lease.began {
            // No connection could be leased (the pool's circuit breaker: the server stayed unreachable).
            throw PostgresFailure.unreachable(PostgresFailure.noConnection(error))
        }
    }

    private func leased<T: Sendable>(
        _ begin: PostgresQuery?, writers: WritersLock?, locks: KeyLocks?, _ lease: LeaseState,
        _ work: @Sendable (PostgresTransaction) throws -> T
    ) async throws -> T {
        let logger = logger
        return try await client.withConnection { connection in
            guard lease.take() else { throw PostgresFailure.unreachable("no connection within \(Self.leaseTimeout)") }
            guard let writers else { return try await self.transaction(on: connection, begin, locks: locks, lease, work) }
            do {
                _ = try await connection.answer(writers.take, logger: logger)
            } catch {
                throw Self.stale(error)
            }
            do {
                let value = try await self.transaction(on: connection, begin, locks: nil, lease, work)
                try await Self.release(writers, on: connection, logger: logger)
                return value
            } catch {
                try? await Self.release(writers, on: connection, logger: logger)
                throw error
            }
        }
    }

    /// Releases the writers lock; a connection on which that fails is closed (which releases it), so
    /// that the pool never hands out a connection still holding it.
    private static func release(_ writers: WritersLock, on connection: PostgresConnection, logger: Logger) async throws {
        do {
            _ = try await connection.answer(writers.release, logger: logger)
        } catch {
            try? await connection.close()
        }
    }

    /// What a failure before anything ran on a pooled connection (its `BEGIN`, or the writers lock
    /// taken before it) becomes: on a connection PostgreSQL closed since the pool opened it (it
    /// restarted), ``PostgresFailure/staleConnection(_:)``, tried again on another.
    /// Only a connection found closed, or one whose session PostgreSQL ended, is stale: one that went
    /// silent past the deadline is not (the next would likely wait as long), so it is refused as is.
    private static func stale(_ error: any Error) -> any Error {
        if let failure = error as? PostgresFailure {
            return failure == .closedConnection ? PostgresFailure.staleConnection(failure.description) : failure
        }
        guard let error = error as? PSQLError else { return error }
        let failure = PostgresFailure(error)
        if case .unreachable(let reason) = failure { return PostgresFailure.staleConnection(reason) }
        return failure
    }

    /// `begin` `nil`: one statement on its own (``readOne(_:)``), with no `COMMIT` or `ROLLBACK` after it.
    private func transaction<T: Sendable>(
        on connection: PostgresConnection, _ begin: PostgresQuery?, locks: KeyLocks?, _ lease: LeaseState,
        _ work: @Sendable (PostgresTransaction) throws -> T
    ) async throws -> T {
        let logger = logger
        let threads = threads
        guard let begin else {
            lease.begin()
            let statement = PostgresTransaction(connection: connection, logger: logger, threads: threads, statements: 1)
            let outcome: Result<T, any Error> = await withTaskExecutorPreference(threads) {
                do { return .success(try work(statement)) } catch { return .failure(error) }
            }
            if statement.connectionLost == .retired || statement.connectionLost == .silent { try? await connection.close() }
            if case .unreachable(let reason) = statement.failure, statement.connectionLost == .closed {
                // A pooled connection PostgreSQL closed (it restarted): a SELECT, tried on another.
                throw PostgresFailure.staleConnection(reason)
            }
            return try Self.settled(outcome, statement.failure).get()
        }
        // The locks are queued right behind BEGIN, and `work`'s first statements behind them: each
        // sent from the event loop the moment the one before is answered, with no thread woken
        // between them. The first failure among them (BEGIN's, a lock's) is the transaction's.
        lease.begin()
        let began = connection.statement(begin, logger: logger)
        // A cold statement that fails is refused on its connection for ever (PostgresTransaction.warm): closed then.
        let coldLocks = locks != nil && !PostgresTransaction.warm.has(KeyLocks.name, on: connection)
        let locked = locks.map { PostgresTransaction.start($0, on: connection, logger: logger) }
        let transaction = PostgresTransaction(
            connection: connection, logger: logger, threads: threads,
            ahead: [(began.map(\.rows), false)] + (locked.map { [($0, coldLocks)] } ?? []))
        let worked: Worked<T> = await withTaskExecutorPreference(threads) {
            do {
                let value = try work(transaction)
                try transaction.flush() // what the stores sent without waiting, answered and checked before COMMIT
                // Sent from here, as soon as it may be: the way back to the unit of work's task
                // is then made while PostgreSQL commits, not before it starts to.
                let clean = transaction.failure == nil && transaction.checkRefusal == nil && transaction.connectionLost == nil
                return Worked(outcome: .success(value), commit: clean ? connection.statement("COMMIT", logger: logger) : nil)
            } catch {
                transaction.settleUnanswered()
                return Worked(outcome: .failure(error), commit: nil)
            }
        }
        let (outcome, committed) = (worked.outcome, worked.commit)
        do {
            _ = try await connection.answer(to: began) // answered by now: `work` waited for it, or for a statement behind it
        } catch {
            // Nothing ran: a pooled connection PostgreSQL closed since (it restarted) is stale, tried
            // again on another — not one that went silent (the next would likely wait as long).
            if transaction.connectionLost == .retired || transaction.connectionLost == .silent { try? await connection.close() }
            if transaction.connectionLost == .silent, let failure = transaction.failure { throw failure }
            throw Self.stale(error)
        }
        var settled = Self.settled(outcome, transaction.failure)
        if case .success = settled, let refusal = transaction.checkRefusal { settled = .failure(refusal) }
        if transaction.connectionLost == .retired || transaction.connectionLost == .silent {
            // Closed before the pool has it back: no other transaction is handed a closing connection
            // (nor one still busy with a statement that went unanswered).
            try? await connection.close()
            return try settled.get()
        }
        if case .success(let value) = settled {
            _ = try await connection.answer(to: committed ?? connection.statement("COMMIT", logger: logger))
            return value
        }
        if transaction.connectionLost == nil { _ = try? await connection.answer("ROLLBACK", logger: logger) }
        return try settled.get()
    }

    /// What `work` came to on the database thread, and its `COMMIT` if it was sent from there.
    private struct Worked<T: Sendable>: Sendable {
        let outcome: Result<T, any Error>
        let commit: EventLoopFuture<PostgresQueryResult>?
    }

    /// What `work` came to, once the failure of its statements is known: a success only if no
    /// statement failed (`work` may have caught the error), and a statement's failure that is
    /// ``PostgresFailure/isBusy`` wins over what `work` made of it (a conflict must be retried, a
    /// lock wait past its timeout refused as busy).
    private static func settled<T>(_ outcome: Result<T, any Error>, _ failure: PostgresFailure?) -> Result<T, any Error> {
        switch (outcome, failure) {
        case (.success, nil): outcome
        case (.success, let failure?): .failure(failure)
        case (.failure, let failure?) where failure.isBusy: .failure(failure)
        case (.failure, _): outcome
        }
    }

    // MARK: Migrations

    /// Applies every pending step of `sets`, in order, in one transaction that holds an advisory lock:
    /// two servers starting at once apply each step once. A step this build does not know (a newer
    /// `moa-server` wrote it) is refused. With `applying: false` (an audit) nothing is written: a
    /// database that lacks a step is refused instead.
    public func migrate(_ sets: [PostgresMigrationSet], applying: Bool = true) async throws {
        let known = sets.flatMap { set in set.steps.map { "\(set.feature)/\($0.name)" } }
        do {
            try await client.withConnection { connection in
                // Every statement's rows are read to the end (`answer`): an error PostgreSQL sends after the
                // first row would otherwise go unseen, and the next statement fail with "transaction aborted".
                _ = try await connection.answer("BEGIN", logger: logger)
                do {
                    // Migrations wait for each other as long as it takes (no lock_timeout), one schema at a time.
                    _ = try await connection.answer("SET LOCAL lock_timeout = 0", logger: logger)
                    _ = try await connection.answer(
                        "SELECT pg_advisory_xact_lock(\(Self.migrationLock), hashtext(current_schema()))", logger: logger)
                    if applying {
                        _ = try await connection.answer(
                            """
                            CREATE TABLE IF NOT EXISTS moa_migrations (
                                identifier text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                            """, logger: logger)
                    }
                    var applied = Set<String>()
                    let table = try await connection.answer("SELECT to_regclass('moa_migrations') IS NOT NULL", logger: logger)
                        .rows.first?.decode(Bool.self)
                    if table == true {
                        for row in try await connection.answer("SELECT identifier FROM moa_migrations", logger: logger).rows {
                            applied.insert(try row.decode(String.self))
                        }
                    }
                    let unknown = applied.subtracting(known).sorted()
                    guard unknown.isEmpty else { throw MigrationRefused.newerSchema(unknown: unknown) }
                    let missing = known.filter { !applied.contains($0) }
                    guard applying || missing.isEmpty else { throw MigrationRefused.notSetUp(missing: missing) }
                    for set in sets {
                        for step in set.steps where !applied.contains("\(set.feature)/\(step.name)") {
                            for statement in step.statements {
                                _ = try await connection.answer(PostgresQuery(unsafeSQL: statement), logger: logger)
                            }
                            let identifier = "\(set.feature)/\(step.name)"
                            _ = try await connection.answer(
                                "INSERT INTO moa_migrations (identifier) VALUES (\(identifier))", logger: logger)
                        }
                    }
                    _ = try await connection.answer("COMMIT", logger: logger)
                } catch {
                    _ = try? await connection.answer("ROLLBACK", logger: logger)
                    throw error
                }
            }
        } catch let error as PSQLError {
            throw PostgresFailure(error).asStartupError(location)
        } catch let error where !(error is MigrationRefused) {
            throw DatabaseCannotStart(location: location.description, reason: PostgresFailure.noConnection(error))
        }
    }

    /// The advisory lock key migrations hold ("moa" in ASCII), with the schema's hash as the second key.
    static let migrationLock: Int32 = 0x6D6F61

    /// The migration identifiers applied, in the order they were applied.
    public func appliedMigrations() async throws -> [String] {
        try await read { transaction in
            try transaction.rows("SELECT identifier FROM moa_migrations ORDER BY applied_at, identifier").map {
                try $0.decode(String.self)
            }
        }
    }

    /// Creates `schema` if missing (throwaway schemas for tests and benchmarks: a lowercase identifier).
    public func createSchema(_ schema: String) async throws {
        let name = try Self.plainIdentifier(schema)
        try await write { try $0.execute("CREATE SCHEMA IF NOT EXISTS \(unescaped: name)") }
    }

    /// Drops `schema` and everything in it.
    public func dropSchema(_ schema: String) async throws {
        let name = try Self.plainIdentifier(schema)
        try await write { try $0.execute("DROP SCHEMA IF EXISTS \(unescaped: name) CASCADE") }
    }

    private static func plainIdentifier(_ name: String) throws -> String {
        guard !name.isEmpty, name.count <= 63, name.first?.isLetter == true,
            name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else { throw PostgresFailure.other(state: nil, message: "\(name) is not a plain schema name") }
        return name
    }

    /// The steps of `sets` the database has not applied (`/readyz`): none when it is current, all of
    /// them when it was never set up.
    public func pendingMigrations(_ sets: [PostgresMigrationSet]) async throws -> [String] {
        let known = sets.flatMap { set in set.steps.map { "\(set.feature)/\($0.name)" } }
        do {
            let logger = logger
            let applied = try await withConnectionFailingFast { connection in
                var names: Set<String> = []
                let exists = try await connection.answer("SELECT to_regclass('moa_migrations') IS NOT NULL", logger: logger)
                guard try exists.rows.first?.decode(Bool.self) == true else { return names }
                for row in try await connection.answer("SELECT identifier FROM moa_migrations", logger: logger).rows {
                    names.insert(try row.decode(String.self))
                }
                return names
            }
            return known.filter { !applied.contains($0) }
        } catch let error as PSQLError {
            throw PostgresFailure(error).asRequestError
        } catch {
            throw DatabaseUnavailable.unreachable(PostgresFailure.noConnection(error))
        }
    }

    /// Answers when the database answers a trivial query (the health check).
    public func ping() async throws {
        do {
            let logger = logger
            try await withConnectionFailingFast { connection in _ = try await connection.answer("SELECT 1", logger: logger) }
        } catch let error as PSQLError {
            throw PostgresFailure(error).asRequestError
        } catch {
            throw DatabaseUnavailable.unreachable(PostgresFailure.noConnection(error))
        }
    }
}

/// One feature's PostgreSQL schema: named steps, each a list of SQL statements, applied once, in
/// order (identifiers `<feature>/<step>` in the `moa_migrations` table).
public struct PostgresMigrationSet: Sendable {
    public struct Step: Sendable {
        public let name: String
        public let statements: [String]

        public init(_ name: String, _ statements: [String]) {
            self.name = name
            self.statements = statements
        }
    }

    public let feature: String
    public let steps: [Step]

    public init(feature: String, steps: [Step]) {
        self.feature = feature
        self.steps = steps
    }
}

/// The database has migrations this build does not know.
public enum MigrationRefused: Error, UserFacingError, Equatable {
    case newerSchema(unknown: [String])
    /// An audit (which writes nothing) found steps not yet applied.
    case notSetUp(missing: [String])

    public var message: String {
        switch self {
        case .newerSchema(let unknown):
            "The database was written by a newer moa-server (unknown steps: \(unknown.joined(separator: ", ")))."
        case .notSetUp(let missing):
            "The database is not set up for this moa-server (\(missing.count) steps not applied, the first \(missing.first ?? "?"))."
        }
    }

    public var hint: String? {
        switch self {
        case .newerSchema: "Upgrade moa-server, or use another --database."
        case .notSetUp: "Start moa-server --database on it once (it applies the steps), then audit."
        }
    }
    public var exitStatus: ExitStatus { .dataError }
}

/// The database cannot serve the request now; the same request may succeed later (75, 503).
public enum DatabaseUnavailable: Error, UserFacingError, Equatable {
    /// Unreachable, restarting, or the connection broke (a write's outcome is then unknown: retry it
    /// with the same idempotency key).
    case unreachable(String)
    /// Transactions kept conflicting with others (every attempt was aborted to keep them
    /// serializable), or a lock was not granted within `lock_timeout`.
    case busy

    /// One fixed sentence: the reason (a host, a server message) is for the server's log only.
    public var message: String {
        switch self {
        case .unreachable: "The bank's database cannot be reached now."
        case .busy: "The bank's database is too busy to finish this now."
        }
    }

    public var hint: String? { "Try again in a moment; a transfer retried with the same idempotency key is sent once." }
    public var exitStatus: ExitStatus { .temporaryFailure }
}

/// The database refused to start serving: unreachable at start, or refused our credentials.
public struct DatabaseCannotStart: Error, UserFacingError, Equatable {
    let location: String
    let reason: String

    public var message: String { "Cannot use the PostgreSQL database \(location): \(reason)." }
    public var hint: String? { "Check that PostgreSQL runs there and that the user may connect (the password in PGPASSWORD)." }
    public var exitStatus: ExitStatus { .unavailable }
}

/// Whether a transaction got its connection in time: the lease and the timer race once, and only
/// one of them wins.
private final class LeaseState: Sendable {
    private enum Phase { case waiting, leased, begun, timedOut }
    private let phase = Locked(Phase.waiting)

    /// The connection arrived: `false` if the timer already gave up (the connection goes back unused).
    func take() -> Bool {
        phase.withLock { phase in
            guard phase == .waiting else { return false }
            phase = .leased
            return true
        }
    }

    func begin() { phase.withLock { $0 = .begun } }

    /// Whether a connection arrived (the work runs, or ran).
    var hasConnection: Bool { phase.withLock { $0 == .leased || $0 == .begun } }

    var began: Bool { phase.withLock { $0 == .begun } }

    /// The timer fired: `true` if no connection had arrived (the transaction is then refused).
    func giveUp() -> Bool {
        phase.withLock { phase in
            guard phase == .waiting else { return false }
            phase = .timedOut
            return true
        }
    }
}
