import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `moa-server`'s settings (issue 24, item 13): flags over `MOA_SERVER_…` variables over a JSON file
/// over the defaults, each bad value one sentence naming where it came from, and `--print-config`
/// showing what is in force — never the database's password.
@Suite("moa-server · configuration")
struct ConfigurationTests {
    static func server(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        try await Binaries.offloaded {
            try Binaries.runProcess(Binaries.url("moa-server"), arguments, stdin: nil, environment: environment)
        }
    }

    static func file(_ json: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moa-config-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url
    }

    /// The lines of `--print-config` by key: (value, source).
    static func settings(_ run: Run) -> [String: (value: String, source: String)] {
        var settings: [String: (String, String)] = [:]
        for line in run.out.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let rest = parts[1].trimmingCharacters(in: .whitespaces)
            if let open = rest.range(of: "  (", options: .backwards) {
                settings[parts[0]] = (String(rest[..<open.lowerBound]), String(rest[open.upperBound...].dropLast()))
            } else {
                settings[parts[0]] = (rest, "")
            }
        }
        return settings
    }

    @Test func flagsWinOverTheEnvironmentWhichWinsOverTheFile() async throws {
        let file = try Self.file(
            #"{"port": 9443, "host": "0.0.0.0", "logFormat": "json", "trustedProxies": ["10.0.0.5", "10.0.0.6"], "idleTimeout": 30}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await Self.server(
            ["--config", file.path, "--host", "127.0.0.2", "--print-config"],
            environment: ["MOA_SERVER_PORT": "7000", "MOA_SERVER_LOG_LEVEL": "debug"])
        #expect(run.status == 0, "\(run.err)")
        let settings = Self.settings(run)
        #expect(settings["host"]?.value == "127.0.0.2" && settings["host"]?.source == "--host")
        #expect(settings["port"]?.value == "7000" && settings["port"]?.source == "MOA_SERVER_PORT")
        #expect(settings["logLevel"]?.value == "debug")
        #expect(settings["logFormat"]?.value == "json" && settings["logFormat"]?.source == "logFormat in \(file.path)")
        #expect(settings["trustedProxies"]?.value == "10.0.0.5, 10.0.0.6")
        #expect(settings["idleTimeout"]?.value == "30 s")
        #expect(settings["maxConnections"]?.value == "4096" && settings["maxConnections"]?.source == "default")
    }

    @Test func theDatabasePasswordIsNeverPrinted() async throws {
        let file = try Self.file(#"{"database": "postgres://moa:hunter2-secret@db.example/bank"}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await Self.server(["--config", file.path, "--print-config"], environment: ["PGPASSWORD": "pg-secret-77"])
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.out.contains("hunter2-secret") && !run.out.contains("pg-secret-77"))
        #expect(Self.settings(run)["database"]?.value == "postgres://moa:•••@db.example/bank")
        #expect(Self.settings(run)["PGPASSWORD"]?.value == "(set, not shown)")
    }

    @Test func aBadValueIsOneSentenceNamingWhereItCameFrom() async throws {
        let unknown = try Self.file(#"{"prot": 8080}"#)
        let wrongKind = try Self.file(#"{"port": "eighty"}"#)
        defer { for file in [unknown, wrongKind] { try? FileManager.default.removeItem(at: file) } }
        let cases: [([String], [String: String], Int32, String)] = [
            (["--config", unknown.path], [:], 78, "has the key \"prot\", which moa-server does not know"),
            (["--config", wrongKind.path], [:], 64, "port in \(wrongKind.path) must be a whole number."),
            ([], ["MOA_SERVER_PORT": "abc"], 64, "MOA_SERVER_PORT must be a whole number."),
            ([], ["MOA_SERVER_PORT": "99999"], 64, "MOA_SERVER_PORT must be between 0 and 65535, not 99999."),
            ([], ["MOA_SERVER_LOG_FORMAT": "xml"], 64, #"MOA_SERVER_LOG_FORMAT must be one of text, json, not "xml"."#),
            (["--config", "/nonexistent/moa.json"], [:], 78, "The configuration file /nonexistent/moa.json cannot be read."),
        ]
        for (arguments, environment, status, sentence) in cases {
            let run = try await Self.server(arguments + ["--print-config"], environment: environment)
            #expect(run.status == status, "\(arguments) \(environment): \(run.err)")
            let lines = run.err.split(separator: "\n")
            #expect(lines.first?.hasPrefix("moa-server: ") == true && lines.first?.contains(sentence) == true, "\(run.err)")
            #expect(run.out.isEmpty)
        }
    }

    /// The files README's "Run moa-server for real" ships: the settings are ones moa-server takes, and
    /// the unit is one systemd takes (`systemd-analyze verify`, where systemd is installed).
    @Test func theShippedSettingsAndUnitAreValid() async throws {
        let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/deploy")
        let settings = try await Self.server(["--config", deploy.appendingPathComponent("config.json").path, "--print-config"])
        #expect(settings.status == 0, "\(settings.err)")
        #expect(Self.settings(settings)["tlsCert"]?.value == "/etc/moa-server/tls/fullchain.pem")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            print("systemd-analyze is not installed: docs/deploy/moa-server.service was not verified")
            return
        }
        // The unit as installed, its binary replaced by one that exists here.
        let unit = try String(contentsOf: deploy.appendingPathComponent("moa-server.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/moa-server", with: Binaries.url("moa-server").path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("moa-server.service")
        try Data(unit.utf8).write(to: copy)
        let verified = try await Binaries.offloaded {
            try Binaries.runProcess(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", copy.path], stdin: nil, environment: [:])
        }
        #expect(verified.status == 0, "\(verified.err)")
        #expect(verified.err.isEmpty, "\(verified.err)")
    }

    @Test func aServerRunsAsItsFileSays() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-config-server-\(UUID().uuidString)")
        let file = try Self.file(#"{"port": 0, "logFormat": "json", "data": "\#(folder.path)"}"#)
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: folder)
        }
        let log = folder.appendingPathExtension("log")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try await Binaries.offloaded { try ServerProcess.start(["--config", file.path], log: log) }
        defer { server.process.terminate() }
        let (_, response) = try await URLSession.shared.data(from: try #require(URL(string: server.url + "/readyz")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("moa.sqlite").path))
        try await server.stop(SIGTERM)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("{") }, "\(lines)")
    }
}
