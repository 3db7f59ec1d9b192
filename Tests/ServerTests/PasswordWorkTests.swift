import Foundation
import SharedKit
import Testing

@testable import AuthServer

/// The requests that hash a password run at most one per core at a time, off the cooperative pool.
@Suite("moa-server · password work")
struct PasswordWorkTests {
    final class Gauge: Sendable {
        private let state = Locked((now: 0, most: 0, elsewhere: 0))
        var most: Int { state.withLock { $0.most } }
        var elsewhere: Int { state.withLock { $0.elsewhere } }
        func enter(onItsQueue: Bool) {
            state.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
                if !onItsQueue { $0.elsewhere += 1 }
            }
        }
        func leave() { state.withLock { $0.now -= 1 } }
    }

    @Test func atMostThePermittedNumberRunAtOnceAllOnTheirOwnQueue() async throws {
        let work = PasswordWork(concurrency: 2)
        let gauge = Gauge()
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<12 {
                group.addTask {
                    try await work.run {
                        gauge.enter(onItsQueue: work.executor.isCurrent)
                        defer { gauge.leave() }
                        usleep(20_000) // synchronous work, as scrypt is
                        return index
                    }
                }
            }
            var all: [Int] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.sorted() == Array(0..<12))
        #expect(gauge.most <= 2)
        #expect(gauge.most >= 1)
        #expect(gauge.elsewhere == 0)
    }

    @Test func aFailureGivesItsPermitBack() async throws {
        let work = PasswordWork(concurrency: 1)
        struct Refused: Error {}
        for _ in 0..<3 {
            await #expect(throws: Refused.self) { try await work.run { throw Refused() } }
        }
        #expect(try await work.run { 42 } == 42)
    }
}
