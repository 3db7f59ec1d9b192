import SettingsInterface
import SharedKit

/// A `SettingsReader` for other features' tests and Examples: a snapshot you can change (each
/// change goes to every `changes()` stream), or make fail.
///
/// ```swift
/// let settings = FakeSettingsReader()
/// settings.update { $0.transferLimits = TransferLimits(perTransfer: Money(minorUnits: 1_000, currency: .krw), daily: Money(minorUnits: 5_000, currency: .krw)) }
/// ```
public final class FakeSettingsReader: SettingsReader {
    private struct State {
        var snapshot: SettingsSnapshot
        var failure: (any Error & Sendable)?
        var next = 0
        var continuations: [Int: AsyncStream<SettingsSnapshot>.Continuation] = [:]
    }

    private let state: Locked<State>

    /// Starts with `snapshot` (every default unless given).
    public init(_ snapshot: SettingsSnapshot = .defaults) {
        state = Locked(State(snapshot: snapshot))
    }

    /// The snapshot `snapshot()` returns now.
    public var current: SettingsSnapshot { state.withLock { $0.snapshot } }

    /// Replaces the snapshot and tells every `changes()` stream.
    public func set(_ snapshot: SettingsSnapshot) {
        let continuations = state.withLock { state in
            state.snapshot = snapshot
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.yield(snapshot) }
    }

    /// Edits the snapshot in place and tells every `changes()` stream.
    public func update(_ edit: (inout SettingsSnapshot) -> Void) {
        var snapshot = current
        edit(&snapshot)
        set(snapshot)
    }

    /// Makes `snapshot()` throw `error` from now on (`nil`: answer again).
    public func fail(with error: (any Error & Sendable)?) {
        state.withLock { $0.failure = error }
    }

    public func snapshot() async throws -> SettingsSnapshot {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.snapshot
        }
    }

    public func changes() -> AsyncStream<SettingsSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: SettingsSnapshot.self, bufferingPolicy: .bufferingNewest(16))
        let id = state.withLock { state in
            state.next += 1
            state.continuations[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }
}
