import Foundation
import Logging
import Networking
import SharedKit
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - Endpoint and URL building

@Suite("Network: URL building")
struct NetworkURLBuildingTests {
    private func url(_ base: String, _ endpoint: Endpoint) throws -> String {
        let baseURL = try #require(URL(string: base))
        return try endpoint.url(relativeTo: baseURL).absoluteString
    }

    @Test(arguments: [
        "https://api.example.com", "https://api.example.com/", "https://api.example.com//",
    ])
    func baseWithOrWithoutTrailingSlash(base: String) throws {
        #expect(try url(base, Endpoint(path: "/users/octocat")) == "https://api.example.com/users/octocat")
        #expect(try url(base, Endpoint(path: "users/octocat/")) == "https://api.example.com/users/octocat")
    }

    @Test(arguments: ["http://127.0.0.1:8080/api/v3", "http://127.0.0.1:8080/api/v3/"])
    func basePathPrefixIsKept(base: String) throws {
        #expect(try url(base, Endpoint(path: "/search/users")) == "http://127.0.0.1:8080/api/v3/search/users")
        #expect(try url(base, Endpoint(path: "")) == "http://127.0.0.1:8080/api/v3" + (base.hasSuffix("/") ? "/" : ""))
    }

    @Test func queryIsPercentEncodedStrictly() throws {
        let endpoint = Endpoint(
            path: "/search/users",
            query: [
                URLQueryItem(name: "q", value: "swift language:ko"),
                URLQueryItem(name: "tag", value: "c++ & 한국어 = 1/2?"),
                URLQueryItem(name: "flag", value: nil),
                URLQueryItem(name: "page", value: "2"),
            ])
        let built = try url("https://api.example.com", endpoint)
        #expect(
            built == "https://api.example.com/search/users?q=swift%20language%3Ako"
                + "&tag=c%2B%2B%20%26%20%ED%95%9C%EA%B5%AD%EC%96%B4%20%3D%201%2F2%3F&flag&page=2")
        // The server reads back exactly what was given.
        let components = try #require(URLComponents(string: built))
        #expect(components.queryItems == endpoint.query)
    }

    @Test func pathSegmentsAreEncodedOneByOne() throws {
        let endpoint = Endpoint(pathSegments: ["users", "a b/c?d#e%f", "서울", "x:y@z"])
        #expect(
            try url("https://api.example.com/v1", endpoint)
                == "https://api.example.com/v1/users/a%20b%2Fc%3Fd%23e%25f/%EC%84%9C%EC%9A%B8/x:y@z")
        #expect(endpoint.path == "/users/a b/c?d#e%f/서울/x:y@z")
    }

    @Test func baseQueryIsKeptAndFragmentDropped() throws {
        let endpoint = Endpoint(path: "/items", query: [URLQueryItem(name: "page", value: "3")])
        #expect(try url("https://h.example/api?v=1#top", endpoint) == "https://h.example/api/items?v=1&page=3")
        #expect(try url("https://h.example", Endpoint(path: "/items")) == "https://h.example/items")
    }

    @Test(arguments: ["ftp://example.com", "file:///tmp/x", "relative/path", "mailto:someone@example.com"])
    func nonHTTPBaseIsInvalid(base: String) throws {
        let baseURL = try #require(URL(string: base))
        let error = #expect(throws: NetworkError.self) { try Endpoint(path: "/x").url(relativeTo: baseURL) }
        guard case .invalidURL = error else {
            Issue.record("expected .invalidURL, got \(String(describing: error))")
            return
        }
        #expect(error?.exitStatus == .configuration)
    }

    @Test func invalidURLErrorHidesTheBaseURLSecrets() throws {
        let baseURL = try #require(URL(string: "ftp://user:hunter2@example.com/?token=abc"))
        #expect(throws: NetworkError.invalidURL("ftp://user:***@example.com/?token=***")) {
            try Endpoint(path: "/x").url(relativeTo: baseURL)
        }
    }

    @Test func urlRequestCarriesMethodHeadersBodyAndTimeout() throws {
        let baseURL = try #require(URL(string: "https://api.example.com"))
        let endpoint = Endpoint(
            .post, path: "/things", headers: ["accept": "application/json", "X-Trace": "1"],
            body: Data("{}".utf8), timeout: 3
        ).ifNoneMatch("\"abc\"")
        let request = try endpoint.urlRequest(
            baseURL: baseURL, defaultHeaders: ["Accept": "text/plain", "User-Agent": "moa"])
        #expect(request.httpMethod == "POST")
        #expect(request.httpBody == Data("{}".utf8))
        #expect(request.timeoutInterval == 3)
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "moa")
        #expect(request.value(forHTTPHeaderField: "If-None-Match") == "\"abc\"")
        #expect(endpoint.ifNoneMatch(nil) == endpoint)
    }

    @Test func followingALinkUnderTheBaseURL() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080/api/v3/"))
        let next = try #require(URL(string: "http://127.0.0.1:8080/api/v3/search/users?q=swift+language%3Ako&page=2"))
        let endpoint = try #require(Endpoint(following: next, under: base))
        #expect(endpoint.pathSegments == ["search", "users"])
        #expect(
            endpoint.query == [
                URLQueryItem(name: "q", value: "swift language:ko"), URLQueryItem(name: "page", value: "2"),
            ])
        #expect(
            try endpoint.url(relativeTo: base).absoluteString
                == "http://127.0.0.1:8080/api/v3/search/users?q=swift%20language%3Ako&page=2")

        let github = try #require(URL(string: "https://api.github.com"))
        let githubNext = try #require(URL(string: "https://api.github.com:443/search/users?q=a&page=3"))
        #expect(Endpoint(following: githubNext, under: github)?.path == "/search/users")
    }

    @Test(arguments: [
        "http://evil.example:8080/api/v3/search/users?page=2", // another host
        "https://127.0.0.1:8080/api/v3/search/users", // another scheme
        "http://127.0.0.1:9090/api/v3/search/users", // another port
        "http://127.0.0.1:8080/api/v30/search", // outside the base path
        "http://127.0.0.1:8080/search/users",
    ])
    func linksOutsideTheBaseURLAreNotFollowed(link: String) throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080/api/v3"))
        #expect(Endpoint(following: try #require(URL(string: link)), under: base) == nil)
    }
}

