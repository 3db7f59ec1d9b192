import Foundation
import SearchData
import SearchDomain
import SharedKit
import Storage
import TestSupport
import Testing

/// `moa search login | logout | status` against a real HTTP server on 127.0.0.1 playing both
/// GitHub's OAuth host and its API (``FakeGitHubServer``): every answer of the device flow, the
/// exit statuses and sentences, and the token never shown and kept only in the credential store.
@Suite("Search: the GitHub login (device flow)", .serialized, .timeLimit(.minutes(1)))
struct GitHubLoginTests {
    static let token = "gho_loginSECRET_9f8e7d6c5b4a"
    static let deviceCode = "device-SECRET-3584d83530557fdd1f46af8289938c8ef79f9dc5"
    static let clientID = "Iv1.testclient0001"

    /// How long each poll waited, as the login asked (the waits themselves take a millisecond).
    final class Sleeps: Sendable {
        private let asked = Locked<[Duration]>([])
        /// After this many waits, the next one is "interrupted" (the task is cancelled, as Ctrl-C does).
        let interruptAfter: Int?

        init(interruptAfter: Int? = nil) { self.interruptAfter = interruptAfter }

        var durations: [Duration] { asked.withLock { $0 } }

        func sleep(_ duration: Duration) async throws {
            let count = asked.withLock { asked in
                asked.append(duration)
                return asked.count
            }
            if let interruptAfter, count > interruptAfter { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// The fake's answers: the device code, then `polls` in turn (the last one repeats), and `/user`.
    static func handler(
        polls: [CannedReply], user: CannedReply = .json(#"{"login":"octocat","id":1,"name":"The Octocat"}"#), expiresIn: Int = 900
    ) -> FakeGitHubServer.Handler {
        let next = Locked(0)
        return { request in
            switch (request.method, request.path) {
            case ("POST", "/login/device/code"):
                let base = "http://\(request.headers["host"] ?? "127.0.0.1")"
                return .json(
                    #"{"device_code":"\#(deviceCode)","user_code":"WDJB-MJHT","verification_uri":"\#(base)/login/device","expires_in":\#(expiresIn),"interval":5}"#
                )
            case ("POST", "/login/oauth/access_token"):
                let index = next.withLock { index in
                    defer { index += 1 }
                    return min(index, polls.count - 1)
                }
                return polls[index]
            case ("GET", "/user"):
                return user
            default:
                return .json(#"{"message":"Not Found"}"#, status: 404)
            }
        }
    }

    static func error(_ code: String, interval: Int? = nil) -> CannedReply {
        .json(#"{"error":"\#(code)","error_description":"…"\#(interval.map { #","interval":\#($0)"# } ?? "")}"#)
    }

    /// The login kept in `store`, as the vault reads it.
    static func kept(in store: any CredentialStore) throws -> LoginToken? {
        try CredentialTokenVault(store: store).token()
    }

    static let granted = CannedReply.json(#"{"access_token":"\#(token)","token_type":"bearer","scope":""}"#)

    private func harness(_ server: FakeGitHubServer, credentials: any CredentialStore, sleeps: Sleeps, clientID: String? = clientID)
        throws -> SearchHarness
    {
        let base = try server.baseURL
        return try SearchHarness(
            clients: .urlSession(timeout: 10), baseURL: base, credentials: credentials, oauthBaseURL: base, oauthClientID: clientID,
            loginSleep: { try await sleeps.sleep($0) })
    }

    @Test func pendingThenSlowDownThenATokenLogsIn() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        let sleeps = Sleeps()
        try await FakeGitHubServer.with(
            Self.handler(polls: [Self.error("authorization_pending"), Self.error("slow_down", interval: 10), Self.granted])
        ) { server in
            let harness = try harness(server, credentials: store, sleeps: sleeps)
            let run = try await harness.run(["login"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("WDJB-MJHT"))
            #expect(run.out.contains("\(try server.baseURL.absoluteString)/login/device"))
            #expect(run.out.contains("Logged in to GitHub as octocat (The Octocat)."))
            #expect(run.out.contains("The token is kept in memory"))
            #expect(run.err.contains("every 10 seconds now"))
            // The interval given (5 s), kept while pending, then the new one slow_down named.
            #expect(sleeps.durations == [.seconds(5), .seconds(5), .seconds(10)])
            for text in [run.out, run.err] {
                #expect(!text.contains(Self.token) && !text.contains(Self.deviceCode))
            }
            #expect(try Self.kept(in: store) == LoginToken(token: Self.token, apiBaseURL: try server.baseURL.absoluteString))

            let requests = server.requests
            let device = try #require(requests.first)
            #expect(device.path == "/login/device/code" && device.form == ["client_id": Self.clientID])
            #expect(device.headers["accept"] == "application/json")
            let polls = requests.filter { $0.path == "/login/oauth/access_token" }
            #expect(polls.count == 3)
            #expect(
                polls.allSatisfy {
                    $0.form == [
                        "client_id": Self.clientID, "device_code": Self.deviceCode,
                        "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                    ]
                })
            // The token only ever travels in the Authorization header of the API, never in a URL.
            let user = try #require(requests.last)
            #expect(user.path == "/user" && user.headers["authorization"] == "Bearer \(Self.token)")
            #expect(requests.allSatisfy { !$0.path.contains(Self.token) && !$0.query.values.contains(Self.token) })

            // The search now sends the login's token.
            _ = try await harness.run(["user", "octocat"])
            #expect(server.requests.last?.headers["authorization"] == "Bearer \(Self.token)")
        }
    }

    @Test func aRefusalIsDeniedWith77AndKeepsNothing() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        try await FakeGitHubServer.with(Self.handler(polls: [Self.error("authorization_pending"), Self.error("access_denied")])) { server in
            let run = try await harness(server, credentials: store, sleeps: Sleeps()).run(["login"])
            #expect(run.status == 77)
            #expect(run.err.contains("error: The login was refused on the verification page; nothing was saved."))
            #expect(store.names.isEmpty)
        }
    }

    @Test func anExpiredCodeEndsWith75AndKeepsNothing() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        try await FakeGitHubServer.with(Self.handler(polls: [Self.error("expired_token")])) { server in
            let run = try await harness(server, credentials: store, sleeps: Sleeps()).run(["login"])
            #expect(run.status == 75)
            #expect(run.err.contains("The code expired before it was entered (it was valid for 15 minutes); nothing was saved."))
            #expect(store.names.isEmpty)
        }
    }

    @Test func pendingPastTheExpiryEndsTheLoginToo() async throws {
        let sleeps = Sleeps()
        try await FakeGitHubServer.with(Self.handler(polls: [Self.error("authorization_pending")], expiresIn: 12)) { server in
            let run = try await harness(server, credentials: InMemoryCredentialStore(), sleeps: sleeps).run(["login"])
            #expect(run.status == 75)
            #expect(run.err.contains("it was valid for 1 minute)"))
            // 12 s at 5 s a poll: the third poll is past the expiry, and there is no fourth.
            #expect(sleeps.durations.count == 3)
        }
    }

    @Test func ctrlCStopsWith130AndKeepsNothing() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        try await FakeGitHubServer.with(Self.handler(polls: [Self.error("authorization_pending")])) { server in
            let run = try await harness(server, credentials: store, sleeps: Sleeps(interruptAfter: 2)).run(["login"])
            #expect(run.status == 130)
            #expect(run.err.contains("error: The login was stopped; nothing was saved."))
            #expect(store.names.isEmpty)
        }
    }

    @Test func withoutAClientIDNothingIsSentAndTheHintSaysHowToRegister() async throws {
        try await FakeGitHubServer.with(Self.handler(polls: [Self.granted])) { server in
            let run = try await harness(server, credentials: InMemoryCredentialStore(), sleeps: Sleeps(), clientID: nil).run(["login"])
            #expect(run.status == 78)
            #expect(run.err.contains("search.oauth-client-id is not set"))
            #expect(run.err.contains("Enable Device Flow"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test func anUnknownClientOrADisabledFlowIsAConfigurationError() async throws {
        // GitHub refuses at the device-code request (as other clients see it), and may at a poll.
        for (code, sentence) in [
            ("incorrect_client_credentials", "does not know the client id “\(Self.clientID)”"),
            ("device_flow_disabled", "does not allow the device flow"),
        ] {
            let atRequest: FakeGitHubServer.Handler = { request in
                request.path == "/login/device/code" ? Self.error(code) : .json("{}")
            }
            for handler in [atRequest, Self.handler(polls: [Self.error(code)])] {
                try await FakeGitHubServer.with(handler) { server in
                    let run = try await harness(server, credentials: InMemoryCredentialStore(), sleeps: Sleeps()).run(["login"])
                    #expect(run.status == 78, "\(code): \(run.err)")
                    #expect(run.err.contains(sentence))
                }
            }
        }
    }

    @Test func theLoginsTokenGoesOnlyToTheAPIItWasIssuedFor() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        try await FakeGitHubServer.with(Self.handler(polls: [Self.granted])) { server in
            #expect(try await harness(server, credentials: store, sleeps: Sleeps()).run(["login"]).status == 0)
            try await FakeGitHubServer.with(Self.handler(polls: [Self.granted])) { elsewhere in
                // Same store, another search.api-base-url (a proxy, another host): no token travels there.
                let base = try elsewhere.baseURL
                let moved = try SearchHarness(
                    clients: .urlSession(timeout: 10), baseURL: base, credentials: store, oauthBaseURL: base, oauthClientID: Self.clientID)
                _ = try await moved.run(["user", "octocat"])
                #expect(elsewhere.requests.last?.headers["authorization"] == nil)
                let status = try await moved.run(["status"])
                #expect(status.out.contains("The GitHub login is for the API at \(try server.baseURL.absoluteString)"))
                #expect(!status.out.contains(Self.token))
            }
        }
    }

    @Test func aTokenTheAPIRefusesIsNotKept() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        try await FakeGitHubServer.with(
            Self.handler(polls: [Self.granted], user: .json(#"{"message":"Bad credentials"}"#, status: 401))
        ) { server in
            let run = try await harness(server, credentials: store, sleeps: Sleeps()).run(["login"])
            #expect(run.status == 77)
            #expect(run.err.contains("The API refused the new token"))
            #expect(store.names.isEmpty)
        }
    }

    @Test func hostileAnswersNeverReachTheTerminal() async throws {
        // A user code or login with an escape sequence is refused, not printed; an unknown error code
        // is described, not echoed.
        let handler: FakeGitHubServer.Handler = { request in
            switch request.path {
            case "/login/device/code":
                .json(
                    #"{"device_code":"d","user_code":"\u001b]0;pwned\u0007","verification_uri":"https://github.com/login/device","interval":1}"#
                )
            default: .json("{}")
            }
        }
        try await FakeGitHubServer.with(handler) { server in
            let run = try await harness(server, credentials: InMemoryCredentialStore(), sleeps: Sleeps()).run(["login"])
            #expect(run.status == 69)
            #expect(!run.out.contains("\u{1B}") && !run.err.contains("\u{1B}") && !run.err.contains("pwned"))
        }
        try await FakeGitHubServer.with(Self.handler(polls: [Self.error("weird\\u001b[31m")])) { server in
            let run = try await harness(server, credentials: InMemoryCredentialStore(), sleeps: Sleeps()).run(["login"])
            #expect(run.status == 69)
            #expect(run.err.contains("an error code that is not one") && !run.err.contains("\u{1B}"))
        }
        try await FakeGitHubServer.with(Self.handler(polls: [Self.granted], user: .json(#"{"login":"oct\u001b[2Jocat"}"#))) { server in
            let store = InMemoryCredentialStore(backend: .secretService)
            let run = try await harness(server, credentials: store, sleeps: Sleeps()).run(["login"])
            #expect(run.status == 69)
            #expect(!run.err.contains("\u{1B}") && store.names.isEmpty)
        }
    }

    @Test func jsonGivesFieldsAndTheInstructionsGoToStandardError() async throws {
        try await FakeGitHubServer.with(Self.handler(polls: [Self.granted])) { server in
            let harness = try harness(server, credentials: InMemoryCredentialStore(backend: .secretService), sleeps: Sleeps())
            let run = try await harness.run(["login", "--json"])
            #expect(run.status == 0)
            #expect(run.err.contains("WDJB-MJHT"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            #expect(object["logged_in"] as? Bool == true)
            #expect((object["user"] as? [String: Any])?["login"] as? String == "octocat")
            #expect(object["store"] as? String == "system")
            #expect(!run.out.contains(Self.token) && !run.err.contains(Self.token))

            let status = try await harness.run(["status", "--json"])
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any])
            #expect(fields["token"] as? String == "login")
            #expect((fields["user"] as? [String: Any])?["login"] as? String == "octocat")
            #expect(fields["client_id_set"] as? Bool == true)
            #expect(!status.out.contains(Self.token))
        }
    }

    @Test func logoutForgetsTheTokenAndStatusSaysSo() async throws {
        let store = InMemoryCredentialStore(backend: .secretService)
        try await FakeGitHubServer.with(Self.handler(polls: [Self.granted])) { server in
            let harness = try harness(server, credentials: store, sleeps: Sleeps())
            #expect(try await harness.run(["login"]).status == 0)
            let status = try await harness.run(["status"])
            #expect(status.out.contains("the GitHub login's") && status.out.contains("octocat (The Octocat)"))
            let logout = try await harness.run(["logout"])
            #expect(logout.out.contains("Logged out of GitHub"))
            #expect(store.names.isEmpty)
            #expect(try await harness.run(["logout"]).out.contains("No GitHub login to forget."))
            #expect(try await harness.run(["status"]).out.contains("none (anonymous requests"))
        }
    }

    @Test func withoutASystemStoreTheTokenIsAnOwnerOnlyFile() async throws {
        let home = MoaHome(root: FileManager.default.temporaryDirectory.appendingPathComponent("moa-login-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: home.root) }
        try await FakeGitHubServer.with(Self.handler(polls: [Self.granted])) { server in
            let run = try await harness(server, credentials: FileCredentialStore(home: home), sleeps: Sleeps()).run(["login"])
            #expect(run.status == 0)
            #expect(run.out.contains("owner-only files in \(home.secretsURL.path)"))
            let file = home.secretsURL.appendingPathComponent("search.github-token")
            #expect(try String(contentsOf: file, encoding: .utf8).contains(Self.token))
            #expect(try Self.kept(in: FileCredentialStore(home: home))?.token == Self.token)
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
            #expect(mode == 0o600)
        }
    }
}
