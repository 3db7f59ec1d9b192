import Dispatch
import Logging
import Persistence
import PostgresNIO
import SharedKit

/// An open PostgreSQL transaction behind the opaque `Persistence.Transaction` token, for the stores'
/// synchronous methods. Each statement waits for PostgresNIO's answer on the calling thread, which
/// must be one of ``PostgresAppDatabase``'s database threads (the unit of work runs `work` there): a
/// statement from any other thread is refused, so that no event loop and no thread of the
/// cooperative pool ever waits.
public final class PostgresTransaction: Transaction, Sendable {
    private let connection: PostgresConnection
    private let logger: Logger
    private let threads: ThreadPoolExecutor
    private let firstFailure = Locked<PostgresFailure?>(nil)
    /// How the connection was lost, if it was: found closed, or silent for ``answerTimeout``.
    private let lost = Locked<Lost?>(nil)

    enum Lost {
        /// The connection failed or PostgreSQL ended the session (it restarted, it shut down).
        case closed
        /// A statement went unanswered for ``PostgresTransaction/answerTimeout`` (the connection was then closed).
        case silent
        /// A cold prepared statement failed: the unit of work closes the connection (``retire()``).
        case retired
    }
    /// How many more statements may be sent (`nil`: any number): 1 in a single-statement read, and a `SELECT`.
    private let statementsLeft: Locked<Int?>
    /// Statements on the wire whose answers nobody waited for yet (``send(_:then:)``), in order.
    private let sent: Locked<[Sent]>
    /// Whether `BEGIN`, sent ahead, may still be unanswered (``admit(_:cold:)``).
    private let opening: Locked<Bool>
    /// The first error a check of a sent statement threw: the transaction is refused with it even
    /// if `work` caught it (nothing in PostgreSQL failed, so ``failure`` does not say so).
    private let refusal = Locked<(any Error)?>(nil)

    /// The first error a check threw, if one did.
    var checkRefusal: (any Error)? { refusal.withLock { $0 } }

    /// `ahead`: statements the unit of work put on the connection before handing it over (`BEGIN`,
    /// the key locks), awaited and checked like those of ``send(_:then:)``, first — so the first
    /// of them that failed is the transaction's ``failure``, whatever was sent behind it.
    init(
        connection: PostgresConnection, logger: Logger, threads: ThreadPoolExecutor, statements: Int? = nil,
        ahead: [(answer: EventLoopFuture<[PostgresRow]>, cold: Bool)] = []
    ) {
        self.connection = connection
        self.logger = logger
        self.threads = threads
        self.statementsLeft = Locked(statements)
        self.sent = Locked(ahead.map { Sent(answer: $0.answer, check: nil, cold: $0.cold) })
        self.opening = Locked(!ahead.isEmpty)
    }

    /// Opens a token handed to a PostgreSQL store.
    public static func open(_ transaction: any Transaction) throws -> PostgresTransaction {
        guard let transaction = transaction as? PostgresTransaction else { throw ForeignTransactionError() }
        return transaction
    }

    /// The first statement that failed: the transaction is then aborted, and its unit of work rolls
    /// it back (and runs it again when the failure was a conflict), whatever `work` made of the error.
    var failure: PostgresFailure? { firstFailure.withLock { $0 } }

