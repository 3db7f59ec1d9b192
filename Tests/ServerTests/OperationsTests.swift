import Foundation
import HTTPServing
import HTTPTypes
import Logging
import MoaServer
import SharedKit
import Testing

/// What an operator of `moa-server` sees (issue 24, items 6, 10 and 13): one log line per request
/// with its id, client, user, route, status and duration, that no value can break or flood; the
/// metrics at `/metrics`, in a format promtool accepts and with no user's data in a label; `/healthz`
/// (alive, `HEAD` too) apart from `/readyz` (the database).
@Suite("moa-server · logs, metrics, health")
struct OperationsTests {
    /// Every line a server logged, in its JSON format.
    final class LogLines: Sendable {
        private let lines = Locked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var objects: [[String: Any]] {
            all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        func requests(id: String) -> [[String: Any]] {
            objects.filter { $0["message"] as? String == "request" && $0["request_id"] as? String == id }
        }
        var logger: Logger {
            Logger(label: "moa-server") { label in
                ServerLogHandler(label: label, format: .json) { line in self.lines.withLock { $0.append(line) } }
            }
        }
    }

    @Test func aRequestIsOneJSONLineWithItsIdClientUserRouteStatusAndDuration() async throws {
        let log = LogLines()
        try await APIHarness(logger: log.logger).run { api in
            let ada = try await api.user("ada@moa.example")
            let number = try await api.account(ada)
            let reply = try await api.send(
                .get, "/v1/accounts/\(number)", token: ada.access, headers: [HTTPField.Name("X-Request-Id")!: "ticket-4711.a_b"])
            #expect(reply.status == .ok)
            #expect(reply.headers[HTTPField.Name("X-Request-Id")!] == "ticket-4711.a_b")

            let lines = log.requests(id: "ticket-4711.a_b")
            try #require(lines.count == 1, "\(log.all)")
            let line = lines[0]
            #expect(line["level"] as? String == "info")
            #expect(line["method"] as? String == "GET")
            #expect(line["route"] as? String == "/v1/accounts/{account}")
            #expect(line["path"] as? String == "/v1/accounts/\(number)")
            #expect(line["status"] as? String == "200")
            #expect(line["user"] as? String == ada.userID)
            #expect(line["client"] as? String == "unknown") // no socket in process; a real peer in the end-to-end tests
            #expect(Double(line["ms"] as? String ?? "") != nil)
            #expect((line["time"] as? String)?.hasSuffix("Z") == true)
            // Never a secret: no token, no header, no body.
            #expect(!log.all.joined().contains(ada.access))
            #expect(!log.all.joined().contains(ada.refresh))
        }
    }

    @Test func aRefusalNamesItsProblemAndAnUnusableRequestIdIsReplaced() async throws {
        let log = LogLines()
        try await APIHarness(logger: log.logger).run { api in
            for hostile in [String(repeating: "x", count: 65), "id with spaces", "ünïcode", "a\u{1B}[31mred"] {
                let reply = try await api.send(.get, "/v1/accounts", headers: [HTTPField.Name("X-Request-Id")!: hostile])
                #expect(reply.status == .unauthorized)
                let made = try #require(reply.headers[HTTPField.Name("X-Request-Id")!])
                #expect(made != hostile)
                #expect(made.count == 32 && made.allSatisfy(\.isHexDigit), "\(made)")
                let line = try #require(log.requests(id: made).first)
                #expect(line["problem"] as? String == "unauthenticated")
                #expect(line["status"] as? String == "401")
                #expect(line["user"] == nil)
            }
            #expect(!log.all.joined().contains("\u{1B}"))
        }
    }

    @Test func durationsAreLoggedInMillisecondsToOneDecimalRounded() {
        #expect(RequestLogMiddleware.milliseconds(.zero) == "0.0")
        #expect(RequestLogMiddleware.milliseconds(.microseconds(49)) == "0.0")
        #expect(RequestLogMiddleware.milliseconds(.microseconds(50)) == "0.1")
        #expect(RequestLogMiddleware.milliseconds(.microseconds(12_349)) == "12.3")
        #expect(RequestLogMiddleware.milliseconds(.microseconds(12_350)) == "12.4")
        #expect(RequestLogMiddleware.milliseconds(.seconds(2)) == "2000.0")
        #expect(RequestLogMiddleware.milliseconds(.seconds(61) + .microseconds(999_960)) == "62000.0")
    }

