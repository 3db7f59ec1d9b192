import Foundation
import SharedKit
import Testing

/// Issue 15, item 9: the built binaries, as people use them. One `moa-server`, and homes that stand
/// for people on other machines: every `moa` command below is a new process, talking to the server
/// over 127.0.0.1 only.
@Suite("moa-server · end to end", .serialized)
struct ServerEndToEndTests {
    /// A scratch folder with the server's data and the homes.
    final class World: @unchecked Sendable {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moa-e2e-\(UUID().uuidString)")
        var data: URL { root.appendingPathComponent("server") }
        var log: URL { root.appendingPathComponent("server.log") }
        private(set) var server: ServerProcess?
        private(set) var url = ""
        private(set) var port = 0

        deinit {
            if let server, server.process.isRunning { server.process.terminate() }
            try? FileManager.default.removeItem(at: root)
        }

        /// Starts `moa-server` on a free port (or on the port it had before: a restart).
        /// Flags every start of the server is given besides its port and data folder.
        let serverFlags: [String]

        init(serverFlags: [String] = []) throws {
            self.serverFlags = serverFlags
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        func startServer() async throws {
            try await Binaries.offloaded { try self.startServerBlocking() }
        }

        private func startServerBlocking() throws {
            let started = try ServerProcess.start(["--port", String(port), "--data", data.path] + serverFlags, log: log)
            server = started
            port = started.port
            url = started.url
        }

        func stopServer(_ signal: Int32 = SIGTERM) async throws {
            try await server?.stop(signal)
            server = nil
        }

        func home(_ name: String) -> URL { root.appendingPathComponent(name) }

        /// The newest verification code mailed to `email`, from the server's outbox.
        func code(for email: String) throws -> String {
            try Outbox.code(for: email, in: data)
        }

        /// Runs `moa ARGS` for the home `name` (a new process each time).
        @discardableResult
        func moa(_ name: String, _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) async throws -> Run
        {
            try await Binaries.run(
                "moa", arguments, stdin: stdin, environment: ["MOA_HOME": home(name).path].merging(extra) { _, new in new })
        }

        /// Signs `email` up on this server (remembered by the home), verifies it with the mailed code, logs in.
        func person(_ name: String, _ email: String) async throws {
            let password = "plum-orbit-lantern-42-quietly"
            try await moa(name, ["auth", "signup", "--server", url, "--email", email, "--password-stdin"], stdin: password).expectSuccess()
            try await moa(name, ["auth", "verify", "--email", email, "--code", try code(for: email), "--password-stdin"], stdin: password)
                .expectSuccess()
            try await moa(name, ["auth", "login", "--email", email, "--password-stdin"], stdin: password).expectSuccess()
        }

        /// Opens a checking account for `name`: its number.
        func account(_ name: String) async throws -> String {
            let opened = try await moa(name, ["account", "open", "--type", "checking", "--name", name, "--json"]).expectSuccess()
            guard let number = opened.object["number"] as? String else { throw E2EError("no number in \(opened.out)") }
            return number
        }

        /// Starts the server; Ada and Bo sign up on it, from homes of their own, and open an account each.
        func adaAndBo() async throws -> (adas: String, bos: String) {
            try await startServer()
            try await person("ada", "ada@moa.example")
            try await person("bo", "bo@moa.example")
            return (try await account("ada"), try await account("bo"))
        }

        func balance(_ name: String, _ number: String) async throws -> Int64? {
            let shown = try await moa(name, ["account", "show", number, "--json"]).expectSuccess()
            let account = shown.object["account"] as? [String: Any] ?? shown.object
            return ((account["balance"] as? [String: Any])?["minor_units"] as? NSNumber)?.int64Value
        }
    }

