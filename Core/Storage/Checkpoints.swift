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
///
/// The log thus grows to about ``writerPages`` pages (40 MB) while writes go on, as SQLite starts it
/// over only from a write that finds every page of it copied; it is removed when the last
/// connection closes (a `moa` command's at its end).
final class Checkpoints: Sendable {
    /// The log's length, in pages, at which the writer checkpoints by itself.
    static let writerPages = 10_000
    /// Commits between two checkpoints of this connection.
    static let every = 32

    private struct State {
        var commits = 0
        var running = false
    }

    private enum Connection {
        case notYet
        case open(DatabaseQueue)
        /// It could not be opened: the writer checkpoints alone, and opening is not tried again.
        case none
    }

    private let path: String
    private let state = Locked(State())
    /// Opened, and used, on ``queue`` only.
    private let connection = Locked(Connection.notYet)
    /// A checkpoint (a copy and an `fsync`) blocks a thread, which must not be one of Swift's
    /// cooperative pool, nor the writer's: this one's own.
    private let queue = DispatchQueue(label: "moa.storage.checkpoints", qos: .utility)

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
        queue.async { [self] in
            if let database = open() {
                _ = try? database.writeWithoutTransaction { try $0.checkpoint(.passive) }
            }
            state.withLock { $0.running = false }
        }
    }

    /// The checkpoints' connection, opened at the first checkpoint (with the writer's busy timeout,
    /// for the schema read that opening makes).
    private func open() -> DatabaseQueue? {
        switch connection.withLock({ $0 }) {
        case .open(let database): return database
        case .none: return nil
        case .notYet:
            var configuration = Configuration()
            configuration.label = "checkpoints"
            configuration.busyMode = .timeout(AppDatabase.busyTimeout)
            let opened = try? DatabaseQueue(path: path, configuration: configuration)
            connection.withLock { $0 = opened.map(Connection.open) ?? .none }
            return opened
        }
    }
}
