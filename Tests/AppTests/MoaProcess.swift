import Foundation
import Testing

/// Runs the built `moa` binary in a temporary `$MOA_HOME`, as a person at a terminal would (minus the TTY).
///
/// Passwords and PINs are hashed at ``ScryptParameters/testsOnly``'s cost (`MOA_TESTING_CHEAP_SCRYPT=1`,
/// honoured by debug builds): at OWASP's, scrypt in a debug build takes about 1.8 s of CPU a hash, the
/// most of this suite's time. `realPasswordCost` keeps OWASP's (asserted by `AuthEndToEndTests`).
struct MoaProcess {
    struct Result {
        let status: Int32
        let out: String
        let err: String
    }

    let home: URL
    var realPasswordCost: Bool

    init(realPasswordCost: Bool = false) throws {
        self.realPasswordCost = realPasswordCost
        home = FileManager.default.temporaryDirectory.appendingPathComponent("moa-e2e-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: home)
    }

    /// The `moa` executable next to the test bundle (SwiftPM builds it with the tests), or `$MOA_BINARY`.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["MOA_BINARY"] { return URL(fileURLWithPath: path) }
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("moa")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("moa")
    }

    @discardableResult
    func run(_ arguments: [String], stdin: String = "", environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["MOA_HOME"] = home.path
        environment.removeValue(forKey: "NO_COLOR")
        // The home's own files, never the keyring of whoever runs the tests (Scripts/check-keyring runs moa on one).
        environment["MOA_CREDENTIAL_STORE"] = "files"
        if !realPasswordCost { environment["MOA_TESTING_CHEAP_SCRYPT"] = "1" }
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let result = Result(
            status: process.terminationStatus, out: String(decoding: out, as: UTF8.self), err: String(decoding: err, as: UTF8.self))
        if arguments.contains("--json") { Self.capture(arguments, result) }
        return result
    }

    /// With `MOA_JSON_CAPTURE` naming a folder, every `--json` run is kept there — arguments, status and
    /// both streams, one JSON file each — for `Scripts/check-json-schemas` to validate against the
    /// command's JSON Schema in docs/json (`.ci/run` does, after the tests).
    static func capture(_ arguments: [String], _ result: Result) {
        guard let folder = ProcessInfo.processInfo.environment["MOA_JSON_CAPTURE"], !folder.isEmpty else { return }
        let record: [String: Any] = ["argv": arguments, "status": Int(result.status), "stdout": result.out, "stderr": result.err]
        guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        let url = URL(fileURLWithPath: folder).appendingPathComponent("\(UUID().uuidString.lowercased()).json")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? data.write(to: url)
    }

    /// Runs `moa ARGUMENTS` on a pseudo-terminal (util-linux's `script`), as a person at a terminal
    /// would: standard output is a TTY. What the terminal showed comes back as `out` (`err` is empty).
    func runOnTerminal(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
        let quoted = ([Self.binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", quoted.joined(separator: " "), "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["MOA_HOME"] = home.path
        environment["MOA_CREDENTIAL_STORE"] = "files"
        environment["TERM"] = "xterm-256color"
        environment.removeValue(forKey: "NO_COLOR")
        if !realPasswordCost { environment["MOA_TESTING_CHEAP_SCRYPT"] = "1" }
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // A pager stopped by the terminal (or waiting for a key) must fail the test, not hang it.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        // Killed by the watchdog: -1 (no command exits so).
        let status = process.terminationReason == .uncaughtSignal ? -1 : process.terminationStatus
        return Result(status: status, out: String(decoding: out, as: UTF8.self), err: "")
    }

    /// Runs `sqlite3` on this home's database; its output, trimmed (a failing statement fails the test).
    @discardableResult
    func sql(_ statement: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [home.appendingPathComponent("moa.sqlite").path, statement]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3: \(statement)", sourceLocation: sourceLocation)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The code in the newest mail of `kind` (`verify`, `reset`) to `email` in the outbox, read as a
    /// person would. Newest by the file's time (the name's is to the second, and two mails can share it).
    func mailedCode(to email: String, kind: String = "verify") throws -> String {
        let outbox = home.appendingPathComponent("outbox")
        let mails = try FileManager.default.contentsOfDirectory(at: outbox, includingPropertiesForKeys: [.contentModificationDateKey])
            .filter { $0.lastPathComponent.hasSuffix("-\(kind).eml") }
            .map { (url: $0, text: try String(contentsOf: $0, encoding: .utf8)) }
            .filter { $0.text.split(whereSeparator: \.isNewline).contains("To: \(email)") }
        let newest = try mails.max { first, second in
            let dates = try [first.url, second.url].map {
                try $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
            }
            return (dates[0] ?? .distantPast, first.url.lastPathComponent) < (dates[1] ?? .distantPast, second.url.lastPathComponent)
        }
        let text = try #require(newest, "no \(kind) mail to \(email) in \(outbox.path)").text
        return try #require(text.components(separatedBy: CharacterSet.decimalDigits.inverted).first { $0.count == 6 })
    }
}
