import Foundation
import SharedKit
import Testing

/// SharedKit's ``Locked``: one writer at a time, and a handover ThreadSanitizer can see. The second
/// half is proved by `Scripts/sanitize --thread`, which runs these tests: eight threads contend for
/// one lock, so its handovers go through the kernel's futex. With the bare `Mutex` in its place TSan
/// reports a Swift access race on the guarded dictionary (as it did in CI on Transfer's group queue);
/// through `Locked` it reports none, and the run fails on any report.
@Suite("Locked")
struct LockedTests {
    @Test func contendedWritersLoseNoUpdate() async {
        let counts = Locked<[Int: Int]>([:])
        let writers = 8
        let rounds = 5_000
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for round in 0..<rounds {
                        counts.withLock { $0[(round * 7 + writer) % 31, default: 0] += 1 }
                    }
                }
            }
        }
        let total = counts.withLock { $0.values.reduce(0, +) }
        #expect(total == writers * rounds)
    }

    @Test func threadsOutsideTheCooperativePoolContendToo() {
        let log = Locked<[Int]>([])
        let threads = 4
        let each = 2_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for item in 0..<each { log.withLock { $0.append(thread * each + item) } }
        }
        #expect(log.withLock { Set($0) } == Set(0..<(threads * each)))
    }

    @Test func aThrowingBodyLeavesWhatItChangedAndReleasesTheLock() {
        struct Refused: Error {}
        let value = Locked(1)
        #expect(throws: Refused.self) {
            try value.withLock { (number: inout Int) throws(Refused) in
                number = 2
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == 2)
    }

    @Test func aNonCopyableValueIsKeptInPlace() {
        struct Token: ~Copyable { var uses = 0 }
        let token = Locked(Token())
        token.withLock { $0.uses += 1 }
        #expect(token.withLock { $0.uses } == 1)
    }
}