// MARK: - Headers and responses

@Suite("Network: headers and responses")
struct NetworkResponseTests {
    @Test func headerLookupIsCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "ETag": "\"v1\"", "Link": "<a>; rel=next"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["ETAG"] == "\"v1\"")
        #expect(headers.contains("link"))
        headers["etag"] = "\"v2\""
        #expect(headers["ETag"] == "\"v2\"")
        #expect(headers.count == 3)
        headers.add(name: "link", value: "<b>; rel=last")
        #expect(headers.values(for: "LINK") == ["<a>; rel=next", "<b>; rel=last"])
        headers["Link"] = nil
        #expect(!headers.contains("link"))
        #expect(headers == ["content-type": "application/json", "etag": "\"v2\""])
    }

    @Test func mergingReplacesFieldsOfTheSameName() {
        let merged = HTTPHeaders(["Accept": "a", "User-Agent": "moa"]).merging(["accept": "b"])
        #expect(merged["ACCEPT"] == "b")
        #expect(merged.values(for: "accept") == ["b"])
        #expect(merged["user-agent"] == "moa")
    }

    @Test func requireSuccessAcceptsOnly2xx() throws {
        #expect(try HTTPResponse(status: 204).requireSuccess().status == 204)
        let body = Data(#"{"message":"Not Found"}"#.utf8)
        #expect(throws: NetworkError.httpStatus(404, body)) {
            try HTTPResponse(status: 404, body: body).requireSuccess()
        }
        #expect(HTTPResponse(status: 304).isNotModified)
        #expect(!HTTPResponse(status: 304).isSuccess)
    }

    private struct User: Decodable, Equatable {
        let login: String
        let id: Int
    }

    private struct Page: Decodable {
        let items: [User]
    }

    @Test func decodesJSON() throws {
        let response = HTTPResponse.json(#"{"items":[{"login":"octocat","id":1}]}"#, headers: ["ETag": "W/\"x\""])
        #expect(try response.decode(Page.self).items == [User(login: "octocat", id: 1)])
        #expect(response.etag == "W/\"x\"")
        #expect(response.headers["content-type"] == "application/json")
    }

    @Test(arguments: [
        (#"{"items":[{"login":"a","id":"seven"}]}"#, "expected Int at items[0].id of Page"),
        (#"{"items":[{"id":1}]}"#, "missing key \"login\" at items[0] of Page"),
        (#"{"items":null}"#, "found null where"),
        ("{not json", "the body is not valid JSON (9 bytes)"),
        ("<html><body>Bad gateway</body></html>", "not valid JSON (it looks like HTML or XML"),
        ("", "not valid JSON (it is empty)"),
    ])
    func malformedJSONGivesAUsefulMessage(body: String, expected: String) throws {
        let error = #expect(throws: NetworkError.self) { try HTTPResponse.json(body).decode(Page.self) }
        let message = try #require(error?.message)
        #expect(message.hasPrefix("The server's response could not be read: "))
        #expect(message.contains(expected), "\(message)")
        #expect(message.hasSuffix("."))
        #expect(error?.exitStatus == .dataError)
    }

    @Test func responseLinksJoinEveryLinkHeader() throws {
        var headers = HTTPHeaders()
        headers.add(name: "Link", value: "<https://h.example/a?page=2>; rel=\"next\"")
        headers.add(name: "link", value: "</a?page=9>; rel=\"last\"")
        let links = HTTPResponse(status: 200, headers: headers).links(relativeTo: URL(string: "https://h.example"))
        #expect(links["next"]?.absoluteString == "https://h.example/a?page=2")
        #expect(links["last"]?.absoluteString == "https://h.example/a?page=9")
    }
}

// MARK: - Link header

@Suite("Network: Link header")
struct NetworkLinkHeaderTests {
    @Test func parsesGitHubStyleLinks() {
        let header =
            #"<https://api.github.com/search/users?q=swift&page=2>; rel="next", "#
            + #"<https://api.github.com/search/users?q=swift&page=34>; rel="last""#
        let links = LinkHeader.parse(header)
        #expect(links.count == 2)
        #expect(links["next"]?.absoluteString == "https://api.github.com/search/users?q=swift&page=2")
        #expect(links["last"]?.absoluteString == "https://api.github.com/search/users?q=swift&page=34")
    }

    @Test func toleratesSpacingQuotingCaseAndSeveralRelations() {
        let header =
            "  <https://x.example/p?page=1> ;rel = first ,<https://x.example/p?page=3>;REL=\"Prev  Last\""
            + ";title=\"a, b; c\" , <https://x.example/p?a=1,2>; type=\"text/html\"; rel=\"next\""
        let links = LinkHeader.parse(header)
        #expect(links["first"]?.absoluteString == "https://x.example/p?page=1")
        #expect(links["prev"]?.absoluteString == "https://x.example/p?page=3")
        #expect(links["last"]?.absoluteString == "https://x.example/p?page=3")
        #expect(links["next"]?.absoluteString == "https://x.example/p?a=1,2")
        #expect(links.count == 4)
    }

    @Test func ignoresMalformedParts() {
        let header =
            #"garbage; rel="bogus", <https://x.example/2>; rel="next", <https://x.example/no-rel>, "#
            + #"<https://x.example/9>; rel="next", <https://x.example/1> rel="first", <>; rel="empty", "#
            + #"<https://x.example/0>; rel="prev", <https://x.example/unterminated; rel="last""#
        let links = LinkHeader.parse(header)
        #expect(
            links
                == ["next": URL(string: "https://x.example/2"), "prev": URL(string: "https://x.example/0")]
                .compactMapValues { $0 })
    }

    @Test func resolvesRelativeTargetsOnlyAgainstABase() throws {
        let header = #"</api/v3/users?page=2>; rel="next""#
        #expect(LinkHeader.parse(header).isEmpty)
        let base = try #require(URL(string: "http://127.0.0.1:8080/api/v3/search"))
        #expect(
            LinkHeader.parse(header, relativeTo: base)["next"]?.absoluteString
                == "http://127.0.0.1:8080/api/v3/users?page=2")
    }

    @Test(arguments: ["", " ", ",,,", "<", "rel=\"next\"", "<https://x.example/>; rel=\"unterminated"])
    func emptyOrBrokenHeadersGiveNothing(header: String) {
        #expect(LinkHeader.parse(header).isEmpty)
    }
}

// MARK: - Redaction and logging

@Suite("Network: redaction")
struct NetworkRedactionTests {
    @Test func secretHeadersAreMasked() {
        let headers: HTTPHeaders = [
            "Authorization": "Bearer ghp_SECRET", "proxy-authorization": "Basic SECRET", "Cookie": "sid=SECRET",
            "Set-Cookie": "sid=SECRET; HttpOnly", "X-API-Key": "SECRET", "X-Auth-Token": "SECRET",
            "Accept": "application/json", "ETag": "\"v1\"",
        ]
        let redacted = Redactor.redact(headers)
        #expect(redacted["authorization"] == "***")
        #expect(redacted["Proxy-Authorization"] == "***")
        #expect(redacted["cookie"] == "***")
        #expect(redacted["set-cookie"] == "***")
        #expect(redacted["x-api-key"] == "***")
        #expect(redacted["x-auth-token"] == "***")
        #expect(redacted["accept"] == "application/json")
        #expect(redacted["etag"] == "\"v1\"")
        #expect(!headers.description.contains("SECRET"))
    }

    @Test(arguments: [
        "token", "access_token", "api_key", "apikey", "apiKey", "API-KEY", "key", "password", "secret",
        "client_secret", "code", "refreshToken", "auth_token", "X-Amz-Signature",
    ])
    func sensitiveQueryNames(name: String) {
        #expect(Redactor.isSensitiveQueryName(name))
    }

    @Test(arguments: ["q", "page", "per_page", "sort", "order", "keyword", "language", "since"])
    func ordinaryQueryNames(name: String) {
        #expect(!Redactor.isSensitiveQueryName(name))
    }

    @Test func urlQueryAndUserInfoAreMasked() throws {
        let url = try #require(
            URL(string: "https://user:pw@h.example/p?q=a+b&access_token=abc%20d&page=2&apiKey=k&key#frag"))
        #expect(
            Redactor.redact(url) == "https://user:***@h.example/p?q=a+b&access_token=***&page=2&apiKey=***&key#frag")
        #expect(Redactor.redact(urlString: "https://ghp_TOKEN@h.example/") == "https://***@h.example/")
        #expect(Redactor.redact(urlString: "http://h.example/p?q=1") == "http://h.example/p?q=1")
        #expect(
            Redactor.redact([URLQueryItem(name: "password", value: "x"), URLQueryItem(name: "q", value: "y")])
                == [URLQueryItem(name: "password", value: "***"), URLQueryItem(name: "q", value: "y")])
    }
}