    @Test func twoPeopleOnTwoMachinesSendEachOtherMoney() async throws {
        let world = try World()
        let (adas, bos) = try await world.adaAndBo()
        try await world.moa("ada", ["account", "deposit", adas, "2,500,000", "--memo", "월급"]).expectSuccess()

        let sent = try await world.moa("ada", ["transfer", "send", "--from", adas, "--to", bos, "300,000", "--memo", "rent", "--json"])
            .expectSuccess()
        #expect(sent.object["replayed"] as? Bool == false)
        #expect(try await world.balance("bo", bos) == 300_000)
        #expect(try await world.balance("ada", adas) == 2_200_000)
        let inbox = try await world.moa("bo", ["inbox", "--json"]).expectSuccess()
        let notices = inbox.object["notices"] as? [[String: Any]] ?? []
        #expect(notices.contains { $0["kind"] as? String == "money-received" && ($0["title"] as? String)?.contains("300,000") == true })

        // Bo cannot see Ada's account, nor send from it: "not found", 69, as for a number nobody has.
        let peek = try await world.moa("bo", ["account", "show", adas])
        #expect(peek.status == 69)
        #expect(peek.err.contains("You have no account"))
        let steal = try await world.moa("bo", ["transfer", "send", "--from", adas, "--to", bos, "1"])
        #expect(steal.status == 69)
        #expect(try await world.balance("ada", adas) == 2_200_000)

        // The session file stays owner-only; the remembered server is in the home.
        let mode =
            try FileManager.default.attributesOfItem(atPath: world.home("ada").appendingPathComponent("session.json").path)[
                .posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try String(contentsOf: world.home("ada").appendingPathComponent("server.json"), encoding: .utf8).contains(world.url))
        // The server logged every request, and no secret: no password, no token, no code.
        let log = try String(contentsOf: world.log, encoding: .utf8)
        #expect(log.contains("path=/v1/transfers") && log.contains("status=201"))
        let session = try JSONSerialization.jsonObject(with: Data(contentsOf: world.home("ada").appendingPathComponent("session.json")))
        let tokens = ["accessToken", "refreshToken"].compactMap { (session as? [String: Any])?[$0] as? String }
        #expect(tokens.count == 2)
        for secret in tokens + ["plum-orbit-lantern-42-quietly", try world.code(for: "bo@moa.example")] {
            #expect(!log.contains(secret))
        }
        let doctor = try await world.moa("ada", ["doctor", "--json"]).expectSuccess()
        let server = doctor.object["server"] as? [String: Any]
        #expect(server?["ok"] as? Bool == true)
        #expect(server?["api_version"] as? String == "1.2.0")
    }

    @Test func anExpiredOrRevokedAccessTokenIsRefreshedOnce() async throws {
        let world = try World()
        try await world.startServer()
        try await world.person("ada", "ada@moa.example")
        _ = try await world.account("ada")
        let sessionFile = world.home("ada").appendingPathComponent("session.json")
        func session() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(contentsOf: sessionFile)) as? [String: Any] ?? [:]
        }
        func edit(_ change: (inout [String: Any]) -> Void) throws {
            var object = try session()
            change(&object)
            try JSONSerialization.data(withJSONObject: object).write(to: sessionFile)
            chmod(sessionFile.path, 0o600)
        }

        // Expired by its own clock: refreshed before the request.
        let first = try session()["refreshToken"] as? String
        try edit { $0["accessExpiresAt"] = "2020-01-01T00:00:00.000Z" }
        #expect(try await world.moa("ada", ["account", "list", "--json"]).expectSuccess().array.count == 1)
        let second = try session()["refreshToken"] as? String
        #expect(second != nil && second != first)

        // Refused by the server (401) while the client thought it live: one refresh, one retry.
        try edit { $0["accessToken"] = String(repeating: "x", count: 43) }
        #expect(try await world.moa("ada", ["account", "list", "--json"]).expectSuccess().array.count == 1)
        #expect(try session()["refreshToken"] as? String != second)

