import Foundation
import GRDB
import SharedKit

/// Copies the write-ahead log back into the database file (a checkpoint) on a connection of its
/// own, every ``every`` commits, so that SQLite's one writer seldom does it.
///
/// SQLite's writer checkpoints by itself once the log holds `wal_autocheckpoint` pages (1,000 by
/// default), between one transaction and the next: every later write waits for the copy and its
/// `fsync`. At moa-server's rate (a group commit every few milliseconds, tens of pages each) that
/// was every twentieth commit, and a hot page (an account, an index's root) was copied anew each
/// time. Here the writer's own threshold is ``writerPages`` (10,000, about 40 MB of log): a page
/// rewritten many times in between is copied once, and when the writer does get there, this
/// connection has already copied nearly everything, so the writer's checkpoint — which lets the
/// next transaction start the log over — has little left to do. A passive checkpoint waits for no
/// one: a reader's older snapshot only leaves its pages in the log for later. Measured in
/// docs/benchmarks.md (SQLite, 16 clients).
final class Checkpoints: Sendable {
    /// The log's length, in pages, at which the writer checkpoints by itself.
    static let writerPages = 10_000
    /// Commits between two checkpoints of this connection.
    static let every = 32

    private struct State {
        var commits = 0
        var running = false
        var connection: DatabaseQueue?
    }

    private let path: String
    private let state = Locked(State())

    init(path: String) {
        self.path = path
    }

    /// One more commit: every ``every``-th starts a passive checkpoint unless one is running. Never
    /// waits, never throws: a checkpoint not made here is the writer's to make.
    func committed() {
        let start: Bool = state.withLock { state in
            state.commits += 1
            guard state.commits >= Self.every, !state.running else { return false }
            state.commits = 0
            state.running = true
            return true
        }
        guard start else { return }
        guard let connection = connection() else {
            state.withLock { $0.running = false }
            return
        }
        // On the connection's own dispatch queue: a checkpoint (a copy and an `fsync`) blocks a
        // thread, which must not be one of Swift's cooperative pool.
        connection.asyncWriteWithoutTransaction { [state] database in
            _ = try? database.checkpoint(.passive)
            state.withLock { $0.running = false }
        }
    }

    /// The checkpoints' connection, opened at the first (none if it cannot be opened: the writer
    /// checkpoints alone).
    private func connection() -> DatabaseQueue? {
        if let open = state.withLock({ $0.connection }) { return open }
        var configuration = Configuration()
        configuration.label = "checkpoints"
        guard let opened = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        return state.withLock { state in
            if let open = state.connection { return open }
            state.connection = opened
            return opened
        }
    }
}