    @Test func requestIdsMadeHereAreThirtyTwoHexDigitsAndNeverRepeat() {
        let made = (0..<1_000).map { _ in RequestIdentifier.of(HTTPFields()) }
        #expect(Set(made).count == made.count)
        #expect(made.allSatisfy { $0.utf8.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        #expect(RequestIdentifier.of([RequestIdentifier.header: "A-z_0.9"]) == "A-z_0.9")
    }

    @Test func an80KilobyteURLIsOneShortLine() async throws {
        let log = LogLines()
        try await APIHarness(logger: log.logger).run { api in
            let long = "/v1/" + String(repeating: "a", count: 80 * 1_024)
            let reply = try await api.send(.get, long, headers: [HTTPField.Name("X-Request-Id")!: "long-url"])
            #expect(reply.status == .notFound)
            let raw = try #require(log.all.first { $0.contains("\"request_id\":\"long-url\"") })
            #expect(raw.utf8.count < 1_024, "\(raw.utf8.count) bytes")
            let line = try #require(log.requests(id: "long-url").first)
            #expect(line["route"] as? String == "unmatched")
            #expect((line["path"] as? String)?.hasSuffix("…(\(long.count - ServerLogHandler.maximumValueLength) more)") == true)
        }
    }

    @Test func noValueBreaksALineInEitherFormat() throws {
        let hostile = "evil\n{\"level\":\"critical\"}\r\u{1B}[2J\u{7}\u{2028}\u{85}\"\\ end"
        let sink = Locked<[String]>([])
        for format in LogFormat.allCases {
            var logger = Logger(label: "moa-server") { label in
                ServerLogHandler(label: label, format: format) { line in sink.withLock { $0.append(line) } }
            }
            logger[metadataKey: "given"] = .string(hostile)
            logger.warning("\(hostile)", metadata: ["nested": .array([.string(hostile)])])
        }
        let lines = sink.withLock { $0 }
        try #require(lines.count == 2)
        for line in lines {
            #expect(line.hasSuffix("\n"))
            let body = line.dropLast()
            #expect(!body.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" }, "\(line)")
        }
        let json = try #require(lines.first { $0.hasPrefix("{") })
        let text = try #require(lines.first { !$0.hasPrefix("{") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["message"] as? String == hostile) // escaped, not lost
        #expect(object["given"] as? String == hostile)
        #expect(object["level"] as? String == "warning")
        #expect(text.contains(#"\u{1b}[2J"#))
        // A backslash is doubled: a literal "\u{a}" in a value never reads as an escaped newline.
        #expect(ServerLogHandler.text(#"a\u{a}b"#) == #"a\\u{a}b"#)
        #expect(text.contains(" warning "))
    }

    @Test func aLineSaysWhenToTheMillisecondInUTCAndTheEventsOwnMetadataWins() throws {
        let sink = Locked<[String]>([])
        var logger = Logger(label: "moa-server") { label in
            var handler = ServerLogHandler(label: label, format: .text) { line in sink.withLock { $0.append(line) } }
            handler.metadataProvider = Logger.MetadataProvider { ["key": "provided", "task": "7"] }
            return handler
        }
        logger[metadataKey: "key"] = "handler's"
        logger[metadataKey: "server"] = "a"
        let before = Date()
        logger.info("started", metadata: ["key": "event's"])
        let after = Date()
        logger.info("again")
        let lines = sink.withLock { $0 }
        try #require(lines.count == 2)
        // `2026-11-28T10:21:00.123Z info started key=event's server=a task=7`: fields sorted, each from
        // the event, else the logger, else the provider.
        let parts = lines[0].dropLast().split(separator: " ").map(String.init)
        #expect(Array(parts.dropFirst()) == ["info", "started", "key=event's", "server=a", "task=7"], "\(lines[0])")
        #expect(lines[1].hasSuffix(" info again key=handler's server=a task=7\n"), "\(lines[1])")
        let time = parts[0]
        #expect(time.utf8.count == 24 && time.hasSuffix("Z"), "\(time)")
        let read = try Date(time, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        #expect(
            read.timeIntervalSince(before) > -0.001 && after.timeIntervalSince(read) > -0.001, "\(time) not between \(before) and \(after)")
    }