    /// Runs `query`; its rows. It is sent first; then the statements ``send(_:then:)`` put on the
    /// wire before it are awaited and checked, in order (a check sees what `query` did too), and the
    /// first of them that failed is what this throws.
    @discardableResult
    public func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        try admit(query.sql, cold: false)
        return try rows(answeredAfterSent: connection.statement(query, logger: logger).map(\.rows), cold: false)
    }

    /// Runs `statement`, a ``PreparedSQL`` (parsed once per connection); its rows. As
    /// ``rows(_:)-(PostgresQuery)`` otherwise.
    @discardableResult
    public func rows<Statement: PreparedSQL>(_ statement: Statement) throws -> [PostgresRow] {
        let cold = !Self.warm.has(Statement.name, on: connection)
        try admit(Statement.sql, cold: cold)
        return try rows(answeredAfterSent: Self.start(statement, on: connection, logger: logger), cold: cold)
    }

    private func rows(answeredAfterSent answer: EventLoopFuture<[PostgresRow]>, cold: Bool) throws -> [PostgresRow] {
        if sent.withLock({ !$0.isEmpty }) {
            do {
                try flush()
            } catch {
                _ = try? rows(answeredBy: answer, cold: cold)
                throw error
            }
        }
        return try rows(answeredBy: answer, cold: cold)
    }

    /// Puts `query` on the wire without waiting for its answer. PostgresNIO queues it on the
    /// connection and sends it, from its event loop, the moment PostgreSQL is ready for the next
    /// statement — still one round trip per statement (PostgresNIO does not pipeline), but without
    /// the way back to this thread and out again between two statements. Its answer is awaited, in
    /// order, by the next ``rows(_:)-(PostgresQuery)`` (or ``execute(_:)``, ``value(_:as:)``), by
    /// ``flush()``, and at the latest by the unit of work before `COMMIT`; `check` then looks at
    /// its rows, and throws to refuse the transaction. A statement that failed, or a check that
    /// threw, is the transaction's failure whatever `work` made of it: the unit of work never
    /// commits it. For writes whose answer nothing decides on before the next statement; refused in
    /// a single-statement read, which waits for nothing after its statement.
    public func send(_ query: PostgresQuery, then check: (@Sendable ([PostgresRow]) throws -> Void)? = nil) throws {
        guard statementsLeft.withLock({ $0 == nil }) else { throw refusedAsOneRead() }
        try admit(query.sql, cold: false)
        let answer = connection.statement(query, logger: logger).map(\.rows)
        sent.withLock { $0.append(Sent(answer: answer, check: check, cold: false)) }
    }

    /// ``send(_:then:)-(PostgresQuery,_)`` for a ``PreparedSQL``.
    public func send<Statement: PreparedSQL>(_ statement: Statement, then check: (@Sendable ([PostgresRow]) throws -> Void)? = nil) throws {
        guard statementsLeft.withLock({ $0 == nil }) else { throw refusedAsOneRead() }
        let cold = !Self.warm.has(Statement.name, on: connection)
        try admit(Statement.sql, cold: cold)
        let answer = Self.start(statement, on: connection, logger: logger)
        sent.withLock { $0.append(Sent(answer: answer, check: check, cold: cold)) }
    }

    /// Puts the read `statement` on the wire without waiting for its answer (as
    /// ``send(_:then:)-(Statement,_)``); its rows, once answered, from the ``Pending``'s `value()`,
    /// which waits for every statement sent so far (and runs their checks) unless a later statement
    /// of the transaction already did. Several reads then cost one wait on this thread, not one
    /// each (PostgresNIO still sends each after the one before it is answered). The first failure
    /// among the statements sent so far is what `value()` throws. In a single-statement read
    /// (``PostgresAppDatabase/readOne(_:)``), which waits for nothing after its statement, it is
    /// that statement, answered at once.
    public func pending<Statement: PreparedSQL>(_ statement: Statement) throws -> Pending<[PostgresRow]> {
        if statementsLeft.withLock({ $0 != nil }) { return .ready(try rows(statement)) }
        let answer = Locked<[PostgresRow]?>(nil)
        try send(statement) { rows in answer.withLock { $0 = rows } }
        return Pending { [self] in
            try flush()
            if let rows = answer.withLock({ $0 }) { return rows }
            // Not answered, and the flush that found why already threw it (to whoever called it then).
            throw failure ?? checkRefusal ?? PostgresFailure.notAnswered
        }
    }

    private func refusedAsOneRead() -> PostgresFailure {
        firstFailure.withLock { $0 = $0 ?? .notOneRead }
        return .notOneRead
    }

    /// The ``PreparedSQL`` names each open connection has prepared (and run): the others are
    /// **cold** there. PostgresNIO prepares a cold statement first and queues its run only once
    /// PostgreSQL answered the preparation — behind whatever was put on the connection meanwhile —
    /// and it keeps a preparation that failed, refusing that statement on its connection for ever.
    /// So a cold statement goes on a connection with nothing else unanswered, nothing follows it
    /// before its answer (statements run in the order they are sent), and if it fails, its
    /// connection is closed once the transaction is over (``retire()``).
    static let warm = WarmStatements()

    /// Puts `statement` on `connection` at once, behind whatever was put there before, and its rows
    /// once answered. PostgresNIO runs a prepared statement only from a task: this one runs on the
    /// connection's event loop (``EventLoopExecutor``), so it is written in order, from that loop,
    /// with no other thread woken.
    static func start<Statement: PreparedSQL>(
        _ statement: Statement, on connection: PostgresConnection, logger: Logger
    ) -> EventLoopFuture<[PostgresRow]> {
        let promise = connection.eventLoop.makePromise(of: [PostgresRow].self)
        Task(executorPreference: EventLoopExecutor(connection.eventLoop)) {
            // Looked at and written in one turn of the event loop (`execute` writes before it first
            // waits): a closed connection's pipeline drops what is written to it, answer and all.
            guard !connection.isClosed else {
                promise.fail(PostgresFailure.closedConnection)
                return
            }
            do {
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                warm.add(Statement.name, on: connection)
                promise.succeed(rows)
            } catch {
                promise.fail(error)
            }
        }
        return promise.futureResult
    }

    /// Waits for every statement ``send(_:then:)`` put on the wire, in order, then runs their
    /// checks, in order (a check may run statements of its own; one after a failed statement is
    /// not run); throws the first failure in that order, a statement's or a check's.
    public func flush() throws {
        try settleSent(checking: true)
    }

    /// Waits for the statements still unanswered after `work` failed, without their checks: a
    /// failure among them is still ``failure`` (a conflict is still run again).
    func settleUnanswered() {
        try? settleSent(checking: false)
    }

    private func settleSent(checking: Bool) throws {
        guard threads.isCurrent else { throw PostgresFailure.offTheDatabaseThreads }
        var problem: (any Error)?
        while true {
            let batch = sent.withLock { sent in
                defer { sent = [] }
                return sent
            }
            guard !batch.isEmpty else { break }
            // Every answer first: a check's own statements then wait behind no earlier one.
            let answers = batch.map { item in Result { try rows(answeredBy: item.answer, cold: item.cold) } }
            if failure == nil { opening.withLock { $0 = false } }
            for (item, answer) in zip(batch, answers) {
                switch answer {
                case .failure(let error):
                    problem = problem ?? error
                case .success(let rows):
                    guard checking, problem == nil, let check = item.check else { continue }
                    do {
                        try check(rows)
                    } catch {
                        problem = error
                        refusal.withLock { $0 = $0 ?? error }
                    }
                }
            }
        }
        if let problem { throw problem }
    }

    /// A statement put on the wire by ``send(_:then:)``, not yet answered.
    private struct Sent: Sendable {
        let answer: EventLoopFuture<[PostgresRow]>
        let check: (@Sendable ([PostgresRow]) throws -> Void)?
        /// A ``PreparedSQL`` sent before its connection had prepared it (``warm``).
        let cold: Bool
    }

    /// Whether a statement may be sent now: on a database thread, in a transaction nothing failed
    /// in yet, within a single-statement read's one `SELECT`. A cold ``PreparedSQL`` (``warm``), and
    /// any statement behind one, first waits for every statement sent before it; so does anything
    /// but a `SELECT` while `BEGIN`, sent ahead, may be unanswered — behind a `BEGIN` that failed on
    /// a live connection, a write would run, and commit, on its own.
    private func admit(_ sql: String, cold: Bool) throws {
        guard threads.isCurrent else { throw PostgresFailure.offTheDatabaseThreads }
        if let failure { throw failure }
        if sent.withLock({ sent in !sent.isEmpty && (cold || sent.contains(where: \.cold)) })
            || (opening.withLock({ $0 }) && !Self.isSelect(sql))
        {
            try flush()
        }
        let allowed = statementsLeft.withLock { left in
            guard let count = left else { return true }
            left = count - 1
            return count > 0 && Self.isSelect(sql)
        }
        guard allowed else { throw refusedAsOneRead() }
    }

    /// The rows of the statement `answer` is for, once it comes; its failure recorded as the
    /// transaction's if it is the first (a cold ``PreparedSQL``'s retires the connection).
    private func rows(answeredBy answer: EventLoopFuture<[PostgresRow]>, cold: Bool) throws -> [PostgresRow] {
        switch Self.wait(for: answer) {
        case .success(let rows):
            return rows
        case .failure(PostgresFailure.noAnswer):
            // A connection that stopped answering (the server restarted under it, the network broke):
            // closed now, so that the statements still waiting on it fail at once, and awaited closed
            // by the unit of work before the pool has it back (the pool then replaces it).
            let failure = PostgresFailure.unreachable("PostgreSQL did not answer within \(Self.answerTimeout) seconds")
            firstFailure.withLock { $0 = $0 ?? failure }
            lost.withLock { $0 = $0 ?? .silent }
            let connection = connection
            Task.detached { try? await connection.close() }
            throw failure
        case .failure(let error):
            let failure =
                error as? PostgresFailure ?? (error as? PSQLError).map(PostgresFailure.init)
                ?? .other(state: nil, message: String(describing: error))
            firstFailure.withLock { $0 = $0 ?? failure }
            if failure == .closedConnection || (error as? PSQLError).map(PostgresFailure.endsTheSession) == true {
                lost.withLock { $0 = $0 ?? .closed }
            }
            if cold { retire() }
            throw failure
        }
    }

    /// Marks the connection to be closed once this transaction is over, before the pool has it back
    /// (it is not rolled back: closing ends it): a cold ``PreparedSQL`` failed on it, and PostgresNIO
    /// would refuse that statement on this connection for ever (a table it reads locked past
    /// `lock_timeout` by a migration elsewhere, a statement cancelled, …).
    func retire() {
        lost.withLock { $0 = $0 ?? .retired }
    }

    /// Whether `query` is a plain `SELECT` (what a single-statement read may send: outside a
    /// transaction, anything else would commit on its own, and a stale connection's retry could run it twice).
    private static func isSelect(_ sql: String) -> Bool {
        let words = sql.drop(while: \.isWhitespace).prefix(7).uppercased()
        return words == "SELECT " || words == "SELECT\n"
    }

    /// Runs `query` for its effect.
    public func execute(_ query: PostgresQuery) throws {
        try rows(query)
    }

    /// The first row's first column, decoded (`nil` when there is no row).
    public func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) throws -> T? {
        try rows(query).first.map { try $0.decode(T.self) }
    }

    /// How long a statement may go unanswered: longer than the server's own `statement_timeout` (30 s),
    /// so that only a connection that stopped answering reaches it.
    static let answerTimeout = 40

    /// How the connection was lost, if it was.
    var connectionLost: Lost? { lost.withLock { $0 } }

    /// Waits, on this thread, for `future` — completed on the connection's event loop, which this
    /// thread never is — at most ``answerTimeout`` seconds (then ``PostgresFailure/noAnswer``). The
    /// answer wakes this thread directly: no task of the cooperative pool stands between.
    private static func wait<T: Sendable>(for future: EventLoopFuture<T>) -> Result<T, any Error> {
        let result = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        future.whenComplete { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        guard done.wait(timeout: .now() + .seconds(answerTimeout)) == .success else { return .failure(PostgresFailure.noAnswer) }
        return result.withLock { $0 } ?? .failure(PostgresFailure.noAnswer)
    }
}

