import Foundation
import SettingsInterface
import SharedKit
import Synchronization

/// The snapshots a server resolved lately, by scope, so that a request reads its user's settings
/// without a database read (``SettingsManager/snapshot()``).
///
/// **How long a change may go unseen.** A change made through this process (set, reset, reset all)
/// forgets its scope's snapshot once written — every snapshot when the device's values change, which
/// every user inherits: the next read here sees it. A change made through **another** server sharing
/// the database is seen here when the snapshot is next read, at most ``lifetime`` after it was (a
/// lowered transfer limit, say, binds this server's transfers that much later).
///
/// Bounded: at most ``capacity`` scopes; when full, the expired ones go, and if none had, all do.
public final class SnapshotCache: Sendable {
    public static let lifetime: TimeInterval = 5
    public static let capacity = 10_000

    private struct Entry {
        let snapshot: SettingsSnapshot
        let readAt: Date
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Counts what was forgotten: a read that began before a change must not remember what it read.
        var generation = 0
    }

    let clock: any WallClock
    let lifetime: TimeInterval
    private let capacity: Int
    private let state = Mutex(State())

    public init(clock: any WallClock, lifetime: TimeInterval = SnapshotCache.lifetime, capacity: Int = SnapshotCache.capacity) {
        self.clock = clock
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The snapshot of `scope` read less than ``lifetime`` before `now`, if any.
    func snapshot(of scope: SettingsScope, at now: Date) -> SettingsSnapshot? {
        state.withLock { state in
            guard let entry = state.entries[scope.storageKey] else { return nil }
            guard entry.readAt <= now, now < entry.readAt.addingTimeInterval(lifetime) else {
                state.entries[scope.storageKey] = nil
                return nil
            }
            return entry.snapshot
        }
    }

    /// Where forgetting stands: pass it back to ``remember(_:of:readAt:since:)``.
    var generation: Int { state.withLock { $0.generation } }

    /// Remembers `snapshot`, read at `readAt` by a read that began at `generation`, unless a scope was
    /// forgotten since (that read may predate the change).
    func remember(_ snapshot: SettingsSnapshot, of scope: SettingsScope, readAt: Date, since generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity {
                let lifetime = lifetime
                state.entries = state.entries.filter { readAt < $0.value.readAt.addingTimeInterval(lifetime) }
                if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            }
            state.entries[scope.storageKey] = Entry(snapshot: snapshot, readAt: readAt)
        }
    }

    /// Forgets `scope`'s snapshot — every one for the device's, which every user inherits.
    func forget(_ scope: SettingsScope) {
        state.withLock { state in
            state.generation &+= 1
            if scope == .device { state.entries.removeAll() } else { state.entries[scope.storageKey] = nil }
        }
    }

    /// How many scopes are remembered now.
    public var count: Int { state.withLock { $0.entries.count } }
}
