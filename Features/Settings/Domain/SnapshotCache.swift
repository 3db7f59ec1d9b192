import Foundation
import SettingsInterface
import SharedKit

/// The snapshots a server resolved lately, by scope, so that a request reads its user's settings
/// without a database read (``SettingsManager/snapshot()``).
///
/// **How long a change may go unseen.** A change made through this process (set, reset, reset all)
/// forgets its scope's snapshot once written — every snapshot when the device's values change, which
/// every user inherits: the next read here sees it. A change made through **another** server sharing
/// the database is seen here when the snapshot is next read, at most ``lifetime`` after it was (a
/// lowered transfer limit, say, binds this server's transfers that much later).
///
/// Bounded: at most ``capacity`` scopes; when full, the expired ones go, and if fewer than a
/// quarter had expired, all do (SharedKit's `ExpiringCache`).
public final class SnapshotCache: Sendable {
    public static let lifetime: TimeInterval = 5
    public static let capacity = 10_000

    let clock: any WallClock
    private let entries: ExpiringCache<String, SettingsSnapshot>

    public init(clock: any WallClock, lifetime: TimeInterval = SnapshotCache.lifetime, capacity: Int = SnapshotCache.capacity) {
        self.clock = clock
        entries = ExpiringCache(lifetime: lifetime, capacity: capacity)
    }

    /// The snapshot of `scope` read less than ``lifetime`` before `now`, if any.
    func snapshot(of scope: SettingsScope, at now: Date) -> SettingsSnapshot? {
        entries.value(for: scope.storageKey, at: now)
    }

    /// Where forgetting stands: pass it back to ``remember(_:of:readAt:since:)``.
    var generation: Int { entries.generation }

    /// Remembers `snapshot`, read at `readAt` by a read that began at `generation`, unless a scope was
    /// forgotten since (that read may predate the change).
    func remember(_ snapshot: SettingsSnapshot, of scope: SettingsScope, readAt: Date, since generation: Int) {
        entries.remember(snapshot, for: scope.storageKey, readAt: readAt, since: generation)
    }

    /// Forgets `scope`'s snapshot — every one for the device's, which every user inherits.
    func forget(_ scope: SettingsScope) {
        entries.forget { key, _ in scope == .device || key == scope.storageKey }
    }

    /// How many scopes are remembered now.
    public var count: Int { entries.count }
}