// MARK: - URLSessionHTTPClient

@Suite("Network: URLSession client")
struct NetworkURLSessionClientTests {
    private static let secret = "ghp_TOPSECRET123"

    private func client(_ baseURL: URL, sink: LogLines) -> URLSessionHTTPClient {
        URLSessionHTTPClient(
            baseURL: baseURL,
            session: URLSessionHTTPClient.makeSession(timeout: 20),
            defaultHeaders: ["Authorization": "Bearer \(Self.secret)", "User-Agent": "moa-tests"],
            logger: sink.logger(label: "test.network"))
    }

    @Test(.timeLimit(.minutes(1)))
    func refusedConnectionIsOfflineAndLogsNoSecret() async throws {
        let closed = try NetworkLoopbackServer(listening: false) // bound, not listening: connect is refused
        let sink = LogLines()
        let endpoint = Endpoint(
            path: "/search/users",
            query: [URLQueryItem(name: "q", value: "moa"), URLQueryItem(name: "access_token", value: Self.secret)],
            headers: ["X-Api-Key": Self.secret], timeout: 2)
        await #expect(throws: NetworkError.offline) { try await client(try closed.baseURL, sink: sink).send(endpoint) }

        let log = sink.all.joined(separator: "\n")
        #expect(sink.all.count == 2) // trace: request headers; debug: the outcome
        #expect(
            log.contains("debug HTTP GET http://127.0.0.1:\(closed.port)/search/users?q=moa&access_token=*** -> failed")
        )
        #expect(log.contains(#""Authorization": "***""#))
        #expect(log.contains(#""X-Api-Key": "***""#))
        #expect(!log.contains(Self.secret))
        #expect(NetworkError.offline.exitStatus == .unavailable)
    }

    @Test(.timeLimit(.minutes(1)))
    func aSecretInThePathIsMaskedInLogsAndErrors() async throws {
        let closed = try NetworkLoopbackServer(listening: false)
        let sink = LogLines()
        let key = "SEOUL-KEY-4f2a"
        let client = URLSessionHTTPClient(
            baseURL: try closed.baseURL, session: URLSessionHTTPClient.makeSession(timeout: 5),
            logger: sink.logger(label: "test.network"), secrets: [key])
        await #expect {
            try await client.send(Endpoint(pathSegments: [key, "json", "culturalEventInfo", "1", "5"], timeout: 2))
        } throws: { error in
            !"\((error as? NetworkError)?.message ?? "")".contains(key)
        }
        let log = sink.all.joined(separator: "\n")
        #expect(log.contains("/***/json/culturalEventInfo/1/5"))
        #expect(!log.contains(key))
        #expect(
            NetworkError.transport("could not load http://x/\(key)/json").hiding([key]) == .transport("could not load http://x/***/json"))
    }

    @Test(.timeLimit(.minutes(1)))
    func realExchangeWithALoopbackServer() async throws {
        let server = try NetworkLoopbackServer()
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)/api/v3/"))
        let sink = LogLines()
        let body = #"{"login":"octocat","id":1}"#
        let reply =
            "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\netag: \"v7\"\r\n"
            + "Link: <http://127.0.0.1:\(server.port)/api/v3/users?page=2>; rel=\"next\"\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        async let received = server.serveOnce(reply, timeout: 20)
        let endpoint = Endpoint(
            pathSegments: ["users", "옥토 cat"], query: [URLQueryItem(name: "token", value: Self.secret)],
            timeout: 20) // generous: the whole suite runs in parallel on 2 cores; timing is not what this tests
        let response = try await client(base, sink: sink).send(endpoint)
        let request = try #require(await received)

        #expect(request.hasPrefix("GET /api/v3/users/%EC%98%A5%ED%86%A0%20cat?token=\(Self.secret) HTTP/1.1\r\n"))
        #expect(request.lowercased().contains("authorization: bearer \(Self.secret.lowercased())"))
        #expect(response.status == 404) // non-2xx is an answer, not an error
        #expect(response.headers["ETAG"] == "\"v7\"")
        #expect(response.links()["next"]?.absoluteString == "http://127.0.0.1:\(server.port)/api/v3/users?page=2")
        #expect(throws: NetworkError.httpStatus(404, Data(body.utf8))) { try response.requireSuccess() }

        let log = sink.all.joined(separator: "\n")
        let path = "/api/v3/users/%EC%98%A5%ED%86%A0%20cat"
        #expect(log.contains("debug HTTP GET http://127.0.0.1:\(server.port)\(path)?token=*** -> 404 ("))
        #expect(log.contains("http.status=404"))
        #expect(!log.contains(Self.secret))
    }

    @Test func invalidBaseURLFailsBeforeAnyRequest() async throws {
        let sink = LogLines()
        let base = try #require(URL(string: "ftp://files.example"))
        await #expect(throws: NetworkError.invalidURL("ftp://files.example")) {
            try await client(base, sink: sink).send(Endpoint(path: "/x"))
        }
        #expect(sink.all.isEmpty)
    }
}

