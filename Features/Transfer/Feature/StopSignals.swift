import Dispatch
import SharedKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGTERM and SIGINT into a request to stop between two batch rows, so a terminated batch
/// ends after its current row's transaction (committed or rolled back, never half-written) and
/// still prints its summary. A second signal ends the process at once, as it would have. Installed
/// only while a batch runs; the previous handlers come back afterwards.
final class StopSignals: Sendable {
    #if canImport(Darwin)
        private typealias Handler = sig_t
    #else
        private typealias Handler = sighandler_t
    #endif

    private struct Installed {
        var sources: [any DispatchSourceSignal] = []
        var previous: [(Int32, Handler?)] = []
    }

    private let stopped = Atomic<Bool>(false)
    private let installed = Locked(Installed())

    static func install(_ signals: [Int32] = [SIGTERM, SIGINT]) -> StopSignals {
        let watcher = StopSignals()
        watcher.installed.withLock { installed in
            for number in signals {
                installed.previous.append((number, signal(number, SIG_IGN)))
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [weak watcher] in watcher?.received(number) }
                source.resume()
                installed.sources.append(source)
            }
        }
        return watcher
    }

    /// Whether a stop was requested.
    var isStopRequested: Bool { stopped.load(ordering: .acquiring) }

    /// Restores the previous handlers.
    func uninstall() {
        installed.withLock { installed in
            for source in installed.sources { source.cancel() }
            for (number, handler) in installed.previous { signal(number, handler) }
            installed = Installed()
        }
    }

    private func received(_ number: Int32) {
        let (exchanged, _) = stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        guard !exchanged else { return }
        // The second time: stop now. SQLite rolls back an unfinished transaction.
        signal(number, SIG_DFL)
        raise(number)
    }
}
