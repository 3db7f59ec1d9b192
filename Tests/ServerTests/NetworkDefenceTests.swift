import Foundation
import NIOCore
import Testing

@testable import HTTPServing
@testable import MoaServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 24: the built `moa-server` as an attacker on the network meets it — takeover, lockout,
/// enumeration, starvation, a data folder others can write — over 127.0.0.1 only.
@Suite("moa-server · on a real network", .serialized)
struct NetworkDefenceTests {
    static let adasPassword = "plum-orbit-lantern-42-quietly"
    static let mallorysPassword = "mallory chose this one, 2026"

    /// A server of its own in a scratch folder, with extra flags.
    final class Server: @unchecked Sendable {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moa-net-\(UUID().uuidString)")
        var data: URL { root.appendingPathComponent("server") }
        private(set) var process: ServerProcess?

        init() throws { try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true) }

        deinit {
            if let process, process.process.isRunning { process.process.terminate() }
            try? FileManager.default.removeItem(at: root)
        }

        func start(_ flags: [String] = []) async throws {
            let log = root.appendingPathComponent("server.log")
            let data = data
            process = try await Binaries.offloaded { try ServerProcess.start(["--port", "0", "--data", data.path] + flags, log: log) }
        }

        var port: Int { process?.port ?? 0 }
        var url: String { process?.url ?? "" }

        /// One request; `from` is sent as `X-Forwarded-For` (which only a trusting server believes).
        func send(_ method: String, _ path: String, json: [String: Any]? = nil, from client: String? = nil) async throws -> Answer {
            var request = URLRequest(url: URL(string: url + path) ?? URL(fileURLWithPath: "/"))
            request.httpMethod = method
            request.timeoutInterval = 30
            if let json {
                request.httpBody = try JSONSerialization.data(withJSONObject: json)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            if let client { request.setValue(client, forHTTPHeaderField: "X-Forwarded-For") }
            let (body, response) = try await URLSession.shared.data(for: request)
            let http = response as? HTTPURLResponse
            return Answer(
                status: http?.statusCode ?? 0, body: String(decoding: body, as: UTF8.self),
                retryAfter: (http?.value(forHTTPHeaderField: "Retry-After")).flatMap(Int.init))
        }

        func code(for email: String, kind: String = "verify") throws -> String { try Outbox.code(for: email, in: data, kind: kind) }

        /// Mails to `email` in the outbox.
        func mails(to email: String) throws -> [String] {
            let outbox = data.appendingPathComponent("outbox")
            return try FileManager.default.contentsOfDirectory(atPath: outbox.path).compactMap {
                try? String(contentsOf: outbox.appendingPathComponent($0), encoding: .utf8)
            }.filter { $0.contains("To: \(email)") }
        }
    }

    struct Answer: Sendable {
        let status: Int
        let body: String
        let retryAfter: Int?
    }

    /// Defect 1: Mallory signs up first with Ada's address and his password. Ada's own sign-up is
    /// answered as any other, she verifies with the code from her mailbox and her password — and
    /// Mallory's password opens nothing, before or after.
    @Test func aSignUpWithSomeoneElsesAddressNeverTakesItOver() async throws {
        let server = try Server()
        try await server.start()
        let mallory = try await server.send(
            "POST", "/v1/auth/signup", json: ["email": "ada@moa.example", "password": Self.mallorysPassword])
        #expect(mallory.status == 201)
        let ada = try await server.send("POST", "/v1/auth/signup", json: ["email": "ada@moa.example", "password": Self.adasPassword])
        #expect(ada.status == 201, "Ada's own sign-up is not refused: \(ada.body)")
        #expect(ada.body == mallory.body, "the same answer")
        let early = try await server.send("POST", "/v1/auth/login", json: ["email": "ada@moa.example", "password": Self.mallorysPassword])
        #expect(early.status == 403)
        let code = try server.code(for: "ada@moa.example")
        let verified = try await server.send(
            "POST", "/v1/auth/verify", json: ["email": "ada@moa.example", "code": code, "password": Self.adasPassword])
        #expect(verified.status == 200, "\(verified.body)")
        let stolen = try await server.send("POST", "/v1/auth/login", json: ["email": "ada@moa.example", "password": Self.mallorysPassword])
        #expect(stolen.status == 403, "Mallory's password must open nothing: \(stolen.body)")
        let owner = try await server.send("POST", "/v1/auth/login", json: ["email": "ada@moa.example", "password": Self.adasPassword])
        #expect(owner.status == 200)
    }