// MARK: - Error mapping

@Suite("Network: errors")
struct NetworkErrorTests {
    @Test(arguments: [
        (URLError.Code.notConnectedToInternet, NetworkError.offline),
        (.cannotConnectToHost, .offline),
        (.cannotFindHost, .offline),
        (.networkConnectionLost, .offline),
        (.dnsLookupFailed, .offline),
        (.timedOut, .timedOut),
        (.cancelled, .cancelled),
        (.badURL, .invalidURL("")),
    ])
    func urlErrorCodesMap(code: URLError.Code, expected: NetworkError) {
        #expect(NetworkError(urlError: URLError(code)) == expected)
        #expect(NetworkError(transportError: URLError(code)) == expected)
    }

    @Test func otherURLErrorsAreTransportFailuresWithoutSecrets() throws {
        let failing = try #require(URL(string: "https://h.example/x?access_token=SECRET"))
        let error = URLError(
            .secureConnectionFailed,
            userInfo: [
                NSURLErrorFailingURLErrorKey: failing,
                NSLocalizedDescriptionKey: "TLS failed for \(failing.absoluteString)",
            ])
        let mapped = NetworkError(urlError: error)
        guard case .transport(let detail) = mapped else {
            Issue.record("expected .transport, got \(mapped)")
            return
        }
        #expect(!detail.contains("SECRET"))
        #expect(detail.contains("access_token=***"))
        #expect(mapped.message.hasPrefix("The request failed: "))
        #expect(mapped.exitStatus == .unavailable)
    }

