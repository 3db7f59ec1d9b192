import Foundation
import Testing

/// Whether jsonschema, referencing and PyYAML are installed (`.ci/run` installs them from PyPI when missing).
private func pythonHasTheValidator() -> Bool {
    (try? Scripts.runTool("/usr/bin/env", ["python3", "-c", "import jsonschema, referencing, yaml"]).status) == 0
}

/// `Scripts/check-json-schemas` on captures made by hand (a stand-in `moa` gives the command tree):
/// an output its schema allows passes; a wrong type, a missing key, a failed run without a JSON
/// error and a command without a schema each fail the check, naming the run.
@Suite("Scripts/check-json-schemas", .enabled(if: pythonHasTheValidator()))
struct JSONSchemasTests {
    let folder: URL
    let moa: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-json-schemas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        moa = folder.appendingPathComponent("moa")
        let tree =
            #"{"command":{"commandName":"moa","subcommands":[{"commandName":"account","subcommands":[{"commandName":"show"},{"commandName":"open"}]},{"commandName":"tour"}]}}"#
        try Scripts.writeExecutable("#!/bin/sh\necho '\(tree)'\n", to: moa)
    }

    private func capture(_ name: String, _ argv: [String], status: Int, stdout: String = "", stderr: String = "") throws {
        let captures = folder.appendingPathComponent("captured")
        try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
        let record: [String: Any] = ["argv": argv, "status": status, "stdout": stdout, "stderr": stderr]
        try JSONSerialization.data(withJSONObject: record).write(to: captures.appendingPathComponent("\(name).json"))
    }

    private func check() throws -> Scripts.Result {
        try Scripts.run("check-json-schemas", [folder.appendingPathComponent("captured").path, "--moa", moa.path])
    }

    static let account =
        #"{"id":"110198037001","number":"110-1980-3700-1","name":"Main","type":"checking","balance":{"minor_units":5000,"currency":"KRW"},"closed":false,"opened_at":"2026-11-27T12:00:00Z"}"#

    @Test func anOutputItsSchemaAllowsPasses() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try capture("ok", ["account", "open", "--type", "checking", "--name", "Main", "--json"], status: 0, stdout: Self.account)
        try capture(
            "refused", ["account", "show", "1", "--json"], status: 69,
            stderr: #"{"error":{"message":"No account 1.","hint":null,"exit_status":69}}"#)
        let result = try check()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("2 documents from 2 runs of 2 commands; 0 mismatches, 0 commands without a schema"))
    }

    @Test func aWrongTypeAMissingKeyAnUnwrittenErrorAndAnUnknownCommandFail() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try capture(
            "type", ["account", "open", "--json"], status: 0,
            stdout: Self.account.replacingOccurrences(of: #""minor_units":5000"#, with: #""minor_units":"5000""#))
        try capture(
            "missing", ["account", "open", "--json"], status: 0,
            stdout: Self.account.replacingOccurrences(of: #""closed":false,"#, with: ""))
        try capture("silent", ["account", "show", "1", "--json"], status: 69, stderr: "error: No account 1.\n")
        try capture("unknown", ["tour", "--json"], status: 0, stdout: "{}")
        let result = try check()
        #expect(result.status == 1)
        #expect(result.stderr.contains("at balance/minor_units: '5000' is not of type 'integer'"))
        #expect(result.stderr.contains("'closed' is a required property"))
        #expect(result.stderr.contains("a failed --json run wrote no JSON error on standard error"))
        #expect(result.stderr.contains("moa tour --json has no schema (docs/json/tour.schema.json)"))
    }
}
