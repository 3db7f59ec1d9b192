import Foundation
import Testing

/// A test that fails one run in two, on purpose — and only when `MOA_PLANTED_FLAKY` names a counter
/// file (it is skipped otherwise): the fixture with which `.ci/run` shows that the test runners
/// (`Scripts/lib/test_runs.py`) run a failing test again, report one that passes on a retry as
/// flaky and keep the run green, and fail the run when it fails every time
/// (`MOA_PLANTED_FLAKY_MODE=always`).
@Suite("the planted flaky test (a fixture of the test runners)")
struct PlantedFlakyTests {
    static let counter = ProcessInfo.processInfo.environment["MOA_PLANTED_FLAKY"]

    @Test(.enabled(if: counter != nil, "a fixture of the test runners' retries: set MOA_PLANTED_FLAKY to a counter file"))
    func failsOneRunInTwo() throws {
        let path = try #require(Self.counter)
        let runs = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0) } ?? 0
        try String(runs + 1).write(toFile: path, atomically: true, encoding: .utf8)
        let always = ProcessInfo.processInfo.environment["MOA_PLANTED_FLAKY_MODE"] == "always"
        #expect(!always && runs % 2 == 1, "run \(runs + 1) of the planted test, which fails one run in two")
    }
}