    @Test func cancellationAndPassThrough() {
        #expect(NetworkError(transportError: CancellationError()) == .cancelled)
        #expect(NetworkError(transportError: NetworkError.timedOut) == .timedOut)
    }

    @Test(arguments: [
        (NetworkError.offline, SharedKit.ExitStatus.unavailable),
        (.timedOut, .temporaryFailure),
        (.cancelled, .temporaryFailure),
        (.invalidURL("x"), .configuration),
        (.transport("x"), .unavailable),
        (.decoding("x"), .dataError),
        (.httpStatus(401, Data()), .noPermission),
        (.httpStatus(403, Data()), .noPermission),
        (.httpStatus(404, Data()), .unavailable),
        (.httpStatus(422, Data()), .dataError),
        (.httpStatus(429, Data()), .temporaryFailure),
        (.httpStatus(503, Data()), .temporaryFailure),
    ])
    func exitStatuses(error: NetworkError, status: SharedKit.ExitStatus) {
        #expect(error.exitStatus == status)
        #expect(error.message.hasSuffix("."))
        #expect(error.message.split(separator: ". ").count == 1) // one sentence
    }

    @Test func messagesReadWell() {
        #expect(NetworkError.offline.message == "Could not connect to the server.")
        #expect(NetworkError.httpStatus(404, Data()).message == "The server answered with HTTP status 404 (Not Found).")
        #expect(NetworkError.httpStatus(418, Data()).message == "The server answered with HTTP status 418.")
        #expect(NetworkError.transport("boom.").message == "The request failed: boom.")
        #expect(NetworkError.httpStatus(429, Data()).hint == "Try again later.")
        #expect(NetworkError.invalidURL("").message == "The address is not a valid http or https URL.")
        #expect(NetworkError.invalidURL("ftp://x").message == #""ftp://x" is not a valid http or https URL."#)
    }
}

