import Foundation
import Synchronization
import Testing

/// Scripts the tests write and then run (stand-ins for `moa`, `swift`, `swift test`) while other
/// tests start processes of their own: none of those processes may keep the file open for writing,
/// or running it fails with "Text file busy" — as `JSONSchemasTests` once did in CI.
@Suite("Scripts.writeExecutable")
struct ExecutableScriptsTests {
    @Test("a script written while other processes start runs every time")
    func aScriptWrittenWhileProcessesStartRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-executables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let rounds = 300
        // Processes that live a while, started on a thread of their own for as long as the scripts
        // are written and run: each start is a chance to inherit a descriptor opened for writing.
        let spawner = Spawner()
        let thread = Thread { spawner.run() }
        thread.start()
        var failures: [String] = []
        for round in 0..<rounds {
            let script = folder.appendingPathComponent("script-\(round)")
            try Scripts.writeExecutable("#!/bin/sh\nexit 0\n", to: script)
            let run = Process()
            run.executableURL = script
            do {
                try run.run()
                run.waitUntilExit()
                if run.terminationStatus != 0 { failures.append("round \(round): exit \(run.terminationStatus)") }
            } catch {
                failures.append("round \(round): \(error)")
            }
        }
        let started = spawner.stop()
        #expect(started > 0, "no process was started beside the scripts")
        #expect(failures.isEmpty, "\(failures.count) of \(rounds) runs failed beside \(started) processes started: \(failures.prefix(3))")
    }

    /// Starts `sleep 0.3` processes one after another until stopped (at most 2,000); ``stop()`` waits for them all.
    final class Spawner: Sendable {
        private let stopping = Atomic<Bool>(false)
        private let started = Atomic<Int>(0)
        private let finished = DispatchSemaphore(value: 0)

        func run() {
            var sleepers: [Process] = []
            while !stopping.load(ordering: .acquiring) && sleepers.count < 2_000 {
                let sleeper = Process()
                sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
                sleeper.arguments = ["0.3"]
                if (try? sleeper.run()) != nil {
                    sleepers.append(sleeper)
                    started.add(1, ordering: .relaxed)
                }
            }
            for sleeper in sleepers { sleeper.waitUntilExit() }
            finished.signal()
        }

        /// Stops the starting, waits for every process started, and says how many there were.
        func stop() -> Int {
            stopping.store(true, ordering: .releasing)
            finished.wait()
            return started.load(ordering: .relaxed)
        }
    }

    @Test("the script is executable and holds exactly the text, replacing what was there")
    func theScriptHoldsItsText() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("moa-executable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(String(repeating: "x", count: 1000).utf8).write(to: file)
        try Scripts.writeExecutable("#!/bin/sh\necho 'héllo'\n", to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "#!/bin/sh\necho 'héllo'\n")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o755)
        #expect(try Scripts.runTool(file.path, []).stdout == "héllo\n")
    }
}
