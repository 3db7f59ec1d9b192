import Foundation
import Testing

/// The test runners' retries, flaky and quarantined tests, JUnit report and history
/// (`Scripts/lib/test_runs.py`, `Scripts/flaky-report`), driven by a stand-in for `swift test`
/// that writes Swift Testing's report as it would: one test that passes, and one that fails as the
/// case says. (`.ci/run` shows the same on a real Swift Testing test, `PlantedFlakyTests`.)
@Suite("Scripts/lib/test_runs.py and Scripts/flaky-report")
struct TestRunsTests {
    /// A stand-in for `swift test`: `--xunit-output X.xml` gets `X-swift-testing.xml`; each call
    /// counts itself in `calls`; `FAKE_MODE` says how `Fake.Suite/b()` fares.
    static let fakeSwiftTest = #"""
        #!/bin/bash
        out=""; filter=""
        while [ $# -gt 0 ]; do
          case "$1" in
            --xunit-output) out="$2"; shift ;;
            --filter) filter="$2"; shift ;;
          esac
          shift
        done
        n=$(( $(cat calls 2>/dev/null || echo 0) + 1 )); echo $n > calls
        [ "$FAKE_MODE" = crash ] && exit 3
        report="${out%.xml}-swift-testing.xml"
        b_fails=no
        case "$FAKE_MODE" in
          flaky|flaky-issues|outside|outside-issues) [ $((n % 2)) = 1 ] && b_fails=yes ;;
          always|quarantined|hostile) b_fails=yes ;;
        esac
        message='b broke'
        [ "$FAKE_MODE" = hostile ] && message=$'b broke &lt;\x1b[31mred\xe2\x80\xae\x01'
        {
          counted=0; [ $b_fails = yes ] && counted=1
          # flaky-issues: b() records three issues when it fails, each a failure of the suite and of its case
          issues=1
          case "$FAKE_MODE" in flaky-issues|outside-issues) issues=3; [ $b_fails = yes ] && counted=3 ;; esac
          # outside: one more failure than the test cases hold (an issue recorded outside any test)
          case "$FAKE_MODE" in outside|outside-issues) [ -z "$filter" ] && counted=$((counted + 1)) ;; esac
          echo "<?xml version=\"1.0\" encoding=\"UTF-8\"?><testsuites><testsuite name=\"TestResults\" failures=\"$counted\">"
          [ -z "$filter" ] && echo '<testcase classname="Fake.Suite" name="a()" time="0.5" />'
          if [ $b_fails = yes ]; then
            echo "<testcase classname=\"Fake.Suite\" name=\"b()\" time=\"0.25\">"
            for i in $(seq $issues); do
              suffix=""; [ $issues -gt 1 ] && suffix=" ($i)"
              echo "<failure message=\"$message$suffix\" />"
            done
            echo "</testcase>"
          else
            echo '<testcase classname="Fake.Suite" name="b()" time="0.25" />'
          fi
          echo '</testsuite></testsuites>'
        } > "$report"
        [ $b_fails = yes ] && exit 1
        exit 0
        """#

    struct Run {
        let result: Scripts.Result
        let junit: String
        let history: [[String: Any]]
        let directory: URL
    }

    /// One run of the fake through `test_runs.py run --retries 2 --junit`, in a directory of its own
    /// holding `quarantine` as its Tests/quarantine.txt.
    static func run(_ mode: String, quarantine: String = "", in given: URL? = nil) throws -> Run {
        let directory = given ?? FileManager.default.temporaryDirectory.appendingPathComponent("moa-test-runs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Tests"), withIntermediateDirectories: true)
        let fake = directory.appendingPathComponent("fake-swift-test")
        try Scripts.writeExecutable(fakeSwiftTest, to: fake)
        try Data(quarantine.utf8).write(to: directory.appendingPathComponent("Tests/quarantine.txt"))
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("calls"))
        let junit = directory.appendingPathComponent("junit.xml")
        let history = directory.appendingPathComponent("history.jsonl")
        let result = try Scripts.runTool(
            "/usr/bin/env",
            [
                "python3", Scripts.repositoryRoot.appendingPathComponent("Scripts/lib/test_runs.py").path, "run", "--retries", "2",
                "--junit", junit.path, "--label", "fake", "--", fake.path,
            ],
            environment: ["FAKE_MODE": mode, "MOA_TEST_HISTORY": history.path], in: directory)
        let lines = (try? String(contentsOf: history, encoding: .utf8))?.split(separator: "\n") ?? []
        return Run(
            result: result, junit: (try? String(contentsOf: junit, encoding: .utf8)) ?? "",
            history: lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
            directory: directory)
    }

    static func validate(_ junit: URL) throws -> Scripts.Result {
        try Scripts.runTool(
            "/usr/bin/env",
            ["python3", Scripts.repositoryRoot.appendingPathComponent("Scripts/lib/test_runs.py").path, "--validate", junit.path])
    }

    static func outcome(_ run: Run, _ test: String, at index: Int = -1) -> String? {
        let record = index < 0 ? run.history.last : run.history[index]
        return ((record?["tests"] as? [String: Any])?[test] as? [String: Any])?["outcome"] as? String
    }

    /// `flaky-issues`: the test recorded three issues when it failed — three failures of the suite
    /// and of its case, none unexplained, each in the report as that attempt's message.
    @Test(
        "a test that fails and then passes alone is flaky: the run is green, and the report and the history say flaky",
        arguments: [
            ("flaky", "flaky: attempt 1 failed: b broke"),
            ("flaky-issues", "flaky: attempt 1 failed: b broke (1); b broke (2); b broke (3)"),
        ])
    func aTestThatPassesOnARetryIsFlaky(mode: String, said: String) throws {
        let run = try Self.run(mode)
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.result.status == 0, "\(run.result)")
        #expect(run.result.stdout.contains("fake: 1 passed, 1 flaky, 0 quarantined, 0 failed"), "\(run.result)")
        #expect(run.result.stdout.contains("flaky: Fake.Suite/b() — failed 1 of 2 attempts, then passed"), "\(run.result)")
        #expect(
            run.junit.contains(#"<testcase classname="Fake.Suite" name="b()""#)
                && run.junit.contains("<system-out>\(said)"), "\(run.junit)")
        #expect(!run.junit.contains("<failure"), "\(run.junit)")
        #expect(try Self.validate(run.directory.appendingPathComponent("junit.xml")).status == 0)
        #expect(Self.outcome(run, "Fake.Suite/b()") == "flaky" && Self.outcome(run, "Fake.Suite/a()") == "passed")
        #expect(run.history.last?["green"] as? Bool == true)
    }

    @Test(
        "a failure the report counts on no test case keeps the run red, even when the failing test passes on a retry",
        arguments: ["outside", "outside-issues"])
    func aFailureOutsideEveryTestIsNotExplainedByAFlakyOne(mode: String) throws {
        let run = try Self.run(mode)
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.result.status == 1, "\(run.result)")
        #expect(Self.outcome(run, "Fake.Suite/b()") == "flaky")
        #expect(run.history.last?["green"] as? Bool == false)
    }

    @Test("a test that fails every time fails the run after 1 + 2 attempts, with each attempt's message in the report")
    func aTestThatAlwaysFailsFailsTheRun() throws {
        let run = try Self.run("always")
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.result.status == 1, "\(run.result)")
        #expect(run.result.stdout.contains("fake: 1 passed, 0 flaky, 0 quarantined, 1 failed"), "\(run.result)")
        #expect(run.junit.contains(#"failures="1""#) && run.junit.contains("attempt 3: b broke"), "\(run.junit)")
        #expect(try String(contentsOf: run.directory.appendingPathComponent("calls"), encoding: .utf8) == "3\n")
        #expect(Self.outcome(run, "Fake.Suite/b()") == "failed")
        #expect(run.history.last?["green"] as? Bool == false)
    }

    @Test("a quarantined test that fails is run and reported as skipped, and the run stays green")
    func aQuarantinedTestNeverFailsTheRun() throws {
        let run = try Self.run("quarantined", quarantine: "# known flaky\nFake.Suite/b()  # since last week\n")
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.result.status == 0, "\(run.result)")
        #expect(run.junit.contains(#"<skipped message="quarantined (Tests/quarantine.txt): failed 3 times: b broke""#), "\(run.junit)")
        #expect(try Self.validate(run.directory.appendingPathComponent("junit.xml")).status == 0)
        #expect(Self.outcome(run, "Fake.Suite/b()") == "quarantined")
    }

    @Test("a run that ends without a report (a crash) keeps its status, is one error in the report, and no history is made up")
    func aRunWithoutAReportFailsAsItDid() throws {
        let run = try Self.run("crash")
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.result.status == 3, "\(run.result)")
        #expect(run.junit.contains(#"<error message="swift test exited with status 3"#), "\(run.junit)")
        #expect(try Self.validate(run.directory.appendingPathComponent("junit.xml")).status == 0)
        #expect(run.history.isEmpty)
    }

    @Test("a failure message with terminal controls and a bidi override reaches neither the terminal nor the XML as such")
    func hostileMessagesAreEscaped() throws {
        let run = try Self.run("hostile")
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.result.status == 1)
        #expect(!run.result.stdout.contains("\u{1B}") && !run.result.stdout.contains("\u{202E}"), "\(run.result)")
        #expect(run.result.stdout.contains(#"b broke <\u{1B}[31mred\u{202E}\u{1}"#), "\(run.result)")
        #expect(try Self.validate(run.directory.appendingPathComponent("junit.xml")).status == 0)
    }

    @Test("flaky-report gives each test's flaky rate over the last runs, and when a quarantined test may leave")
    func theReportReadsTheHistory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moa-test-runs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        for mode in ["flaky", "pass", "flaky", "pass"] { _ = try Self.run(mode, in: directory) }
        let history = directory.appendingPathComponent("history.jsonl").path
        // Lines that are no run — cut, not UTF-8, nested too deep, a number too long — are passed over.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: history))
        try handle.seekToEnd()
        try handle.write(
            contentsOf: Data("{\"run\": \"cut\n".utf8) + Data([0xFF, 0xFE, 0x0A])
                + Data((String(repeating: "[", count: 100_000) + "\n").utf8)
                + Data(("{\"tests\": {}, \"n\": " + String(repeating: "9", count: 5_000) + "}\n").utf8))
        try handle.close()
        let report = try Scripts.run("flaky-report", ["--history", history, "--runs", "4", "--json", "--root", directory.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any], "\(report)")
        let flaky = try #require(object["flaky"] as? [[String: Any]])
        #expect(object["runs"] as? Int == 4)
        #expect(flaky.count == 1)
        #expect(
            flaky.first?["test"] as? String == "Fake.Suite/b()" && flaky.first?["flaky"] as? Int == 2
                && flaky.first?["rate"] as? Double == 0.5)

        // Two more green runs, then b() quarantined: green at its first attempt in the last 3 runs in
        // a row (flaky before them), so it may leave when the report reads 3 runs, not 4.
        for _ in 0..<2 { _ = try Self.run("pass", in: directory) }
        try Data("Fake.Suite/b()\n".utf8).write(to: directory.appendingPathComponent("Tests/quarantine.txt"))
        for runs in [3, 4] {
            let held = try Scripts.run("flaky-report", ["--history", history, "--runs", "\(runs)", "--json", "--root", directory.path])
            let entry = try #require(
                ((try JSONSerialization.jsonObject(with: Data(held.stdout.utf8)) as? [String: Any])?["quarantine"] as? [[String: Any]])?
                    .first)
            #expect(entry["green_in_a_row"] as? Int == 3, "\(held)")
            #expect(entry["can_leave"] as? Bool == (runs == 3), "\(held)")
        }
        let human = try Scripts.run("flaky-report", ["--history", history, "--runs", "3", "--root", directory.path])
        #expect(human.stdout.contains("Fake.Suite/b(): green at its first attempt in the last 3 runs in a row — can leave the quarantine"))
    }

    @Test("the strict JUnit check refuses what the schema does not allow and counts that do not add up")
    func theJUnitCheckIsStrict() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moa-junit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = [
            #"<testsuites><testsuite name="A" tests="2"><testcase name="x"/></testsuite></testsuites>"#: "tests=2 but it holds 1",
            #"<testsuites><testsuite name="A" tests="1"><testcase name="x"><flakyFailure/></testcase></testsuite></testsuites>"#:
                "<flakyFailure> may not be inside <testcase>",
            #"<testsuites><testsuite name="A" tests="1"><testcase classname="A"/></testsuite></testsuites>"#: "<testcase> lacks name",
            #"<testsuites><testsuite name="A" tests="1" time="soon"><testcase name="x"/></testsuite></testsuites>"#: "is not a number",
            "<testsuites><testsuite": "not an XML file",
        ]
        for (index, (xml, problem)) in cases.enumerated() {
            let file = directory.appendingPathComponent("\(index).xml")
            try Data(xml.utf8).write(to: file)
            let result = try Self.validate(file)
            #expect(result.status == 1 && result.stderr.contains(problem), "\(xml): \(result)")
        }
    }
}
