import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MoaServer
import Storage
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `moa-server`'s routes, in process: health, and a problem document (RFC 9457) for the rest.
@Suite("moa-server · routes")
struct ServerRouteTests {
    static func server() throws -> (MoaServer, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-server-\(UUID().uuidString)")
        return (try MoaServer(folder: MoaHome(root: folder), logger: Logger(label: "test")), folder)
    }

    @Test func healthAnswersWhileItRuns() async throws {
        let (server, folder) = try Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = Application(router: try server.router())
        try await app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let health = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: String]
                #expect(health == ["status": "ok", "version": ServerCommand.version, "api_version": "1.2.0"])
            }
        }
    }

    @Test func anUnknownAddressOrMethodIsAProblemDocument() async throws {
        let (server, folder) = try Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = Application(router: try server.router())
        try await app.test(.router) { client in
            for (uri, method, status, kind) in [
                ("/v1/nothing", HTTPRequest.Method.get, HTTPResponse.Status.notFound, "not-found"),
                ("/v1/nothing/at/all", .get, .notFound, "not-found"),
            ] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == status, "\(method) \(uri)")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    let problem = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
                    #expect(problem?["type"] as? String == "https://moa.example/problems/\(kind)")
                    #expect(problem?["status"] as? Int == status.code)
                    #expect(problem?["exit_status"] as? Int == 69) // what `moa` exits with for "not found"
                    #expect((problem?["detail"] as? String)?.hasSuffix(".") == true)
                }
            }
        }
    }

    @Test func aBodyOverTheLimitIs413WhateverTheAddress() async throws {
        let (server, folder) = try Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = Application(router: try server.router())
        let large = ByteBuffer(repeating: UInt8(ascii: "x"), count: MoaServer.maximumBodyBytes + 1)
        let small = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1_024)
        try await app.test(.router) { client in
            for (uri, body, status, kind, exit) in [
                ("/v1/transfers", large, HTTPResponse.Status.contentTooLarge, "payload-too-large", 65),
                ("/healthz", large, .contentTooLarge, "payload-too-large", 65),
                // Within the limit: read, and refused for what it is (no Content-Type: not JSON).
                ("/v1/auth/login", small, .unsupportedMediaType, "unsupported-media-type", 65),
            ] {
                try await client.execute(uri: uri, method: .post, body: body) { response in
                    #expect(response.status == status, "\(uri), \(body.readableBytes) bytes")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    let problem = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
                    #expect(problem?["type"] as? String == "https://moa.example/problems/\(kind)")
                    #expect(problem?["exit_status"] as? Int == exit)
                }
            }
        }
    }

    @Test func theDataFolderIsCreatedForItsOwnerOnly() throws {
        let (server, folder) = try Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(FileManager.default.fileExists(atPath: server.folder.databaseURL.path))
        #expect(FileManager.default.fileExists(atPath: server.folder.outboxURL.path))
    }
}

/// The real `moa-server` binary: its first line, its health while it runs, a graceful stop on SIGTERM
/// and SIGINT, and its usage errors.
@Suite("moa-server · the process")
struct ServerProcessTests {
    /// `moa-server` next to the test bundle (SwiftPM builds it with the tests).
    static var binary: URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("moa-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("moa-server")
    }

    /// Runs `moa-server` to completion (for flags that exit at once).
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    /// Starts `moa-server --port 0 --data FOLDER` (and `extra`); returns it with the first line it printed.
    static func start(data folder: URL, extra: [String] = []) throws -> (process: Process, firstLine: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0", "--data", folder.path] + extra
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        return (process, firstLine(of: out))
    }

    /// The first line a process writes to `pipe` (waiting for it; empty if it ends first).
    static func firstLine(of pipe: Pipe) -> String {
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            first.append(chunk)
        }
        return String(decoding: first, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func listensAnswersAndStopsGracefully(signal: Int32) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Starting, reading the first line and waiting for the end block: off the cooperative pool.
        let (process, line) = try await Binaries.offloaded { try Self.start(data: folder) }
        defer { if process.isRunning { process.terminate() } }

        // The first line says where it listens (a free port, as --port 0 asks).
        #expect(line.hasPrefix("Listening on http://127.0.0.1:"), "\(line)")
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        #expect(port > 0)

        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/healthz")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let health = try JSONSerialization.jsonObject(with: body) as? [String: String]
        #expect(health?["status"] == "ok")

        kill(process.processIdentifier, signal)
        try await Binaries.offloaded { process.waitUntilExit() }
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    @Test func versionAndUsageErrors() async throws {
        let version = try await Binaries.offloaded { try Self.run(["--version"]) }
        #expect(version.status == 0)
        #expect(version.out.hasPrefix("moa-server "))
        for arguments in [["--port", "70000"], ["--port", "abc"], ["--data", ""], ["--nope"]] {
            let refused = try await Binaries.offloaded { try Self.run(arguments) }
            #expect(refused.status == 64, "\(arguments): \(refused.err)")
            let lines = refused.err.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("moa-server: ") && lines[0].hasSuffix("."), "\(arguments): \(refused.err)")
            #expect(!refused.err.contains(".."))
        }
    }

    @Test func aPortInUseIsOneSentenceAnd69() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, line) = try await Binaries.offloaded { try Self.start(data: folder) }
        defer { first.terminate() }
        let port = line.split(separator: ":").last.map(String.init) ?? ""
        let second = try await Binaries.offloaded { try Self.run(["--port", port, "--data", folder.path + "-2"]) }
        defer { try? FileManager.default.removeItem(atPath: folder.path + "-2") }
        #expect(second.status == 69, "\(second.err)")
        #expect(second.err.hasPrefix("moa-server: Cannot listen on 127.0.0.1:\(port)"), "\(second.err)")
    }
}
