import Logging
import PostgresNIO

/// Every statement Moa sends goes through here, so that each one gets an answer — rows, an error,
/// or at worst a deadline's error — and no transaction waits for ever.
///
/// PostgresNIO writes a statement into its connection's channel with no promise for the write
/// itself (`channel.write(task, promise: nil)`). Written after the channel closed — PostgreSQL
/// ended the session (a shutdown, `pg_terminate_backend`, an idle transaction past its timeout) and
/// the channel's handlers are already gone — the statement is dropped, and its answer never comes.
/// Until the channel closes, its handler answers every statement it was given, with an error if
/// the connection goes away. So ``statement(_:logger:)`` looks at the channel and writes in one
/// turn of the connection's event loop: a statement is written only to a channel still active, and
/// refused at once (``PostgresFailure/closedConnection``) otherwise.
extension PostgresConnection {
    /// `query` on this connection, refused at once when the connection is already closed (its answer,
    /// otherwise, would never come).
    func statement(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        let loop = eventLoop
        if loop.inEventLoop { return written(query, logger: logger) }
        return loop.flatSubmit { self.written(query, logger: logger) }
    }

    private func written(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        guard !isClosed else { return eventLoop.makeFailedFuture(PostgresFailure.closedConnection) }
        return self.query(query, logger: logger)
    }

    /// `query`'s answer, awaited at most ``PostgresTransaction/answerTimeout`` seconds: past that, the
    /// connection is closed (the pool replaces it; a transaction on it is rolled back by PostgreSQL)
    /// and the statement fails as unreachable — a peer gone silent (a network that drops packets,
    /// a host that froze) holds no request and no connection for longer.
    func answer(_ query: PostgresQuery, logger: Logger) async throws -> PostgresQueryResult {
        try await answer(to: statement(query, logger: logger))
    }

    /// The answer `future` (a statement on this connection: ``statement(_:logger:)``, or a prepared
    /// one's ``PostgresTransaction/start(_:on:logger:)``) brings, awaited as long as
    /// ``answer(_:logger:)`` awaits one.
    func answer<Answer: Sendable>(to future: EventLoopFuture<Answer>) async throws -> Answer {
        let loop = future.eventLoop
        let answered = loop.makePromise(of: Answer.self)
        let deadline = loop.scheduleTask(in: .seconds(Int64(PostgresTransaction.answerTimeout))) {
            answered.fail(PostgresFailure.noAnswer)
        }
        future.whenComplete { outcome in
            deadline.cancel()
            answered.completeWith(outcome)
        }
        do {
            return try await answered.futureResult.get()
        } catch PostgresFailure.noAnswer {
            _ = try? await close()
            throw PostgresFailure.unreachable("PostgreSQL did not answer within \(PostgresTransaction.answerTimeout) seconds")
        }
    }
}