        // A copied old refresh token presented again: the server revokes the family; the session ends.
        try edit {
            $0["refreshToken"] = second
            $0["accessToken"] = String(repeating: "y", count: 43)
        }
        let reused = try await world.moa("ada", ["account", "list"])
        #expect(reused.status == 77)
        #expect(!FileManager.default.fileExists(atPath: sessionFile.path))
    }

    @Test func theServerRestartsMidSession() async throws {
        let world = try World()
        try await world.startServer()
        try await world.person("ada", "ada@moa.example")
        let adas = try await world.account("ada")
        try await world.moa("ada", ["account", "deposit", adas, "5,000"]).expectSuccess()
        let other = try await world.account("ada")
        try await world.stopServer()
        let down = try await world.moa("ada", ["account", "list"])
        #expect(down.status == 75)
        #expect(down.err.contains("Cannot reach moa-server"))
        // A refused connection sent nothing, and says so (issue 24, item 9: it said "may or may not have been sent").
        let refused = try await world.moa("ada", ["transfer", "send", "--from", adas, "--to", other, "1,000", "--idempotency-key", "k-1"])
        #expect(refused.status == 75)
        #expect(refused.err.contains("the connection was refused"), "\(refused.err)")
        #expect(refused.err.contains("Nothing reached it"), "\(refused.err)")
        #expect(!refused.err.contains("may or may not"))
        try await world.startServer()
        try await world.moa("ada", ["transfer", "send", "--from", adas, "--to", other, "1,000", "--idempotency-key", "k-1"]).expectSuccess()
        try await world.moa("ada", ["account", "deposit", adas, "1,000"]).expectSuccess()
        #expect(try await world.balance("ada", adas) == 5_000)
        #expect(try await world.balance("ada", other) == 1_000)
    }

    /// Tokens go back only to the server that issued them, and a server is remembered only once a
    /// sign-up or a login on it succeeded.
    @Test func aSessionNeverTravelsToAnotherServer() async throws {
        let world = try World()
        try await world.startServer()
        try await world.person("ada", "ada@moa.example")
        let first = world.url
        let elsewhere = try World()
        try await elsewhere.startServer()

        let there = try await world.moa("ada", ["account", "list"], environment: ["MOA_SERVER_URL": elsewhere.url])
        #expect(there.status == 77)
        #expect(there.err.contains("Not logged in"))
        #expect(try String(contentsOf: elsewhere.log, encoding: .utf8).contains("/v1/") == false)
        // A login that fails on a mistyped server leaves the home as it was.
        let typo = try await world.moa(
            "ada", ["auth", "login", "--server", "http://127.0.0.1:9", "--email", "ada@moa.example", "--password-stdin"],
            stdin: "plum-orbit-lantern-42-quietly")
        #expect(typo.status == 75)
        #expect(try String(contentsOf: world.home("ada").appendingPathComponent("server.json"), encoding: .utf8).contains(first))
        try await world.moa("ada", ["account", "list"]).expectSuccess()
        try await elsewhere.stopServer()

        // `--server embedded`: this machine's own bank again, where Ada has no account.
        let local = try await world.moa(
            "ada", ["auth", "login", "--server", "embedded", "--email", "ada@moa.example", "--password-stdin"],
            stdin: "plum-orbit-lantern-42-quietly")
        #expect(local.status == 77)
        #expect(!FileManager.default.fileExists(atPath: world.home("ada").appendingPathComponent("server.json").path))
        #expect(try await world.moa("ada", ["account", "list"]).status == 77)
    }

    @Test func whatStaysOnTheMachineInRemoteMode() async throws {
        let world = try World()
        try await world.startServer()
        try await world.person("ada", "ada@moa.example")
        // No PIN yet with a server: one sentence, 69.
        let pin = try await world.moa("ada", ["auth", "pin", "set", "--pin-stdin"], stdin: "482916\n482916")
        #expect(pin.status == 69)
        #expect(pin.err.contains("A PIN cannot be set yet"))
        // Limits set on the server, then all reset: the writes go in an order the server accepts.
        try await world.moa("ada", ["settings", "set", "transfer.daily-limit", "50,000,000"]).expectSuccess()
        try await world.moa("ada", ["settings", "set", "transfer.per-transfer-limit", "20,000,000"]).expectSuccess()
        // A MOA_… variable of this machine does not change a limit the server enforces.
        let shown = try await world.moa(
            "ada", ["settings", "get", "transfer.per-transfer-limit", "--json"],
            environment: ["MOA_TRANSFER_PER_TRANSFER_LIMIT": "10,000"]
        ).expectSuccess()
        #expect("\(shown.object["value"] ?? "")".contains("20000000"))
        try await world.moa("ada", ["settings", "reset", "--yes"]).expectSuccess()
        let daily = try await world.moa("ada", ["settings", "get", "transfer.daily-limit", "--json"]).expectSuccess()
        #expect(daily.object["source"] as? String == "default")
        // Deleting the user deletes it on the server and here.
        let deleted = try await world.moa("ada", ["auth", "delete", "--confirm", "ada@moa.example", "--json"]).expectSuccess()
        // Archive's tickets and preferences are the server's now: erased there, with the rest.
        let erased = deleted.object["erased"] as? [String] ?? []
        #expect(erased.contains("Archive"))
        let again = try await world.moa(
            "ada", ["auth", "login", "--email", "ada@moa.example", "--password-stdin"], stdin: "plum-orbit-lantern-42-quietly")
        #expect(again.status == 77)
    }

    /// Archive follows the person: a ticket and preferences set on one home are seen, with the same
    /// taste card, on a second home logged in to the same server; each home recommends from its own
    /// catalogue, never an event archived on either; removed on one, gone from both.
    @Test func aPersonsTicketsFollowThemToAnotherHome() async throws {
        let world = try World()
        try await world.startServer()
        try await world.person("desk", "ada@moa.example")
        try await world.moa(
            "laptop", ["auth", "login", "--server", world.url, "--email", "ada@moa.example", "--password-stdin"],
            stdin: "plum-orbit-lantern-42-quietly"
        ).expectSuccess()
        for home in ["desk", "laptop"] { try await world.moa(home, ["archive", "import", "--sample"]).expectSuccess() }
        let found = try await world.moa("desk", ["archive", "events", "--text", "불꽃", "--json"]).expectSuccess()
        let events = found.object["events"] as? [[String: Any]] ?? []
        let fireworks = try #require(events.first?["id"] as? String, "no fireworks in \(found.out)")

        let added = try await world.moa("desk", ["archive", "add", fireworks, "--rating", "5", "--memo", "불꽃!", "--json"])
            .expectSuccess()
        let ticketID = try #require(added.object["id"] as? String, "no id in \(added.out)")
        try await world.moa("desk", ["archive", "preferences", "set", "--districts", "Mapo-gu", "--categories", "연극"]).expectSuccess()

        let listed = try await world.moa("laptop", ["archive", "list", "--json"]).expectSuccess().array as? [[String: Any]] ?? []
        #expect(listed.map { $0["id"] as? String } == [ticketID])
        #expect(listed.first?["memo"] as? String == "불꽃!" && listed.first?["rating"] as? Int == 5)
        let tastes = try await (world.moa("desk", ["archive", "taste", "--json"]), world.moa("laptop", ["archive", "taste", "--json"]))
        #expect(try tastes.0.expectSuccess().out == (try tastes.1.expectSuccess().out))
        #expect(tastes.1.object["tickets"] as? Int == 1)
        let recommended = try await world.moa("laptop", ["archive", "recommend", "--json"]).expectSuccess()
        #expect(recommended.object["basis"] as? String == "preferences")
        let picks = recommended.object["recommendations"] as? [[String: Any]] ?? []
        #expect(!picks.contains { ($0["event"] as? [String: Any])?["id"] as? String == fireworks })
        // The server logged the archive's routes, for the person's token only.
        #expect(try String(contentsOf: world.log, encoding: .utf8).contains("path=/v1/archive/tickets"))

        try await world.moa("laptop", ["archive", "remove", String(ticketID.prefix(8))]).expectSuccess()
        let after = try await world.moa("desk", ["archive", "list", "--json"]).expectSuccess()
        #expect(after.array.isEmpty)
        // Logged out, the archive is not the server's to show.
        try await world.moa("desk", ["auth", "logout"]).expectSuccess()
        #expect(try await world.moa("desk", ["archive", "list"]).status == 77)
    }

    /// Four client processes send in both directions while the server is killed (SIGKILL) and
    /// restarted: every transfer a client printed a receipt for exists exactly once, money is
    /// conserved, and the ledger audit passes.
    @Test func aBurstSurvivesTheServerBeingKilled() async throws {
        let world = try World()
        let (adas, bos) = try await world.adaAndBo()
        try await world.moa("ada", ["account", "deposit", adas, "1,000,000"]).expectSuccess()
        try await world.moa("bo", ["account", "deposit", bos, "1,000,000"]).expectSuccess()
        // A second home for each person: four processes, four sessions.
        for (name, email) in [("ada2", "ada@moa.example"), ("bo2", "bo@moa.example")] {
            try await world.moa(
                name, ["auth", "login", "--server", world.url, "--email", email, "--password-stdin"], stdin: "plum-orbit-lantern-42-quietly"
            )
            .expectSuccess()
        }

        let perClient = 15
        let progress = Progress()
        let clients: [(home: String, from: String, to: String)] = [
            ("ada", adas, bos), ("ada2", adas, bos), ("bo", bos, adas), ("bo2", bos, adas),
        ]
        let receipts = try await withThrowingTaskGroup(of: [String].self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    defer { progress.withLock { $0.ended += 1 } }
                    var ids: [String] = []
                    for send in 0..<perClient {
                        let key = "burst-\(index)-\(send)"
                        // A send that could not reach the server (75) is retried with the same key.
                        for _ in 0..<100 {
                            let run = try await world.moa(
                                client.home,
                                ["transfer", "send", "--from", client.from, "--to", client.to, "1,000", "--idempotency-key", key, "--json"])
                            if run.status == 0, let id = run.object["id"] as? String {
                                ids.append(id)
                                progress.withLock { $0.sent += 1 }
                                break
                            }
                            guard run.status == 75 else { throw E2EError("\(key): exit \(run.status): \(run.err)") }
                            progress.withLock { $0.refused += 1 }
                            try await Task.sleep(for: .milliseconds(100))
                        }
                    }
                    return ids
                }
            }
            // Kill the server once the burst is under way (a fifth of it sent), and bring it back.
            if try await progress.reached(clients.count * perClient / 5, clients: clients.count, within: .seconds(120)) {
                try await world.stopServer(SIGKILL)
                try await Task.sleep(for: .milliseconds(300))
                try await world.startServer()
            }
            var all: [String] = []
            for try await ids in group { all += ids }
            return all
        }

        #expect(receipts.count == clients.count * perClient)
        // The kill was felt: some sends could not reach the server and were retried.
        #expect(progress.withLock { $0.refused } > 0)
        // Every printed receipt exists exactly once on the server.
        var listed: [String] = []
        for home in ["ada", "bo"] {
            let page = try await world.moa(home, ["transfer", "list", "--limit", "200", "--json"]).expectSuccess()
            listed += (page.object["transfers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(Set(receipts) == Set(listed))
        #expect(listed.count == Set(listed).count)
        #expect(Set(receipts).count == receipts.count)
        // Money is conserved: each person sent as much as they received.
        let total = try #require(try await world.balance("ada", adas)) + (try #require(try await world.balance("bo", bos)))
        #expect(total == 2_000_000)

        try await world.stopServer()
        let audit = try await Binaries.run("moa-server", ["--audit", "--data", world.data.path], stdin: nil, environment: [:])
        #expect(audit.status == 0, "\(audit.err)")
        #expect(audit.out.hasPrefix("Ledger OK: "), "\(audit.out)")
    }

    @Test func plainHTTPToAnotherMachineIsRefusedBeforeAnyRequest() async throws {
        let world = try World()
        let refused = try await world.moa(
            "ada", ["auth", "login", "--email", "ada@moa.example", "--password-stdin"], stdin: "plum-orbit-lantern-42-quietly",
            environment: ["MOA_SERVER_URL": "http://example.com"])
        #expect(refused.status == 78)
        #expect(refused.err.contains("plain HTTP"))
        #expect(refused.err.split(separator: "\n").first?.hasPrefix("error: ") == true)
        let option = try await world.moa(
            "ada", ["auth", "signup", "--server", "http://10.0.0.8:8080", "--email", "a@b.example", "--password-stdin"], stdin: "x")
        #expect(option.status == 78)
        #expect(!FileManager.default.fileExists(atPath: world.home("ada").appendingPathComponent("server.json").path))
    }
}

/// How far a burst got: receipts printed, sends refused for want of a server.
final class Progress: Sendable {
    private let state = Locked((sent: 0, refused: 0, ended: 0))
    func withLock<T: Sendable>(_ body: (inout (sent: Int, refused: Int, ended: Int)) -> T) -> T { state.withLock { body(&$0) } }

    /// Waits until `sent` sends have succeeded: true. False as soon as all `clients` have ended
    /// without it (one failed, and the task group rethrows why); a stall past `timeout` throws.
    /// A broken server must fail the test, never hang it.
    func reached(_ sent: Int, clients: Int, within timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (done, ended) = withLock { ($0.sent, $0.ended) }
            if done >= sent { return true }
            if ended >= clients { return false }
            guard ContinuousClock.now < deadline else { throw E2EError("the load stalled at \(done) sends") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// One finished process.
struct Run: @unchecked Sendable {
    let status: Int32
    let out: String
    let err: String
    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [String: Any] ?? [:] }
    var array: [Any] { (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [Any] ?? [] }

    @discardableResult
    func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) throws -> Run {
        guard status == 0 else { throw E2EError("exit \(status): \(err)\(out)") }
        return self
    }
}

struct E2EError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A `moa-server` process a test started, and the address its first line announced.
final class ServerProcess: @unchecked Sendable { // its process is only signalled and waited for
    let process: Process
    let port: Int
    var url: String { "http://127.0.0.1:\(port)" }

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    /// Starts `moa-server ARGUMENTS`, its log (swift-log, standard error) appended to `log`, and waits
    /// for its first line. Blocks: call it off the cooperative pool (``Binaries/offloaded(_:)``).
    static func start(_ arguments: [String], log: URL) throws -> ServerProcess {
        let process = Process()
        process.executableURL = Binaries.url("moa-server")
        process.arguments = arguments
        process.environment = Binaries.environment
        let out = Pipe()
        process.standardOutput = out
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let logFile = try FileHandle(forWritingTo: log)
        try logFile.seekToEnd()
        process.standardError = logFile
        try process.run()
        let line = ServerProcessTests.firstLine(of: out)
        guard line.hasPrefix("Listening on http://127.0.0.1:"), let port = Int(line.split(separator: ":").last ?? "") else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let said = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").suffix(3).joined(separator: " | ") ?? ""
            throw E2EError("moa-server did not start: \(line) (exit \(process.terminationStatus): \(said))")
        }
        return ServerProcess(process: process, port: port)
    }

    /// Sends `signal` and waits for the process to end.
    func stop(_ signal: Int32) async throws {
        kill(process.processIdentifier, signal)
        let process = process
        try await Binaries.offloaded { process.waitUntilExit() }
    }
}

/// The mails a server wrote to its outbox (`DATA/outbox/`).
enum Outbox {
    /// The newest code of `kind` (`verify`, `reset`) mailed to `email` by the server whose data folder is `data`.
    static func code(for email: String, in data: URL, kind: String = "verify") throws -> String {
        let outbox = data.appendingPathComponent("outbox")
        for file in try FileManager.default.contentsOfDirectory(atPath: outbox.path).sorted().reversed()
        where file.hasSuffix("-\(kind).eml") {
            let mail = try String(contentsOf: outbox.appendingPathComponent(file), encoding: .utf8)
            if mail.contains("To: \(email)"), let range = mail.range(of: #"code is \d{6}"#, options: .regularExpression) {
                return String(mail[range].suffix(6))
            }
        }
        throw E2EError("no verification mail to \(email)")
    }
}

/// The executables SwiftPM built next to the test bundle.
enum Binaries {
    static func url(_ name: String) -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// This process's environment, with passwords hashed at the tests' cost (`MOA_TESTING_CHEAP_SCRYPT=1`,
    /// honoured by debug builds: OWASP's cost takes about 1.8 s of CPU a hash there).
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["MOA_TESTING_CHEAP_SCRYPT": "1"]) { _, tests in tests }
    }

    /// Runs `name` to completion on a thread of its own: waiting for a process blocks, and a blocked
    /// thread of Swift's cooperative pool (two, on two cores) would starve every other test of the run.
    static func run(_ name: String, _ arguments: [String], stdin: String?, environment: [String: String]) async throws -> Run {
        try await offloaded { try runBlocking(name, arguments, stdin: stdin, environment: environment) }
    }

    /// Runs `work` on a Dispatch thread, off the cooperative pool.
    static func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    static func runBlocking(_ name: String, _ arguments: [String], stdin: String?, environment: [String: String]) throws -> Run {
        try runProcess(url(name), arguments, stdin: stdin, environment: environment)
    }

    /// Runs the executable at `executable` to completion (blocking).
    static func runProcess(_ executable: URL, _ arguments: [String], stdin: String?, environment: [String: String]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var variables = Binaries.environment
        variables["NO_COLOR"] = "1"
        variables.removeValue(forKey: "MOA_SERVER_URL")
        for (key, value) in environment { variables[key] = value }
        process.environment = variables
        let input = Pipe()
        let out = Pipe()
        let err = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data((stdin + "\n").utf8)) }
        try input.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, out: String(decoding: output, as: UTF8.self), err: String(decoding: error, as: UTF8.self))
    }
}
