import Synchronization

/// A value behind a lock: the standard library's `Mutex`, made visible to ThreadSanitizer. Moa's one
/// lock type — `Scripts/check-architecture` refuses a bare `Mutex` anywhere else.
///
/// Why not `Mutex` itself: on Linux, a contended `Mutex` is handed from one thread to the next by a
/// priority-inheritance futex inside the standard library, which is not instrumented, so TSan sees
/// two threads touch the guarded value with nothing ordering them, and reports a race that is not one
/// (`Scripts/sanitize` did, in a clean-clone CI run, on Transfer's group queue and source cache).
/// Here every critical section begins with an acquiring load and ends with a releasing store of one
/// atomic word, which TSan does see: the lock still does the excluding, the word only tells TSan
/// the order the lock already gave. It costs an atomic load and store per section, on a word no
/// other lock shares.
///
/// ```swift
/// let seen = Locked<[String]>([])
/// seen.withLock { $0.append("alice") }
/// ```
public final class Locked<Value: ~Copyable>: Sendable {
    @usableFromInline let mutex: Mutex<Value>
    @usableFromInline let order = Atomic<UInt8>(0)

    public init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// The value goes on whichever thread lets go of the lock last: after the last section's store.
    deinit {
        _ = order.load(ordering: .acquiring)
    }

    /// Runs `body` with the value, while no other thread can reach it.
    @inlinable
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            _ = order.load(ordering: .acquiring)
            defer { order.store(0, ordering: .releasing) }
            return try body(&value)
        }
    }
}