    @Test func metricsCountRequestsAndTransfersWithNoUserDataAndPromtoolAcceptsThem() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            let bo = try await api.user("bo@moa.example")
            let adas = try await api.account(ada)
            let bos = try await api.account(bo, name: "Bo")
            _ = try await api.send(.post, "/v1/accounts/\(adas)/deposits", json: ["amount": "10,000"], token: ada.access)
            let key = HTTPField.Name("Idempotency-Key")!
            let sent = try await api.send(
                .post, "/v1/transfers", json: ["from": adas, "to": bos, "amount": "3,000"], token: ada.access, headers: [key: "m-1"])
            #expect(sent.status == .created)
            let replayed = try await api.send(
                .post, "/v1/transfers", json: ["from": adas, "to": bos, "amount": "3,000"], token: ada.access, headers: [key: "m-1"])
            #expect(replayed.status == .ok)
            let refused = try await api.send(
                .post, "/v1/transfers", json: ["from": adas, "to": bos, "amount": "900,000"], token: ada.access, headers: [key: "m-2"])
            #expect(refused.status == .conflict, "\(refused.text)") // more than the balance
            let kind = try #require(refused.problem)

            let scrape = try await api.send(.get, "/metrics")
            #expect(scrape.status == .ok)
            #expect(scrape.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = scrape.text
            #expect(text.contains(#"moa_http_requests_total{method="POST",route="/v1/transfers",status="201"} 1"#), "\(text)")
            #expect(text.contains(#"moa_http_requests_total{method="POST",route="/v1/transfers",status="200"} 1"#))
            #expect(text.contains(#"moa_http_request_duration_seconds_count{method="POST",route="/v1/transfers"} 3"#))
            #expect(text.contains("moa_transfers_committed_total 1"))
            #expect(text.contains("moa_transfers_replayed_total 1"))
            #expect(text.contains(#"moa_transfers_refused_total{kind="\#(kind)"} 1"#))
            #expect(text.contains("moa_http_connections_open "))
            // No label holds an account number, a user id or an address.
            for secret in [adas, bos, ada.userID, bo.userID, "ada@moa.example"] { #expect(!text.contains(secret), "\(secret)") }
            try await Promtool.check(text)
        }
    }

