import Foundation
import Testing

/// Scripts the tests write and then run (stand-ins for `moa`, `swift`, `swift test`) while other
/// tests start processes of their own: none of those processes may keep the file open for writing,
/// or running it fails with "Text file busy" — as `JSONSchemasTests` once did in CI.
@Suite("Scripts.writeExecutable")
struct ExecutableScriptsTests {
    @Test("a script written while other processes start runs every time")
    func aScriptWrittenWhileProcessesStartRuns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-executables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let rounds = 300
        let busy = try await withThrowingTaskGroup(of: [String].self) { group in
            // Processes that live a while, started as fast as they can be: each is a chance to
            // inherit a descriptor opened for writing in the other task.
            group.addTask {
                var sleepers: [Process] = []
                for _ in 0..<rounds {
                    let sleeper = Process()
                    sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
                    sleeper.arguments = ["0.3"]
                    try sleeper.run()
                    sleepers.append(sleeper)
                }
                for sleeper in sleepers { sleeper.waitUntilExit() }
                return []
            }
            group.addTask {
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
                return failures
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(busy.isEmpty, "\(busy.count) of \(rounds) runs failed: \(busy.prefix(3))")
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
