import Foundation
import Synchronization

/// Values read from a database, believed for a bounded time, for a server to skip the reads it made
/// a moment ago (``Auth``'s live access tokens, ``Settings``' snapshots).
///
/// - An entry is used only from the moment it was read until ``lifetime`` after, and only while
///   `stillGood` (given to ``value(for:at:stillGood:)``) says so; otherwise it is dropped.
/// - What is forgotten (``forget(where:)``, after the change it follows was written) is read again;
///   and a read that **began** before a forgetting never remembers what it read (``generation``),
///   since it may predate the change.
/// - Bounded: at most `capacity` entries; when full, the expired ones go, and if fewer than a quarter
///   had expired, all do (so a full cache is searched at most once per quarter of its capacity).
public final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let readAt: Date
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var generation = 0
    }

    public let lifetime: TimeInterval
    private let capacity: Int
    private let state = Locked(State())

    public init(lifetime: TimeInterval, capacity: Int) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The value remembered for `key`, if read less than ``lifetime`` before `now` (and not after it:
    /// a clock set back drops it) and `stillGood`.
    public func value(for key: Key, at now: Date, stillGood: (Value) -> Bool = { _ in true }) -> Value? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.readAt <= now, now < entry.readAt.addingTimeInterval(lifetime), stillGood(entry.value) else {
                state.entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Where forgetting stands: take it before a read, and pass it to ``remember(_:for:readAt:since:)``.
    public var generation: Int { state.withLock { $0.generation } }

    /// Remembers `value`, read at `readAt` by a read that began at `generation`, unless something was
    /// forgotten since.
    public func remember(_ value: Value, for key: Key, readAt: Date, since generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity {
                let lifetime = lifetime
                state.entries = state.entries.filter { readAt < $0.value.readAt.addingTimeInterval(lifetime) }
                // Unless at least a quarter could go, all go: the next quarter's remembers then search
                // nothing (a cache kept just full, a few entries expiring at a time, searched every
                // entry on every remember).
                if state.entries.count > capacity - max(1, capacity / 4) { state.entries.removeAll(keepingCapacity: true) }
            }
            state.entries[key] = Entry(value: value, readAt: readAt)
        }
    }

    /// Forgets every entry `matches` picks (and counts a forgetting).
    public func forget(where matches: (Key, Value) -> Bool) {
        state.withLock { state in
            state.generation &+= 1
            state.entries = state.entries.filter { !matches($0.key, $0.value.value) }
        }
    }

    /// How many entries are remembered now.
    public var count: Int { state.withLock { $0.entries.count } }
}