    /// Defect 4: sign-up, verify, resend and reset answer alike — status and body — for an address
    /// with an account, one waiting for its code, and one nobody has.
    @Test func theAPITellsNobodyWhichAddressesExist() async throws {
        let server = try Server()
        try await server.start()
        let password = "a long passphrase nobody guesses"
        _ = try await server.send("POST", "/v1/auth/signup", json: ["email": "ada@moa.example", "password": password])
        _ = try await server.send(
            "POST", "/v1/auth/verify",
            json: ["email": "ada@moa.example", "code": try server.code(for: "ada@moa.example"), "password": password])
        _ = try await server.send("POST", "/v1/auth/signup", json: ["email": "bo@moa.example", "password": password])
        var answers: [String: [String]] = [:]
        for email in ["ada@moa.example", "bo@moa.example", "cy@moa.example"] {
            let masked = { (answer: Answer) in
                "\(answer.status) \(answer.body.replacingOccurrences(of: email, with: "EMAIL"))"
            }
            answers[email] = [
                masked(try await server.send("POST", "/v1/auth/signup", json: ["email": email, "password": password])),
                masked(
                    try await server.send(
                        "POST", "/v1/auth/verify", json: ["email": email, "code": "000001", "password": password])),
                masked(try await server.send("POST", "/v1/auth/verify/resend", json: ["email": email])),
                masked(try await server.send("POST", "/v1/auth/password/reset", json: ["email": email])),
                masked(
                    try await server.send(
                        "POST", "/v1/auth/password/reset/complete",
                        json: ["email": email, "code": "000001", "new_password": password])),
            ]
        }
        #expect(answers["ada@moa.example"] == answers["cy@moa.example"])
        #expect(answers["bo@moa.example"] == answers["cy@moa.example"])
        #expect(answers["cy@moa.example"]?.first?.hasPrefix("201 ") == true)
        #expect(try server.mails(to: "ada@moa.example").contains { $0.contains("Someone tried to sign up") }, "the owner is told")
    }

    /// Defect 2: guesses from one client lock that client out, not the owner: from another client she
    /// logs in within seconds, and a reset (which proves the mailbox) is never blocked. A client that
    /// is not a trusted proxy cannot choose its address with `X-Forwarded-For`.
    @Test func guessesFromOneClientNeverLockTheOwnerOut() async throws {
        let server = try Server()
        try await server.start(["--trusted-proxy", "127.0.0.1"])
        _ = try await server.send("POST", "/v1/auth/signup", json: ["email": "ada@moa.example", "password": Self.adasPassword])
        _ = try await server.send(
            "POST", "/v1/auth/verify",
            json: ["email": "ada@moa.example", "code": try server.code(for: "ada@moa.example"), "password": Self.adasPassword])
        let attacker = "203.0.113.9"
        var statuses: [Int] = []
        for _ in 0..<8 {
            let guess = try await server.send(
                "POST", "/v1/auth/login", json: ["email": "ada@moa.example", "password": "a guess that is wrong, surely"], from: attacker)
            statuses.append(guess.status)
        }
        #expect(Array(statuses.prefix(5)) == [403, 403, 403, 403, 403])
        #expect(statuses.last == 429, "the guesser is stopped: \(statuses)")
        let start = ContinuousClock.now
        var owner = try await server.send(
            "POST", "/v1/auth/login", json: ["email": "ada@moa.example", "password": Self.adasPassword], from: "198.51.100.7")
        if owner.status == 429, let wait = owner.retryAfter, wait <= 8 {
            try await Task.sleep(for: .seconds(wait))
            owner = try await server.send(
                "POST", "/v1/auth/login", json: ["email": "ada@moa.example", "password": Self.adasPassword], from: "198.51.100.7")
        }
        #expect(owner.status == 200, "\(owner.body)")
        #expect(ContinuousClock.now - start < .seconds(10), "the owner logs in within seconds")
        let stillLocked = try await server.send(
            "POST", "/v1/auth/login", json: ["email": "ada@moa.example", "password": Self.adasPassword], from: attacker)
        #expect(stillLocked.status == 429)

        // The reset: asked and completed from the attacker's own address — never blocked by logins.
        _ = try await server.send("POST", "/v1/auth/password/reset", json: ["email": "ada@moa.example"], from: attacker)
        let reset = try await server.send(
            "POST", "/v1/auth/password/reset/complete",
            json: [
                "email": "ada@moa.example", "code": try server.code(for: "ada@moa.example", kind: "reset"),
                "new_password": "an entirely new passphrase 2026",
            ], from: attacker)
        #expect(reset.status == 200, "\(reset.body)")

        // A server that trusts no proxy counts the peer, whatever X-Forwarded-For says.
        let untrusting = try Server()
        try await untrusting.start()
        var spoofed: [Int] = []
        for index in 0..<7 {
            let guess = try await untrusting.send(
                "POST", "/v1/auth/login", json: ["email": "bo@moa.example", "password": "a guess that is wrong, surely"],
                from: "198.51.100.\(index)")
            spoofed.append(guess.status)
        }
        #expect(spoofed.last == 429, "X-Forwarded-For from an untrusted peer changes nothing: \(spoofed)")
    }

