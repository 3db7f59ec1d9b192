import Foundation
import Testing

/// `Scripts/bench-pipeline`: a bad argument is refused with 64 before any database is touched; on
/// the tests' PostgreSQL (when there is one) a short run prints both ways' rows and the difference.
/// No figure is asserted: the script measures, the docs report.
@Suite("Scripts/bench-pipeline")
struct BenchPipelineTests {
    @Test(
        "an unknown argument, and counts out of range, are refused with 64 and one sentence",
        arguments: [
            (["--bogus"], "unknown argument '--bogus'"),
            (["--rounds", "0"], "--rounds is a whole number from 1 to 99."),
            (["--transactions", "1e3"], "--transactions is a whole number from 1 to 9999999."),
            (["--transactions", "$(touch /tmp/moa-bench-pipeline-injected)"], "--transactions is a whole number from 1 to 9999999."),
        ])
    func badArgumentsAreRefused(arguments: [String], message: String) throws {
        let result = try Scripts.run("bench-pipeline", arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/moa-bench-pipeline-injected"))
    }

    @Test(
        "a short run on the tests' PostgreSQL prints a row for each way and what pipelining saved",
        .enabled(if: ProcessInfo.processInfo.environment["MOA_TEST_POSTGRES_URL"].map { !$0.isEmpty } ?? false))
    func aShortRunPrintsBothWays() throws {
        let result = try Scripts.run("bench-pipeline", ["--transactions", "200", "--rounds", "1"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("| awaited | 8 | "), "\(result)")
        #expect(result.stdout.contains("| pipelined | 3 | "), "\(result)")
        #expect(result.stdout.contains("Pipelined, a transaction took"), "\(result)")
        // The database it made on the server it was given is gone.
        let left = try Scripts.runTool(
            "/usr/bin/env",
            [
                "psql", ProcessInfo.processInfo.environment["MOA_TEST_POSTGRES_URL"] ?? "", "-qAtc",
                "SELECT count(*) FROM pg_database WHERE datname = 'moa_pipeline'",
            ])
        #expect(left.stdout == "0\n", "\(left)")
    }
}
