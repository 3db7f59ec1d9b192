import Dispatch

/// A task executor whose jobs run on a concurrent Dispatch queue, off the cooperative pool: for work
/// that holds its thread (scrypt's hashing, a database's synchronous unit of work), which on the
/// cooperative pool (one thread per core) would stall every other task. Its user bounds how many
/// such jobs run at once; Dispatch lends a thread to each.
public final class QueueExecutor: TaskExecutor, Sendable {
    private let queue: DispatchQueue
    private let label: String
    private static let key = DispatchSpecificKey<String>()

    public init(label: String) {
        self.label = label
        queue = DispatchQueue(label: label, attributes: .concurrent)
        queue.setSpecific(key: Self.key, value: label)
    }

    /// Whether the calling code runs on this executor's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == label }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