/// Why a statement or a transaction failed, as far as the stores and the unit of work need to know.
public enum PostgresFailure: Error, Equatable, CustomStringConvertible {
    /// Serialization failure (40001) or deadlock (40P01): the unit of work runs the transaction again.
    case conflict(state: String)
    /// A lock not granted within `lock_timeout` (55P03): the transaction already waited that long, so
    /// it is refused as busy at once (retryable), never run again to wait as long once more.
    case lockTimeout
    /// A unique constraint refused a row (23505), with the constraint's name.
    case uniqueViolation(constraint: String?)
    /// The server cannot be reached, is shutting down, or the connection broke.
    case unreachable(String)
    /// A pooled connection failed at `BEGIN` (PostgreSQL restarted since it was opened): nothing was
    /// sent, so the unit of work tries another connection.
    case staleConnection(String)
    /// A statement got no answer within ``PostgresTransaction/answerTimeout`` (becomes ``unreachable(_:)``).
    case noAnswer
    /// A statement ran outside the database threads (a bug of ours: it would block a thread that must not wait).
    case offTheDatabaseThreads
    /// A single-statement read (``PostgresAppDatabase/readOne(_:)``) tried a second statement, or one
    /// that is not a `SELECT` (a bug of ours).
    case notOneRead
    /// A read sent ahead (``PostgresTransaction/pending(_:)``) whose answer was asked for after
    /// the transaction had already failed before it (a bug of ours: the failure was thrown first).
    case notAnswered
    /// Anything else PostgreSQL or the driver said.
    case other(state: String?, message: String)

