import Foundation
import Testing

/// `Scripts/build-times`: how it reads the compiler's own timing output — frontend statistics
/// files per job, function-body times per file — and the critical path it finds through the graph.
@Suite("Scripts/build-times")
struct BuildTimesTests {
    /// Runs `code` with Scripts/build-times loaded as `bt` and a temporary folder `tmp`; its output.
    static func python(_ code: String) throws -> Scripts.Result {
        let prelude = """
            import json, sys, tempfile
            from pathlib import Path
            from importlib.machinery import SourceFileLoader
            sys.dont_write_bytecode = True
            bt = SourceFileLoader("bt", "\(Scripts.repositoryRoot.appendingPathComponent("Scripts/build-times").path)").load_module()
            tmp = Path(tempfile.mkdtemp())

            """
        return try Scripts.runTool("/usr/bin/env", ["python3", "-c", prelude + code])
    }

    @Test("a module's time is the sum of its jobs' walls, emit-module included; other files in the folder are passed over")
    func modulesFromFrontendStatistics() throws {
        let result = try Self.python(
            """
            def job(name, seconds):
                (tmp / f"stats-1-swift-frontend-{name}-x86_64_unknown_linux_gnu-{'swiftmodule' if name.endswith('-all') else 'o'}-Onone-7.json").write_text(
                    json.dumps({f"time.swift-frontend.{name}.wall": seconds, "time.swift.IRGen.wall": 99}))
            job("Money-all", 1.5)
            job("Money-Money.swift", 2.25)
            job("GRDB-Row-Decoding.swift", 4.0)
            (tmp / "stats-garbage.json").write_text("{")
            modules, jobs = bt.module_times(tmp)
            print(json.dumps({"modules": modules, "jobs": {k: sorted(v) for k, v in jobs.items()}}, sort_keys=True))
            """)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"{"jobs": {"GRDB": [["Row-Decoding.swift", 4.0]], "Money": [["(emit module)", 1.5], ["Money.swift", 2.25]]}, "modules": {"GRDB": 4.0, "Money": 3.75}}"#,
            "\(result)")
    }

    @Test("a file's time is its function bodies' type-checking, ours only (not the packages' checkouts)")
    func filesFromFunctionBodyTimes() throws {
        let result = try Self.python(
            """
            root = tmp / "repo"
            log = tmp / "build.log"
            log.write_text("\\n".join([
                f"12.50ms\\t{root}/Core/A.swift:3:5\\tgetter x",
                f"0.50ms\\t{root}/Core/A.swift:9:1\\tfunc y()",
                f"7.00ms\\t{root}/Tests/BTests/B.swift:1:1\\tfunc z()",
                f"900.00ms\\t{root}/.build/checkouts/GRDB/Row.swift:1:1\\tfunc w()",
                "warning: something else",
            ]))
            print(json.dumps({f: round(s, 6) for f, s in bt.file_times(log, root).items()}, sort_keys=True))
            """)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"Core/A.swift": 0.013, "Tests/BTests/B.swift": 0.007}"#,
            "\(result)")
    }

    @Test("the critical path is the chain of dependencies whose times add up to the most, not the slowest module's neighbours")
    func criticalPath() throws {
        let result = try Self.python(
            """
            ours = {"Kit": 5.0, "Big": 20.0, "A": 1.0, "B": 30.0, "Tests": 2.0}
            dependencies = {"Big": {"Kit"}, "A": {"Kit"}, "B": {"A"}, "Tests": {"Big", "B", "External"}}
            print(json.dumps(bt.critical_path(ours, dependencies)))
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"[38.0, ["Kit", "A", "B", "Tests"]]"#, "\(result)")
    }
}