    /// Defect 3: a thousand idle connections and two hundred sending their header a byte at a time
    /// do not stop a client's transfers or the health check; the server closes them at its idle
    /// timeout; past its ceiling a connection is refused at once with 503.
    @Test func idleAndSlowConnectionsDoNotStarveTheServer() async throws {
        // This process holds 1,200 connections too: the server's own way of raising the limit.
        let files = ConnectionLimits.raiseOpenFileLimit() ?? 0
        try #require(files >= 1_600, "this test needs 1,600 open files; the system allows \(files)")
        let world = try ServerEndToEndTests.World(serverFlags: ["--idle-timeout", "4"])
        let (adas, bos) = try await world.adaAndBo()
        try await world.moa("ada", ["account", "deposit", adas, "100,000"]).expectSuccess()

        let idle = try (0..<1_000).map { _ in try RawConnection(port: world.port) }
        let slow = try (0..<200).map { _ in try RawConnection(port: world.port) }
        let dribbling = Task {
            let line = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8)
            for index in 0..<line.count * 4 { // one byte each half second, for longer than the timeout
                for connection in slow { connection.send([line[index % line.count]]) }
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        for send in 0..<3 {
            try await world.moa("ada", ["transfer", "send", "--from", adas, "--to", bos, "1,000", "--idempotency-key", "held-\(send)"])
                .expectSuccess()
        }
        let health = try await URLSession.shared.data(from: URL(string: world.url + "/healthz") ?? URL(fileURLWithPath: "/"))
        #expect((health.1 as? HTTPURLResponse)?.statusCode == 200)
        try await Task.sleep(for: .seconds(6))
        #expect(idle.filter(\.isClosedByPeer).count == idle.count, "every idle connection is closed at the idle timeout")
        #expect(slow.filter(\.isClosedByPeer).count == slow.count, "a header sent a byte at a time is cut off too")
        dribbling.cancel()
        #expect(try await world.balance("bo", bos) == 3_000)
    }

    /// What counts as a JSON body's type: `application/json`, in any case, with spaces or tabs
    /// around it, and at most `charset=utf-8`; anything else is refused with 415.
    @Test(arguments: [
        ("application/json", true), ("Application/JSON", true), (" application/json\t", true), ("application/json; charset=utf-8", true),
        ("application/json;charset=UTF-8", true), ("application/json; charset = utf-8", true), ("application/json;", true),
        ("\tapplication/json\t;\tcharset=utf-8\t", true),
        ("application/json; charset=latin1", false), ("text/plain", false), ("application/jsonx", false), ("application/ json", false),
        ("application/json; charset=utf-8; x=y", false), ("", false), ("application/json\u{00A0}", false), ("ａpplication/json", false),
    ])
    func aBodyIsJSONOnlyWhenItsTypeSaysSo(_ contentType: String, _ isJSON: Bool) {
        #expect(BodyLimitMiddleware<MoaRequestContext>.isJSON(contentType) == isJSON)
    }

    /// The watch on the bodies being read cancels the reading of one still going at its deadline,
    /// within a tick, and leaves one read in time alone.
    @Test func aBodyStillBeingReadAtItsDeadlineIsCutOffAndOneReadInTimeIsNot() async throws {
        let watch = BodyWatch()
        let slow = Task<ByteBuffer, any Error> {
            try await Task.sleep(for: .seconds(30))
            return ByteBuffer()
        }
        let quick = Task<ByteBuffer, any Error> { ByteBuffer(string: "{}") }
        let started = ContinuousClock.now
        let slowTicket = watch.watch(slow, until: started + .milliseconds(300))
        let quickTicket = watch.watch(quick, until: started + .milliseconds(300))
        #expect(try await quick.value.readableBytes == 2)
        #expect(watch.forget(quickTicket), "read in time: not cut off")
        await #expect(throws: CancellationError.self) { try await slow.value }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(300) && waited < .seconds(5), "\(waited)")
        #expect(!watch.forget(slowTicket), "cut off")
    }

    /// A body sent a byte at a time is cut off at its deadline (408, and the connection closed), and
    /// a body without `Content-Type: application/json` is refused (415) rather than read as JSON.
    @Test func aSlowBodyIsCutOffAndABodyMustSayItIsJSON() async throws {
        let server = try Server()
        try await server.start()
        let slow = try RawConnection(port: server.port)
        slow.send(Array("POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{".utf8))
        let started = ContinuousClock.now
        var answer = ""
        while ContinuousClock.now - started < .seconds(14), answer.isEmpty {
            slow.send(Array(" ".utf8))
            answer = try await slow.read(within: .seconds(1))
        }
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        #expect(answer.contains("request-timeout"))
        try await Task.sleep(for: .milliseconds(300))
        #expect(slow.isClosedByPeer)

        var request = URLRequest(url: URL(string: server.url + "/v1/auth/login") ?? URL(fileURLWithPath: "/"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"email":"ada@moa.example","password":"plum-orbit-lantern-42-quietly"}"#.utf8)
        for contentType in [nil, "text/plain", "application/json; charset=latin1"] {
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 415, "\(contentType ?? "none")")
        }
        request.setValue("application/json; charset=UTF-8", forHTTPHeaderField: "Content-Type")
        let (_, accepted) = try await URLSession.shared.data(for: request)
        #expect((accepted as? HTTPURLResponse)?.statusCode == 403, "JSON, read: a wrong login")
    }

    /// A client that hangs up in the middle of its body did it, not the server: the request is a 400
    /// in the log and the metrics, never a 500 with an error line (anyone could raise the 5xx rate).
    @Test func aClientThatHangsUpMidBodyIsNotAServerError() async throws {
        let server = try Server()
        try await server.start(["--log-format", "json"])
        for _ in 0..<3 {
            let gone = try RawConnection(port: server.port)
            gone.send(
                Array(
                    "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\""
                        .utf8))
            try await Task.sleep(for: .milliseconds(100))
            gone.close()
        }
        try await Task.sleep(for: .milliseconds(300))
        let metrics = try await server.send("GET", "/metrics").body
        #expect(metrics.contains(#"moa_http_requests_total{method="POST",route="/v1/auth/login",status="400"} 3"#), "\(metrics)")
        #expect(!metrics.contains(#"status="500""#))
        let log = try String(contentsOf: server.root.appendingPathComponent("server.log"), encoding: .utf8)
        #expect(!log.contains(#""level":"error""#), "\(log)")
    }

    /// What the HTTP parser refuses — a 20 KB address, a control byte in a header — is a problem
    /// document like every other refusal (it was a bare 400), in the log and the metrics (it left no trace).
    @Test func whatTheParserRefusesIsAProblemDocumentInTheLogAndTheMetrics() async throws {
        let server = try Server()
        try await server.start(["--log-format", "json"])
        let requests = [
            "GET /v1/" + String(repeating: "a", count: 20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Evil: a\u{01}b\r\n\r\n",
        ]
        for request in requests {
            let connection = try RawConnection(port: server.port)
            connection.send(Array(request.utf8))
            let answer = try await connection.read(within: .seconds(5))
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
            #expect(answer.contains("application/problem+json") && answer.contains("malformed-request"), "\(answer.prefix(400))")
        }
        let metrics = try await server.send("GET", "/metrics").body
        #expect(metrics.contains(#"moa_http_requests_total{method="unparsed",route="unparsed",status="400"} 2"#), "\(metrics)")
        let log = try String(contentsOf: server.root.appendingPathComponent("server.log"), encoding: .utf8)
        #expect(log.components(separatedBy: "request refused by the HTTP parser").count - 1 == 2, "\(log)")
    }

    /// Who the client is: the peer, or what a trusted proxy appended (read right to left); an IPv6
    /// address counts as its /64, so one subscriber is one client.
    @Test func theClientIsThePeerOrWhatATrustedProxyAppended() {
        #expect(ClientAddressResolver.normalized("2001:DB8:0:1:aaaa::1") == "2001:db8:0:1::/64")
        #expect(ClientAddressResolver.normalized("2001:db8:0:1::ab") == ClientAddressResolver.normalized("2001:db8:0:1::aa"))
        #expect(ClientAddressResolver.normalized("2001:db8:0:2::aa") != ClientAddressResolver.normalized("2001:db8:0:1::aa"))
        #expect(ClientAddressResolver.normalized("::ffff:127.0.0.1") == "127.0.0.1")
        #expect(ClientAddressResolver.normalized("::1") == "::1")
        #expect(ClientAddressResolver.address("[2001:db8::5]:443") == "2001:db8:0:0::/64")
        #expect(ClientAddressResolver.address("203.0.113.9:1234") == "203.0.113.9")
        #expect(ClientAddressResolver.address("not an address") == nil)
    }

    @Test func pastItsCeilingAConnectionIsRefusedAtOnceWith503() async throws {
        let server = try Server()
        try await server.start(["--max-connections", "20"])
        let held = try (0..<20).map { _ in try RawConnection(port: server.port) }
        try await Task.sleep(for: .milliseconds(300))
        let extra = try RawConnection(port: server.port)
        let answer = try await extra.read(within: .seconds(2))
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
        for connection in held { connection.close() }
        try await Task.sleep(for: .milliseconds(300))
        let health = try await server.send("GET", "/healthz")
        #expect(health.status == 200)
    }

    /// Defect 5: a data folder other users can write to is made owner-only before anything in it is
    /// opened — or, when it cannot be (a shared folder with the sticky bit), the server refuses to start.
    @Test func aDataFolderOthersCanWriteIsMadeOwnerOnlyOrRefused() async throws {
        let server = try Server()
        try FileManager.default.createDirectory(at: server.data, withIntermediateDirectories: true)
        #expect(chmod(server.data.path, 0o777) == 0)
        try await server.start()
        let mode = try FileManager.default.attributesOfItem(atPath: server.data.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)

        let shared = server.root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        #expect(chmod(shared.path, 0o1777) == 0)
        let refused = try await Binaries.run("moa-server", ["--port", "0", "--data", shared.path], stdin: nil, environment: [:])
        #expect(refused.status == 78, "\(refused.err)")
        #expect(refused.err.contains("can be written by other users"))
        #expect(!FileManager.default.fileExists(atPath: shared.appendingPathComponent("moa.sqlite").path), "nothing was opened in it")
    }
}

/// A TCP connection to 127.0.0.1, as an attacker holds one: bytes in, nothing read unless asked.
final class RawConnection: @unchecked Sendable { // its descriptor is only used by one task at a time
    private let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw E2EError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            _ = closeDescriptor(descriptor)
            throw E2EError("connect: \(reason)")
        }
    }

    deinit { _ = closeDescriptor(descriptor) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    func close() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Whether the server closed the connection (a read finds its end, or the connection was reset).
    var isClosedByPeer: Bool {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET || errno == EPIPE }
        }
    }

    /// What the server sent within `timeout` (until it closed the connection).
    func read(within timeout: Duration) async throws -> String {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while ContinuousClock.now < deadline {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 {
                break
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        return String(decoding: received, as: UTF8.self)
    }
}

#if canImport(Glibc)
    private let closeDescriptor = Glibc.close
    private let systemSend = Glibc.send
#else
    private let closeDescriptor = Darwin.close
    private let systemSend = Darwin.send
#endif