    init(_ error: PSQLError) {
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "the server refused the statement"
            switch state {
            case "40001", "40P01": self = .conflict(state: state)
            case "55P03": self = .lockTimeout
            case "23505": self = .uniqueViolation(constraint: error.serverInfo?[.constraintName])
            // admin shutdown, crash shutdown, cannot connect now, and every connection exception (08…)
            // a statement or an idle transaction that took too long, too:
            case "57P01", "57P02", "57P03", "53300", "57014", "25P03": self = .unreachable(message)
            case _ where state.hasPrefix("08"): self = .unreachable(message)
            default: self = .other(state: state, message: message)
            }
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed, .queryCancelled:
            self = .unreachable(Self.reason(error))
        default:
            self = .other(state: nil, message: Self.reason(error))
        }
    }

    /// A statement refused before it was written: its connection was already closed (PostgreSQL
    /// ended the session). Nothing of it ran; the transaction on that connection is rolled back.
    static let closedConnection = PostgresFailure.unreachable("PostgreSQL ended the session (the connection is closed)")

    var isConflict: Bool {
        if case .conflict = self { return true }
        return false
    }

    /// Whether `error` means the connection is gone — it failed, or PostgreSQL ended the session
    /// (shutdown, a crash, an idle transaction past its timeout, SQLSTATE 08…) — as opposed to a
    /// statement refused on a connection that lives on (a statement timeout, 57014: the unit of work
    /// must still roll back on it before the pool lends it again).
    static func endsTheSession(_ error: PSQLError) -> Bool {
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            return ["57P01", "57P02", "57P03", "25P03"].contains(state) || state.hasPrefix("08")
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed: return true
        default: return false
        }
    }

    /// Another transaction was in the way: a conflict (run again) or a lock wait past its timeout
    /// (refused as busy). Either wins over what the unit of work's own code made of the failure.
    var isBusy: Bool { isConflict || self == .lockTimeout }

    /// What a client is told: a broken connection is retryable (75); anything else is ours to fix.
    var asRequestError: any Error {
        switch self {
        case .unreachable(let reason), .staleConnection(let reason): DatabaseUnavailable.unreachable(reason)
        case _ where isBusy: DatabaseUnavailable.busy
        default: self
        }
    }

    func asStartupError(_ location: PostgresLocation) -> any Error {
        switch self {
        case .unreachable(let reason): DatabaseCannotStart(location: location.description, reason: reason)
        case .other(let state, let message) where state?.hasPrefix("28") == true || state == "3D000":
            DatabaseCannotStart(location: location.description, reason: message) // credentials, or no such database
        default: self
        }
    }

    public var description: String {
        switch self {
        case .conflict(let state): "The transaction conflicted with another (SQLSTATE \(state))."
        case .lockTimeout: "A lock was not granted within lock_timeout (SQLSTATE 55P03)."
        case .uniqueViolation(let constraint): "A unique constraint (\(constraint ?? "unnamed")) refused the row."
        case .unreachable(let reason), .staleConnection(let reason): "The database cannot be reached: \(reason)."
        case .offTheDatabaseThreads: "A PostgreSQL statement ran outside the database threads."
        case .notOneRead: "A single-statement read tried a second statement, or one that is not a SELECT."
        case .noAnswer: "PostgreSQL did not answer."
        case .notAnswered: "A read sent ahead was asked for after its transaction had failed."
        case .other(let state, let message): "PostgreSQL failed\(state.map { " (SQLSTATE \($0))" } ?? ""): \(message)."
        }
    }

    /// Why no connection could be leased, in words (the pool's own errors name its internals).
    static func noConnection(_ error: any Error) -> String {
        if error is CancellationError { return "the request was cancelled" }
        return "no connection could be made (is PostgreSQL running there, and does it accept this user?)"
    }

    /// The underlying reason of a driver error, one line, no secrets (PSQLError's description omits the query).
    private static func reason(_ error: PSQLError) -> String {
        if let underlying = error.underlying {
            return String(describing: underlying).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        return String(describing: error.code)
    }
}

/// The prepared statements each open connection holds (``PostgresTransaction/warm``): an entry is
/// dropped when its connection closes.
final class WarmStatements: Sendable {
    private let names = Locked<[ObjectIdentifier: Set<String>]>([:])

    func has(_ name: String, on connection: PostgresConnection) -> Bool {
        names.withLock { $0[ObjectIdentifier(connection)]?.contains(name) ?? false }
    }

    func add(_ name: String, on connection: PostgresConnection) {
        let key = ObjectIdentifier(connection)
        let first = names.withLock { names in
            defer { names[key, default: []].insert(name) }
            return names[key] == nil
        }
        if first { connection.closeFuture.whenComplete { [names] _ in names.withLock { _ = $0.removeValue(forKey: key) } } }
    }
}
