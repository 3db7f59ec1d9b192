import Foundation
import Networking
import SearchData
import SearchDomain
import SearchInterface
import SharedKit
import Storage
import Synchronization
import TestSupport
import Testing

/// The HTTP layer and the repository against a real server on 127.0.0.1 (``FakeGitHubServer``),
/// through URLSession: what goes over the wire, and what comes back.
@Suite("Search: users against a real HTTP server", .serialized, .timeLimit(.minutes(1)))
struct UserSearchServerTests {
    static let token = "ghp_serverSECRET_a1b2c3d4e5"

    private func harness(
        _ server: FakeGitHubServer, token: String? = nil, logs: LogLines = LogLines(), timeout: TimeInterval = 30,
        database: AppDatabase? = nil, clock: ManualWallClock = ManualWallClock()
    ) throws -> SearchHarness {
        try SearchHarness(
            clients: .logging(to: logs, timeout: timeout), baseURL: try server.baseURL, token: token, database: database,
            clock: clock, configuration: SearchAPIConfiguration(userAgent: "moa/test", timeout: timeout))
    }

    @Test func pagesFollowTheLinkHeader() async throws {
        try await FakeGitHubServer.with({ request in
            let page = Int(request.query["page"] ?? "") ?? 1
            let perPage = Int(request.query["per_page"] ?? "") ?? 30
            let base = "http://127.0.0.1:\(request.headers["host"]?.split(separator: ":").last ?? "")"
            return .json(
                GitHubJSON.searchPage(total: 3_450, logins: (1...2).map { "swift-\(page)-\($0)" }),
                headers: ["Link": GitHubJSON.links(base: base, query: "swift", page: page, last: 1_000 / perPage, perPage: perPage)])
        }) { server in
            let service = try harness(server).service
            let first = try await service.search("swift language:ko", page: 1, perPage: 30, sort: .joined)
            #expect(first.users.map(\.login) == ["swift-1-1", "swift-1-2"])
            #expect(first.totalCount == 3_450 && first.nextPage == 2 && first.lastPage == 33 && first.pageCount == 33 && first.isCapped)
            let next = try await service.search("swift language:ko", page: try #require(first.nextPage), perPage: 30)
            #expect(next.users.first?.login == "swift-2-1")
            let last = try await service.search("swift", page: 33, perPage: 30)
            #expect(last.nextPage == nil && last.pageCount == 33)

            let seen = server.requests
            #expect(seen.count == 3)
            #expect(seen[0].path == "/search/users")
            #expect(seen[0].query == ["q": "swift language:ko", "page": "1", "per_page": "30", "sort": "joined", "order": "desc"])
            #expect(seen[0].headers["accept"] == "application/vnd.github+json")
            #expect(seen[0].headers["user-agent"] == "moa/test")
            #expect(seen[0].headers["x-github-api-version"] == "2022-11-28")
            #expect(seen[0].headers["authorization"] == nil)
        }
    }

    @Test func a304WithTheETagReusesTheCachedBodyAcrossProcesses() async throws {
        let database = try AppDatabase.temporary(migrations: [SearchMigrations.all])
        try await FakeGitHubServer.with({ request in
            guard request.path == "/users/octocat" else { return .json(#"{"message":"Not Found"}"#, status: 404) }
            if request.headers["if-none-match"] == #""etag-1""# {
                return CannedReply(status: 304, headers: ["ETag": #""etag-1""#, "Cache-Control": "private, max-age=60"])
            }
            return .json(
                GitHubJSON.user("octocat", id: 583_231, name: "The Octocat"),
                headers: ["ETag": #""etag-1""#, "Cache-Control": "private, max-age=60"])
        }) { server in
            let clock = ManualWallClock()
            let process1 = try harness(server, database: database, clock: clock)
            let fetched = try await process1.service.user("octocat")
            #expect(fetched.source == .network && fetched.profile.id == 583_231 && fetched.profile.name == "The Octocat")
            #expect(try await process1.service.user("octocat").source == .memory)
            #expect(server.requests.count == 1) // the second lookup sent nothing
            clock.advance(by: 61)
            #expect(try await process1.service.user("octocat").source == .revalidated)

            let process2 = try harness(server, database: database, clock: clock) // empty memory, same database
            let revalidated = try await process2.service.user("octocat")
            #expect(revalidated.source == .revalidated && revalidated.profile == fetched.profile)
            #expect(server.requests.map { $0.headers["if-none-match"] } == [nil, #""etag-1""#, #""etag-1""#])
        }
    }

    @Test func a403RateLimitGivesTheResetTime() async throws {
        let reset = 1_767_229_200 // 2026-01-01T01:00:00Z
        try await FakeGitHubServer.with({ _ in
            .json(
                #"{"message":"API rate limit exceeded for 127.0.0.1.","documentation_url":"https://docs.github.com/rest/rate-limit"}"#,
                status: 403, headers: ["x-ratelimit-limit": "60", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset)])
        }) { server in
            let expected = SearchError.rateLimited(
                RateLimitReset(
                    resetAt: Date(timeIntervalSince1970: TimeInterval(reset)),
                    retryAfterSeconds: nil, tokenSet: false))
            await #expect(throws: expected) { try await harness(server).service.search("swift") }
            let run = try await harness(server).run(["users", "swift"])
            #expect(run.status == ExitStatus.temporaryFailure.rawValue)
            #expect(
                run.err.contains("rate limit is exhausted until \(SearchError.localTime(Date(timeIntervalSince1970: TimeInterval(reset))))")
            )
        }
    }

    @Test func a429WithRetryAfterSaysHowLongToWait() async throws {
        try await FakeGitHubServer.with({ _ in .json(#"{"message":"Too many"}"#, status: 429, headers: ["Retry-After": "42"]) }) { server in
            await #expect(throws: SearchError.rateLimited(RateLimitReset(resetAt: nil, retryAfterSeconds: 42, tokenSet: true))) {
                try await harness(server, token: Self.token).service.user("octocat")
            }
        }
    }

    @Test func a404IsAnUnknownUser() async throws {
        try await FakeGitHubServer.with({ _ in .json(#"{"message":"Not Found"}"#, status: 404) }) { server in
            let run = try await harness(server).run(["user", "no-such-user-4242"])
            #expect(run.status == ExitStatus.unavailable.rawValue)
            #expect(run.err == "error: There is no user “no-such-user-4242”.\n")
        }
    }

    @Test func a422IsAnInvalidQueryWithTheAPIsMessage() async throws {
        try await FakeGitHubServer.with({ _ in
            .json(
                #"{"message":"Validation Failed","errors":[{"message":"The search is longer than 256 characters.","resource":"Search","field":"q","code":"invalid"}],"status":"422"}"#,
                status: 422)
        }) { server in
            await #expect(throws: SearchError.invalidQuery("Validation Failed — The search is longer than 256 characters.")) {
                try await harness(server).service.search(String(repeating: "a", count: 300))
            }
        }
    }

    @Test func aSlowServerTimesOut() async throws {
        try await FakeGitHubServer.with({ _ in
            CannedReply(status: 200, body: GitHubJSON.searchPage(total: 0, logins: []), delay: .seconds(2))
        }) { server in
            let start = ContinuousClock.now
            await #expect(throws: SearchError.timedOut(seconds: 0.3)) { try await harness(server, timeout: 0.3).service.search("swift") }
            #expect(ContinuousClock.now - start < .milliseconds(1_900))
            #expect(SearchError.timedOut(seconds: 0.3).message == "The search API did not answer within 0.3 seconds.")
        }
    }

    @Test func aMalformedBodyIsReportedNotCrashed() async throws {
        try await FakeGitHubServer.with({ request in
            request.path == "/users/octocat"
                ? .json(#"{"login":"octocat","id":"not a number"}"#)
                : CannedReply(status: 200, headers: ["Content-Type": "text/html"], body: "<html><body>Sign in</body></html>")
        }) { server in
            let run = try await harness(server).run(["users", "swift"])
            #expect(run.status == ExitStatus.dataError.rawValue)
            #expect(
                run.err.hasPrefix(
                    "error: The search API sent a response that could not be read: the body is not valid JSON (it looks like HTML or XML"))
            await #expect {
                try await harness(server).service.user("octocat")
            } throws: { error in
                guard case .malformedResponse(let detail)? = error as? SearchError else { return false }
                return detail.contains("expected Int64 at id of UserDetails")
            }
        }
    }

    @Test func nothingListeningIsOffline() async throws {
        let port = try await FakeGitHubServer.with({ _ in CannedReply(status: 200) }) { $0.port } // stopped: the port is closed now
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let harness = try SearchHarness(clients: .urlSession(timeout: 30), baseURL: base)
        await #expect(throws: SearchError.offline(baseURL: "http://127.0.0.1:\(port)")) { try await harness.service.search("swift") }
    }

    @Test func theTokenIsSentAsABearerAndNeverLogged() async throws {
        let logs = LogLines()
        try await FakeGitHubServer.with({ request in
            guard request.headers["authorization"] == "Bearer \(Self.token)" else {
                return .json(#"{"message":"Requires authentication"}"#, status: 401)
            }
            return request.path == "/users/octocat"
                ? .json(GitHubJSON.user("octocat"), headers: ["ETag": #""t1""#])
                : .json(#"{"message":"Bad credentials"}"#, status: 401)
        }) { server in
            let harness = try harness(server, token: Self.token, logs: logs)
            let shown = try await harness.run(["user", "octocat", "--json"])
            #expect(shown.status == 0)
            let refused = try await harness.run(["users", "swift", "--json"]) // the server says 401
            #expect(refused.status == ExitStatus.noPermission.rawValue)
            #expect(refused.err.contains("The search API refused the access token (HTTP 401)"))

            #expect(
                server.requests.allSatisfy {
                    $0.raw.contains("Authorization: Bearer \(Self.token)") || $0.raw.contains("authorization: Bearer \(Self.token)")
                })
            #expect(!logs.all.isEmpty)
            #expect(logs.text.contains("GET http://127.0.0.1:\(server.port)/users/octocat -> 200"))
            #expect(logs.text.contains(#""Authorization": "***""#))
            for text in [logs.text, shown.out, shown.err, refused.out, refused.err] {
                #expect(!text.contains(Self.token), "the token leaked into: \(text)")
                #expect(!text.contains("a1b2c3d4e5"))
            }
        }
    }

    @Test func withoutATokenNoAuthorizationHeaderIsSent() async throws {
        try await FakeGitHubServer.with({ _ in .json(GitHubJSON.user("octocat")) }) { server in
            _ = try await harness(server).service.user("octocat")
            #expect(server.requests.first?.headers["authorization"] == nil)
            #expect(server.requests.first?.raw.lowercased().contains("authorization") == false)
        }
    }

    @Test func aForgottenServerStopsByItself() async throws {
        let server = try await FakeGitHubServer.start(maxRequests: 5, lifetime: .milliseconds(200)) { _ in .json(GitHubJSON.user("octocat"))
        }
        let harness = try harness(server)
        _ = try await harness.service.user("octocat")
        try await Task.sleep(for: .milliseconds(600))
        harness.clock.advance(by: 3_600) // stale: it must ask the server, which is gone
        await #expect(throws: SearchError.offline(baseURL: "http://127.0.0.1:\(server.port)")) { try await harness.service.user("octocat") }
    }

    @Test func theServerRefusesMoreRequestsThanItsBound() async throws {
        try await FakeGitHubServer.with(maxRequests: 2, { _ in .json(GitHubJSON.searchPage(total: 0, logins: [])) }) { server in
            let service = try harness(server).service
            _ = try await service.search("a")
            _ = try await service.search("b")
            await #expect(throws: SearchError.serverFailure(status: 503)) { try await service.search("c") }
        }
    }
}