// MARK: - StubHTTPClient

@Suite("Network: StubHTTPClient")
struct NetworkStubClientTests {
    @Test func recordsAndReplaysQueuedResults() async throws {
        let stub = StubHTTPClient([.success(.json(#"{"ok":true}"#)), .failure(.offline)])
        stub.enqueue(HTTPResponse(status: 304))
        let client: any HTTPClient = stub

        #expect(try await client.send(Endpoint(path: "/a")).status == 200)
        await #expect(throws: NetworkError.offline) { try await client.send(Endpoint(.post, path: "/b")) }
        #expect(try await client.send(Endpoint(path: "/c").ifNoneMatch("\"e\"")).isNotModified)
        await #expect(throws: NetworkError.self) { try await client.send(Endpoint(path: "/d")) } // nothing left

        #expect(stub.requests.map(\.path) == ["/a", "/b", "/c", "/d"])
        #expect(stub.requests[1].method == .post)
        #expect(stub.requests[2].headers["if-none-match"] == "\"e\"")
        #expect(stub.pendingCount == 0)
    }

    @Test func answersFromAHandlerAfterTheQueue() async throws {
        let stub = StubHTTPClient([.success(HTTPResponse(status: 201))]) { endpoint throws(NetworkError) in
            guard endpoint.pathSegments.first == "users" else { throw .httpStatus(404, Data()) }
            return .json(#"{"login":"\#(endpoint.pathSegments.last ?? "")"}"#)
        }
        #expect(try await stub.send(Endpoint(path: "/first")).status == 201)
        #expect(
            try await stub.send(Endpoint(pathSegments: ["users", "octocat"])).body == Data(#"{"login":"octocat"}"#.utf8)
        )
        await #expect(throws: NetworkError.httpStatus(404, Data())) { try await stub.send(Endpoint(path: "/nope")) }
        #expect(stub.lastRequest?.path == "/nope")
    }

    @Test func isSafeUnderConcurrentUse() async throws {
        let stub = StubHTTPClient { _ in HTTPResponse(status: 200) }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask { try await stub.send(Endpoint(pathSegments: ["item", String(index)])).status }
            }
            for try await status in group { #expect(status == 200) }
        }
        #expect(Set(stub.requests.map(\.path)).count == 50)
    }
}
