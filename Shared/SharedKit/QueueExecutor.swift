import Dispatch
import Foundation
import Synchronization

/// A task executor whose jobs run on a concurrent Dispatch queue, off the cooperative pool: for work
/// that holds its thread for a while (scrypt's hashing), which on the cooperative pool (one thread
/// per core) would stall every other task. Its user bounds how many such jobs run at once (one per
/// core): Dispatch's global pool lends about one thread per core and adds more only slowly.
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

/// A task executor with threads of its own, a fixed number of them: for jobs that wait while they
/// hold their thread (a database's synchronous unit of work, each statement waiting for its answer).
/// These threads are there from the start, so `count` jobs can wait at once without delaying the
/// next one, and without taking the threads Dispatch and the cooperative pool share. The threads end
/// when the executor's owner calls ``shutdown()``.
public final class ThreadPoolExecutor: TaskExecutor, Sendable {
    private let label: String
    private let count: Int
    private let state = Locked(State())
    private let ready = DispatchSemaphore(value: 0)
    private static let threadKey = "moa.ThreadPoolExecutor"

    private struct State: ~Copyable {
        var jobs: [UnownedJob] = []
        var next = 0
        var stopping = false
    }

    public init(label: String, count: Int) {
        self.label = label
        self.count = max(1, count)
        for index in 0..<self.count {
            let thread = Thread { [self] in work() }
            thread.name = "\(label)-\(index)"
            thread.start()
        }
    }

    /// Whether the calling code runs on one of these threads.
    public var isCurrent: Bool { Thread.current.threadDictionary[Self.threadKey] as? String == label }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
        ready.signal()
    }

    /// Lets the threads end once the jobs already enqueued have run.
    public func shutdown() {
        let first = state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        for _ in 0..<count { ready.signal() }
    }

    private func work() {
        Thread.current.threadDictionary[Self.threadKey] = label
        let executor = asUnownedTaskExecutor()
        while true {
            ready.wait()
            let next: UnownedJob? = state.withLock { state in
                guard state.next < state.jobs.count else { return nil }
                let job = state.jobs[state.next]
                state.next += 1
                if state.next >= 256, state.next * 2 >= state.jobs.count { // forget, now and then, what has run
                    state.jobs.removeFirst(state.next)
                    state.next = 0
                }
                return job
            }
            if let next {
                next.runSynchronously(on: executor)
            } else if state.withLock({ $0.stopping }) {
                return
            }
        }
    }
}

/// A counting semaphore for tasks: `acquire` suspends (never blocks a thread) until a permit is free.
public actor Permits {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, any Error>] = []

    public init(_ count: Int) {
        free = count
    }

    public func acquire() async throws {
        try Task.checkCancellation()
        if free > 0 {
            free -= 1
            return
        }
        try await withCheckedThrowingContinuation { waiting.append($0) }
    }

    public func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
