import Foundation

/// Runs the repository's developer scripts as subprocesses.
enum Scripts {
    /// The repository root, found from this file's path (`Tests/ArchitectureTests/Scripts.swift`).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Tests/ArchitectureTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // the root

    struct Result: CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String

        /// The non-empty lines of standard output.
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    /// Writes `text` as an executable file at `url` (replacing it), through another process.
    /// Running a file fails with "Text file busy" (ETXTBSY) while any process holds it open for
    /// writing, and a process another test spawns meanwhile inherits every descriptor of ours until
    /// it execs — for as long as it lives, if the descriptor is newer than the highest `Process` saw
    /// before spawning. So the file is written by `install`, whose descriptor no one inherits.
    static func writeExecutable(_ text: String, to url: URL) throws {
        let draft = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent)-\(UUID().uuidString)")
        try Data(text.utf8).write(to: draft)
        defer { try? FileManager.default.removeItem(at: draft) }
        let install = try runTool("/usr/bin/install", ["-m", "0755", draft.path, url.path])
        guard install.status == 0 else { throw InstallFailed(result: install) }
    }

    struct InstallFailed: Error, CustomStringConvertible {
        let result: Result
        var description: String { "install could not write an executable: \(result)" }
    }

    /// Runs `Scripts/<name> <arguments>` from the repository root and waits for it.
    static func run(_ name: String, _ arguments: [String]) throws -> Result {
        try runTool(repositoryRoot.appendingPathComponent("Scripts").appendingPathComponent(name).path, arguments)
    }

    /// Runs the executable at `path` with `arguments` from `directory` (the repository root unless
    /// given), with `environment` added to ours, and waits for it.
    static func runTool(_ path: String, _ arguments: [String], environment added: [String: String] = [:], in directory: URL? = nil)
        throws -> Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment["MOA_ONLY"] = nil
        environment["CI"] = nil
        environment.merge(added) { _, new in new }
        process.environment = environment

        // Output goes to files, not pipes: a full pipe can never block the script.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("moa-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice

        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