    @Test func aFieldGivenTwiceIsRefusedNotReadOneOfTwoWays() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            let number = try await api.account(ada)
            for body in [
                #"{"amount":"5","amount":"7"}"#, #"{"amount":"5","\u0061mount":"7"}"#, #"{"memo":"a","amount":"5","memo":"b"}"#,
            ] {
                let reply = try await api.send(.post, "/v1/accounts/\(number)/deposits", body: body, token: ada.access)
                #expect(reply.status == .badRequest, "\(body): \(reply.text)")
                #expect(reply.problem == "malformed-request")
                #expect(["/amount", "/memo"].contains(reply.object["field"] as? String), "\(reply.text)")
            }
            #expect(try await api.balance(ada, number) == 0)
            let nested = try await api.send(
                .post, "/v1/accounts/\(number)/deposits", body: #"{"amount":"5","memo":{"x":1,"y":[{"z":1,"z":2}]}}"#, token: ada.access)
            #expect(nested.object["field"] as? String == "/memo/y/z", "\(nested.text)")
            // 13,107 objects deep in 64 KiB: refused at once, at 64 levels (a pointer per key cost the square of the depth).
            let deep = String(repeating: #"{"~":"#, count: 13_107)
            let tooDeep = try await api.send(.post, "/v1/accounts/\(number)/deposits", body: deep, token: ada.access)
            #expect(tooDeep.status == .badRequest)
            #expect((tooDeep.object["detail"] as? String)?.contains("deeper than 64 levels") == true, "\(tooDeep.text)")
            #expect(try await api.balance(ada, number) == 0)
            // The same key in two objects is two keys; an escaped quote is not the end of a key.
            let quoted = try await api.send(
                .post, "/v1/accounts/\(number)/deposits", body: #"{"amount":"5","memo":"say \"amount\""}"#, token: ada.access)
            #expect(quoted.status == .created, "\(quoted.text)")
        }
    }

    /// Lockouts, refresh-token reuse and sign-ups with a taken address reach the operator's log (they
    /// did not), each a warning with the request's id, the client and the address — while the client's
    /// answer to the sign-up stays the same as for any address.
    @Test func securityEventsAreWarningsWithTheRequestAndTheClient() async throws {
        let log = LogLines()
        try await APIHarness(logger: log.logger).run { api in
            let ada = try await api.user("ada@moa.example")
            func security(_ event: String) -> [[String: Any]] {
                log.objects.filter { $0["message"] as? String == "security" && $0["event"] as? String == event }
            }
            let id = HTTPField.Name("X-Request-Id")!

            for attempt in 1...3 {
                let taken = try await api.send(
                    .post, "/v1/auth/signup", json: ["email": "ada@moa.example", "password": "another-long-passphrase-77"],
                    headers: [id: "signup-\(attempt)"])
                #expect(taken.status == .created)
            }
            // Told as often as the owner is mailed (once in a while), not once per attempt.
            #expect(security("sign-up-refused").count == 1)
            let refused = try #require(security("sign-up-refused").first, "\(log.all)")
            #expect(refused["level"] as? String == "warning")
            #expect(refused["request_id"] as? String == "signup-1")
            #expect(refused["address"] as? String == "ada@moa.example")
            #expect(refused["user"] as? String == ada.userID)
            #expect(refused["client"] as? String == "unknown")

            for attempt in 0..<5 {
                _ = try await api.send(
                    .post, "/v1/auth/login", json: ["email": "ada@moa.example", "password": "not the password at all"],
                    headers: [id: "guess-\(attempt)"])
            }
            let lockout = try #require(security("login-lockout").first, "\(log.all)")
            #expect(lockout["request_id"] as? String == "guess-4")
            #expect(lockout["address"] as? String == "ada@moa.example")

            let rotated = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": ada.refresh])
            #expect(rotated.status == .ok)
            let reuse = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": ada.refresh], headers: [id: "copy-1"])
            #expect(reuse.status == .unauthorized)
            let reused = try #require(security("refresh-token-reuse").first, "\(log.all)")
            #expect(reused["request_id"] as? String == "copy-1")
            #expect(reused["user"] as? String == ada.userID)
            // Never a password, a token or a code.
            let all = log.all.joined()
            for secret in ["not the password at all", "another-long-passphrase-77", ada.refresh, ada.access] {
                #expect(!all.contains(secret))
            }
        }
    }

    @Test func healthIsAliveReadyIsTheDatabaseAndHeadIsAnswered() async throws {
        try await APIHarness().run { api in
            let head = try await api.send(.head, "/healthz")
            #expect(head.status == .ok)
            #expect(head.text.isEmpty)
            #expect(try await api.send(.head, "/readyz").status == .ok)
            let ready = try await api.send(.get, "/readyz")
            #expect(ready.status == .ok)
            #expect(ready.object["status"] as? String == "ready")
            let health = try await api.send(.get, "/healthz")
            #expect(health.status == .ok)
            #expect(health.object["status"] as? String == "ok")
        }
    }
}

/// `promtool check metrics` (Debian's `prometheus`): required in CI, which installs it; elsewhere a
/// missing promtool is said and the check skipped.
enum Promtool {
    static func check(_ exposition: String) async throws {
        guard let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first(where: FileManager.default.isExecutableFile) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("promtool is missing: .ci/run installs prometheus") }
            print("promtool is not installed (apt-get install prometheus): the exposition was not linted")
            return
        }
        let run = try await Binaries.offloaded {
            try Binaries.runProcess(URL(fileURLWithPath: promtool), ["check", "metrics"], stdin: exposition, environment: [:])
        }
        let said = run.out + run.err
        #expect(run.status == 0, "promtool check metrics: \(said)")
        #expect(said.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "promtool check metrics: \(said)")
    }
}
