import Dispatch
import Foundation
import SharedKit

/// Where `moa-server` runs the requests that hash a password (sign-up, login, password change,
/// reset): scrypt at OWASP's parameters takes about 128 MiB and a good part of a second of one
/// core, synchronously. Run on Swift's cooperative pool (one thread per core), two logins would
/// stall every other request; run without a bound, a burst of logins would take gigabytes.
///
/// So they run on threads of their own (a task executor on a Dispatch queue, so the waiting is not
/// the cooperative pool's), at most one per core at a time; the others wait, suspended, in order.
public final class PasswordWork: Sendable {
    let executor = QueueExecutor(label: "moa-server.password-work")
    private let permits: Permits

    public init(concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)) {
        permits = Permits(concurrency)
    }

    /// Runs `work` on the password threads, when a permit is free.
    public func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await permits.acquire()
        do {
            let result = try await withTaskExecutorPreference(executor) { try await work() }
            await permits.release()
            return result
        } catch {
            await permits.release()
            throw error
        }
    }
}
