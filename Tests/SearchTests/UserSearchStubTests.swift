import Foundation
import Networking
import SearchData
import SearchDomain
import SearchInterface
import SettingsInterface
import SharedKit
import Storage
import Testing

/// The user search on Core's `StubHTTPClient`: fast, exact checks of every request and every answer.
@Suite("Search: users on a stub client")
struct UserSearchStubTests {
    static let token = "ghp_stubSECRET0123456789"

    @Test func aSearchSendsGitHubsRequestWithItsHeaders() async throws {
        let stub = StubHTTPClient([.success(.json(GitHubJSON.searchPage(total: 2, logins: ["ada", "bo"])))])
        let harness = try SearchHarness(stub: stub)
        let page = try await harness.service.search("  swift location:서울 ", page: 1, perPage: 30, sort: .followers)

        let request = try #require(stub.lastRequest)
        #expect(request.method == .get)
        #expect(request.pathSegments == ["search", "users"])
        #expect(
            request.query == [
                URLQueryItem(name: "q", value: "swift location:서울"), URLQueryItem(name: "page", value: "1"),
                URLQueryItem(name: "per_page", value: "30"), URLQueryItem(name: "sort", value: "followers"),
                URLQueryItem(name: "order", value: "desc"),
            ])
        #expect(request.headers["Accept"] == "application/vnd.github+json")
        #expect(request.headers["User-Agent"] == "moa/test")
        #expect(request.headers["X-GitHub-Api-Version"] == "2022-11-28")
        #expect(request.headers["Authorization"] == nil) // no token set: no header at all
        #expect(request.timeout == 15)
        #expect(page.users.map(\.login) == ["ada", "bo"])
        #expect(page.totalCount == 2 && !page.isCapped && page.pageCount == 1)
    }

    @Test func theTokenIsSentAsABearerOnlyWhenSet() async throws {
        let stub = StubHTTPClient { _ throws(NetworkError) in .json(GitHubJSON.user("octocat")) }
        let harness = try SearchHarness(stub: stub, token: Self.token)
        _ = try await harness.service.user("octocat")
        #expect(stub.lastRequest?.headers["Authorization"] == "Bearer \(Self.token)")
        harness.settings.update { $0.searchAPI = SearchAPISettings(baseURL: $0.searchAPI.baseURL, token: nil) }
        harness.clock.advance(by: 3_600)
        _ = try await harness.service.user("octocat")
        #expect(stub.lastRequest?.headers.contains("Authorization") == false)
        #expect(
            !String(describing: SearchAPIAccess(baseURL: SettingsSnapshot.defaultSearchBaseURL, token: Self.token)).contains(Self.token))
    }

    @Test func theBaseURLIsReadAtEachRequestWithAClientPerBaseURL() async throws {
        let bases = Locked<[URL]>([])
        let stub = StubHTTPClient { _ throws(NetworkError) in .json(GitHubJSON.searchPage(total: 0, logins: [])) }
        let clients = SearchHTTPClients { base in
            bases.withLock { $0.append(base) }
            return stub
        }
        let harness = try SearchHarness(clients: clients)
        _ = try await harness.service.search("a")
        _ = try await harness.service.search("b")
        let enterprise = try #require(URL(string: "https://ghe.example.com/api/v3"))
        harness.settings.update { $0.searchAPI = SearchAPISettings(baseURL: enterprise, token: nil) }
        _ = try await harness.service.search("c")
        #expect(bases.withLock { $0 } == [SettingsSnapshot.defaultSearchBaseURL, enterprise])
        #expect(stub.requests.count == 3)
    }

    @Test func perPageDefaultsToThePageSizeSettingAtMost100() async throws {
        let stub = StubHTTPClient { _ throws(NetworkError) in .json(GitHubJSON.searchPage(total: 0, logins: [])) }
        let harness = try SearchHarness(stub: stub)
        harness.settings.update { $0.pageSize = 50 }
        _ = try await harness.service.search("swift")
        #expect(stub.lastRequest?.query.first { $0.name == "per_page" }?.value == "50")
        harness.settings.update { $0.pageSize = 200 }
        _ = try await harness.service.search("swift")
        #expect(stub.lastRequest?.query.first { $0.name == "per_page" }?.value == "100")
    }

    @Test func badInputIsRefusedBeforeAnyRequest() async throws {
        let stub = StubHTTPClient()
        let service = try SearchHarness(stub: stub).service
        await #expect(throws: SearchError.emptyQuery) { try await service.search("   ") }
        await #expect(throws: SearchError.invalidPage(0)) { try await service.search("swift", page: 0) }
        await #expect(throws: SearchError.invalidPerPage(0)) { try await service.search("swift", perPage: 0) }
        await #expect(throws: SearchError.invalidPerPage(101)) { try await service.search("swift", perPage: 101) }
        await #expect(throws: SearchError.beyondResultCap(page: 35, perPage: 30)) {
            try await service.search("swift", page: 35, perPage: 30)
        }
        await #expect(throws: SearchError.beyondResultCap(page: 11, perPage: 100)) {
            try await service.search("swift", page: 11, perPage: 100)
        }
        for login in ["", "a/b", "../etc", "ada lovelace", "..", String(repeating: "x", count: 101), "octo\u{1B}cat"] {
            await #expect(throws: SearchError.invalidLogin(login)) { try await service.user(login) }
        }
        #expect(stub.requests.isEmpty)
        #expect(
            SearchError.beyondResultCap(page: 35, perPage: 30).message
                == "GitHub returns at most the first 1,000 results; narrow the query (page 35 at 30 per page starts at result 1,021).")
        #expect(SearchError.beyondResultCap(page: 35, perPage: 30).exitStatus == .usage)
    }

    @Test func theLastPageBeforeTheCapIsStillAllowed() async throws {
        let stub = StubHTTPClient { _ throws(NetworkError) in .json(GitHubJSON.searchPage(total: 5_000, logins: ["z"])) }
        let page = try await SearchHarness(stub: stub).service.search("swift", page: 34, perPage: 30) // results 991…1,020
        #expect(page.isCapped)
        #expect(stub.requests.count == 1)
    }

    @Test func aLeadingAtIsIgnoredInALogin() async throws {
        let stub = StubHTTPClient { _ throws(NetworkError) in .json(GitHubJSON.user("octocat")) }
        _ = try await SearchHarness(stub: stub).service.user(" @octocat ")
        #expect(stub.lastRequest?.pathSegments == ["users", "octocat"])
    }

    @Test func pagingComesFromTheLinkHeader() async throws {
        let base = "https://api.github.com"
        let stub = StubHTTPClient([
            .success(
                .json(
                    GitHubJSON.searchPage(total: 3_450, logins: ["a", "b"]),
                    headers: ["Link": GitHubJSON.links(base: base, query: "swift", page: 2, last: 34, perPage: 30)])),
            .success(
                .json(
                    GitHubJSON.searchPage(total: 3_450, logins: ["c"]),
                    headers: ["Link": GitHubJSON.links(base: base, query: "swift", page: 34, last: 34, perPage: 30)])),
            .success(.json(GitHubJSON.searchPage(total: 12, logins: ["d"]))),
        ])
        let service = try SearchHarness(stub: stub).service
        let second = try await service.search("swift", page: 2, perPage: 30)
        #expect(second.nextPage == 3 && second.lastPage == 34 && second.pageCount == 34)
        #expect(second.isCapped && second.reachableCount == 1_000)
        let last = try await service.search("swift", page: 34, perPage: 30)
        #expect(last.nextPage == nil && last.lastPage == nil && last.pageCount == 34)
        let single = try await service.search("rare", page: 1, perPage: 30) // no Link: one page
        #expect(single.nextPage == nil && single.pageCount == 1 && !single.isCapped)
    }

    @Test(arguments: [
        (401, [String: String](), #"{"message":"Bad credentials"}"#, SearchError.badToken(tokenSet: true)),
        (
            403, [:], #"{"message":"Resource not accessible by personal access token"}"#,
            .forbidden("Resource not accessible by personal access token")
        ),
        (
            403, ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "1767229200"], #"{"message":"API rate limit exceeded"}"#,
            .rateLimited(RateLimitReset(resetAt: Date(timeIntervalSince1970: 1_767_229_200), retryAfterSeconds: nil, tokenSet: true))
        ),
        (
            403, ["retry-after": "60"], #"{"message":"You have exceeded a secondary rate limit."}"#,
            .rateLimited(RateLimitReset(resetAt: nil, retryAfterSeconds: 60, tokenSet: true))
        ),
        (429, [:], "", .rateLimited(RateLimitReset(resetAt: nil, retryAfterSeconds: nil, tokenSet: true))),
        (404, [:], #"{"message":"Not Found"}"#, .notFound(path: "/search/users", baseURL: "https://api.github.com")),
        (
            422, [:],
            #"{"message":"Validation Failed","errors":[{"resource":"Search","field":"q","code":"invalid","message":"The listed users cannot be searched either because the users do not exist or you do not have permission to view the users."}]}"#,
            .invalidQuery(
                "Validation Failed — The listed users cannot be searched either because the users do not exist or you do not have permission to view the users."
            )
        ),
        (
            422, [:], #"{"message":"Validation Failed","errors":[{"field":"q","code":"missing"}]}"#,
            .invalidQuery("Validation Failed — q is missing")
        ),
        (502, [:], "<html>Bad gateway</html>", .serverFailure(status: 502)),
        (418, [:], "", .unexpectedStatus(418)),
    ])
    func everyErrorStatusBecomesOneSentence(status: Int, headers: [String: String], body: String, expected: SearchError) async throws {
        let stub = StubHTTPClient([.success(.json(body, status: status, headers: HTTPHeaders(headers)))])
        let service = try SearchHarness(stub: stub, token: Self.token).service
        await #expect(throws: expected) { try await service.search("swift") }
        #expect(!expected.message.contains(Self.token) && !(expected.hint ?? "").contains(Self.token))
        #expect(expected.message.hasSuffix(".") && !expected.message.dropLast().contains(". ")) // one sentence
    }

    @Test func aRetryAfterDateCountsFromNow() async throws {
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_445_412_450)) // 2015-10-21 07:27:30 GMT
        let stub = StubHTTPClient([.success(.json("", status: 429, headers: ["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"]))])
        await #expect(throws: SearchError.rateLimited(RateLimitReset(resetAt: nil, retryAfterSeconds: 30, tokenSet: false))) {
            try await SearchHarness(stub: stub, clock: clock).service.search("swift")
        }
    }

    @Test func notFoundIsAnUnknownUserForAProfile() async throws {
        let stub = StubHTTPClient([.success(.json(#"{"message":"Not Found"}"#, status: 404))])
        await #expect(throws: SearchError.unknownUser("nobody-here")) { try await SearchHarness(stub: stub).service.user("nobody-here") }
        #expect(SearchError.unknownUser("x").exitStatus == .unavailable)
    }

    @Test(arguments: [
        (NetworkError.offline, SearchError.offline(baseURL: "https://api.github.com")),
        (.timedOut, .timedOut(seconds: 15)),
        (.cancelled, .cancelled),
        (.transport("TLS handshake failed"), .transport("TLS handshake failed")),
        (.invalidURL("ftp://x"), .invalidBaseURL("ftp://x")),
    ])
    func transportFailuresBecomeSearchErrors(failure: NetworkError, expected: SearchError) async throws {
        let stub = StubHTTPClient([.failure(failure)])
        await #expect(throws: expected) { try await SearchHarness(stub: stub).service.search("swift") }
    }

    @Test(arguments: [
        ("<html><body>Oops</body></html>", "the body is not valid JSON (it looks like HTML or XML"),
        (#"{"incomplete_results":false,"items":[]}"#, #"missing key "total_count" at the top level of UserSearchResult"#),
        (#"{"total_count":1,"items":[{"id":1}]}"#, #"missing key "login" at items[0]"#),
    ])
    func malformedBodiesSayWhatIsWrong(body: String, detail: String) async throws {
        let stub = StubHTTPClient([.success(.json(body))])
        await #expect {
            try await SearchHarness(stub: stub).service.search("swift")
        } throws: { error in
            guard case .malformedResponse(let text)? = error as? SearchError else { return false }
            return text.contains(detail) && (error as? SearchError)?.exitStatus == .dataError
        }
    }

    @Test func rateLimitMessagesGiveTheLocalResetTimeOrTheWait() throws {
        let reset = Date(timeIntervalSince1970: 1_767_229_200)
        let untilReset = SearchError.rateLimited(RateLimitReset(resetAt: reset, retryAfterSeconds: nil, tokenSet: false))
        #expect(untilReset.message == "The search API's rate limit is exhausted until \(SearchError.localTime(reset)).")
        #expect(untilReset.hint == "An access token raises the limit: `moa settings set search.api-token …`.")
        #expect(untilReset.exitStatus == .temporaryFailure)
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        #expect(SearchError.localTime(reset, in: seoul) == "10:00:00 local time (2026-01-01, UTC+09:00)")
        let wait = SearchError.rateLimited(RateLimitReset(resetAt: reset, retryAfterSeconds: 90, tokenSet: true))
        #expect(wait.message == "The search API's rate limit is exhausted: try again in 90 seconds.")
        #expect(wait.hint == nil)
    }

    // MARK: Cache

    @Test func aSecondLookupInTheSameProcessSendsNoRequest() async throws {
        let stub = StubHTTPClient { _ throws(NetworkError) in
            .json(GitHubJSON.user("octocat"), headers: ["ETag": #"W/"v1""#])
        }
        let harness = try SearchHarness(stub: stub)
        #expect(try await harness.service.user("octocat").source == .network)
        #expect(try await harness.service.user("OctoCat").source == .memory) // logins are case-insensitive
        #expect(try await harness.registry.resolve().lookup.profile(login: "octocat").login == "octocat")
        #expect(stub.requests.count == 1)
    }

    @Test func aStaleEntryIsRevalidatedAndA304ReusesTheCachedBody() async throws {
        let stub = StubHTTPClient { endpoint throws(NetworkError) in
            if endpoint.headers["If-None-Match"] == #"W/"v1""# { return HTTPResponse(status: 304, headers: ["ETag": #"W/"v1""#]) }
            return .json(
                GitHubJSON.user("octocat", name: "The Octocat"), headers: ["ETag": #"W/"v1""#, "Cache-Control": "private, max-age=60"])
        }
        let harness = try SearchHarness(stub: stub)
        let first = try await harness.service.user("octocat")
        harness.clock.advance(by: 59)
        #expect(try await harness.service.user("octocat").source == .memory)
        harness.clock.advance(by: 2)
        let second = try await harness.service.user("octocat")
        #expect(second.source == .revalidated)
        #expect(second.profile == first.profile)
        #expect(stub.requests.map { $0.headers["If-None-Match"] } == [nil, #"W/"v1""#])
        #expect(try await harness.service.user("octocat").source == .memory) // fresh again for max-age
    }

    @Test func aNewProcessRevalidatesFromTheDatabase() async throws {
        let database = try AppDatabase.temporary(migrations: [SearchMigrations.all])
        let stub = StubHTTPClient { endpoint throws(NetworkError) in
            if endpoint.headers["If-None-Match"] == #""abc""# { return HTTPResponse(status: 304) }
            return .json(GitHubJSON.user("octocat", name: "Mona"), headers: ["ETag": #""abc""#])
        }
        let first = try SearchHarness(clients: .fixed(stub), database: database)
        #expect(try await first.service.user("octocat").source == .network)
        let second = try SearchHarness(clients: .fixed(stub), database: database) // a new process: empty memory
        let again = try await second.service.user("octocat")
        #expect(again.source == .revalidated && again.profile.name == "Mona")
        #expect(stub.requests.map { $0.headers["If-None-Match"] } == [nil, #""abc""#])
        let rows = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM search_user_cache") }
        #expect(rows == 1)
    }

    @Test func aChangedUserReplacesTheCachedCopy() async throws {
        let database = try AppDatabase.temporary(migrations: [SearchMigrations.all])
        let stub = StubHTTPClient([
            .success(.json(GitHubJSON.user("octocat", name: "Old"), headers: ["ETag": #""v1""#])),
            .success(.json(GitHubJSON.user("octocat", name: "New"), headers: ["ETag": #""v2""#])),
            .success(HTTPResponse(status: 304)),
        ])
        _ = try await SearchHarness(clients: .fixed(stub), database: database).service.user("octocat")
        let changed = try await SearchHarness(clients: .fixed(stub), database: database).service.user("octocat")
        #expect(changed.source == .network && changed.profile.name == "New")
        let reused = try await SearchHarness(clients: .fixed(stub), database: database).service.user("octocat")
        #expect(reused.source == .revalidated && reused.profile.name == "New")
        #expect(stub.requests.map { $0.headers["If-None-Match"] } == [nil, #""v1""#, #""v2""#])
    }

    @Test func anUnreadableCachedBodyIsFetchedAgainUnconditionally() async throws {
        let database = try AppDatabase.temporary(migrations: [SearchMigrations.all])
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO search_user_cache (base_url, login, etag, body, fetched_at) VALUES (?, ?, ?, ?, ?)",
                arguments: ["https://api.github.com", "octocat", #""old""#, Data("not json".utf8), Date()])
        }
        let stub = StubHTTPClient([.success(.json(GitHubJSON.user("octocat"), headers: ["ETag": #""new""#]))])
        #expect(try await SearchHarness(clients: .fixed(stub), database: database).service.user("octocat").source == .network)
        #expect(stub.lastRequest?.headers["If-None-Match"] == nil)
    }

    @Test func errorsAreNotCached() async throws {
        let stub = StubHTTPClient([
            .success(.json(#"{"message":"Not Found"}"#, status: 404)),
            .success(.json(GitHubJSON.user("late"), headers: ["ETag": #""1""#])),
        ])
        let service = try SearchHarness(stub: stub).service
        await #expect(throws: SearchError.unknownUser("late")) { try await service.user("late") }
        #expect(try await service.user("late").source == .network)
    }
}
