import Foundation
import Synchronization

/// The source of "now" for everything that stores or compares wall-clock time.
///
/// Production code uses ``SystemWallClock``; tests use ``ManualWallClock`` and move time by hand,
/// so that expiry, throttling and limits are tested without sleeping.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The real clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to. Safe to share between tasks.
public final class ManualWallClock: WallClock {
    private let current: Locked<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { // 2026-01-01T00:00:00Z
        current = Locked(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
