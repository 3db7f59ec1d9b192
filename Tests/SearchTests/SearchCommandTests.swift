import CommandKit
import Foundation
import Networking
import SearchData
import SearchDomain
import SearchFeature
import SharedKit
import Testing

/// `moa search users/user` end to end through the feature's command group, on a stub client:
/// what a person reads, and the `--json` contract.
@Suite("Search: commands")
struct SearchCommandTests {
    private func pagedStub(total: Int = 3_450, page: Int = 2, last: Int = 34) -> StubHTTPClient {
        StubHTTPClient { _ throws(NetworkError) in
            .json(
                GitHubJSON.searchPage(total: total, logins: ["ada", "grace-hopper"]),
                headers: ["Link": GitHubJSON.links(base: "https://api.github.com", query: "swift", page: page, last: last, perPage: 30)])
        }
    }

    @Test func usersAreATableWithAFooterTheCapAndTheNextCommand() async throws {
        let run = try await SearchHarness(stub: pagedStub()).run(["users", "swift", "location:seoul", "--page", "2", "--per-page", "30"])
        #expect(run.status == 0)
        let lines = run.out.components(separatedBy: "\n")
        #expect(lines[0].split(separator: " ").map(String.init) == ["Login", "ID", "Type", "Score", "URL"])
        #expect(lines.contains { $0.hasPrefix("ada ") && $0.contains("https://github.com/ada") && $0.contains("User") })
        #expect(lines.contains("page 2 of 34 · 1,000 of 3,450 shown at most"))
        #expect(lines.contains("GitHub returns at most the first 1,000 results; narrow the query."))
        #expect(lines.contains("Next: moa search users 'swift location:seoul' --page 3 --per-page 30"))
    }

    @Test func aSmallResultHasNoCapNoteAndNoNextPage() async throws {
        let stub = StubHTTPClient([.success(.json(GitHubJSON.searchPage(total: 2, logins: ["ada", "bo"], incomplete: true)))])
        let run = try await SearchHarness(stub: stub).run(["users", "rare", "--sort", "followers"])
        #expect(run.out.contains("page 1 of 1 · 2 users"))
        #expect(run.out.contains("The results may be incomplete: the search timed out on the server."))
        #expect(!run.out.contains("1,000") && !run.out.contains("Next:"))
        #expect(stub.lastRequest?.query.contains(URLQueryItem(name: "sort", value: "followers")) == true)
    }

    @Test func noNextCommandPastTheCap() async throws {
        let run = try await SearchHarness(stub: pagedStub(page: 33, last: 34)).run(["users", "swift", "--page", "33", "--per-page", "30"])
        #expect(run.out.contains("Next: moa search users swift --page 34 --per-page 30")) // 991…1,000 are still reachable
        let capped = try await SearchHarness(stub: pagedStub(page: 10, last: 10)).run([
            "users", "swift", "--page", "10", "--per-page", "100",
        ])
        #expect(!capped.out.contains("Next:"))
    }

    @Test func usersJSONHasStableSnakeCaseFields() async throws {
        let run = try await SearchHarness(stub: pagedStub()).run(["users", "swift", "--page", "2", "--per-page", "30", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "query", "page", "per_page", "total_count", "incomplete_results", "page_count",
                "next_page", "last_page", "capped", "users",
            ]) // no --sort: `sort` is left out
        #expect(object["total_count"] as? Int == 3_450 && object["next_page"] as? Int == 3 && object["capped"] as? Bool == true)
        let users = try #require(object["users"] as? [[String: Any]])
        #expect(Set(users[0].keys) == ["login", "id", "type", "score", "html_url"])
        #expect(users[0]["html_url"] as? String == "https://github.com/ada")
    }

    @Test func aUserIsACardAndSaysWhereItCameFrom() async throws {
        let stub = StubHTTPClient { _ throws(NetworkError) in
            .json(GitHubJSON.user("octocat", id: 583_231, name: "The Octocat"), headers: ["ETag": #""x""#])
        }
        let harness = try SearchHarness(stub: stub)
        let first = try await harness.run(["user", "octocat"])
        #expect(first.out.contains("The Octocat (octocat)"))
        for row in ["Login", "ID", "583231", "Followers", "20,000", "Joined", "2011-01-25", "https://github.com/octocat", "fetched now"] {
            #expect(first.out.contains(row), "missing \(row)")
        }
        let second = try await harness.run(["user", "octocat"]) // the same process: from memory
        #expect(second.out.contains("from this session's cache, no request sent"))
        #expect(stub.requests.count == 1)
    }

    @Test func userJSONHasTheProfileAndItsSource() async throws {
        let stub = StubHTTPClient([.success(.json(GitHubJSON.user("octocat", id: 9, name: "Mona")))])
        let run = try await SearchHarness(stub: stub, token: "ghp_json_SECRET").run(["user", "octocat", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(object["login"] as? String == "octocat" && object["id"] as? Int == 9 && object["source"] as? String == "network")
        #expect(object["public_repos"] as? Int == 8 && object["created_at"] as? String == "2011-01-25T18:44:36Z")
        #expect(object["html_url"] as? String == "https://github.com/octocat")
        #expect(!run.out.contains("ghp_json_SECRET"))
    }

    @Test func textFromTheServerCannotDriveTheTerminal() async throws {
        let hostile = #"{"login":"evil","id":1,"type":"User","name":"\u001b[2J\u001b]0;pwned\u0007Mallory","bio":"line1\nline2"}"#
        let stub = StubHTTPClient([.success(.json(hostile))])
        let run = try await SearchHarness(stub: stub).run(["user", "evil"])
        #expect(run.status == 0)
        #expect(!run.out.contains("\u{1B}") && !run.out.contains("\u{07}"))
        #expect(run.out.contains("line1 line2"))
    }

    @Test func errorsAreOneSentenceWithAHintAndTheirExitStatus() async throws {
        let stub = StubHTTPClient([.success(.json(#"{"message":"Bad credentials"}"#, status: 401))])
        let run = try await SearchHarness(stub: stub, token: "ghp_wrong_123456").run(["users", "swift"])
        #expect(run.status == ExitStatus.noPermission.rawValue)
        #expect(
            run.err == """
                error: The search API refused the access token (HTTP 401): it is wrong, expired or revoked.
                hint: Set a valid token with `moa settings set search.api-token …`, or remove it with `moa settings reset search.api-token`.

                """)
        let usage = try await SearchHarness(stub: StubHTTPClient()).run(["users", "swift", "--per-page", "500", "--json"])
        #expect(usage.status == ExitStatus.usage.rawValue)
        #expect(usage.err.contains(#""message" : "--per-page must be from 1 to 100, not 500.""#))
        let empty = try await SearchHarness(stub: StubHTTPClient()).run(["users"])
        #expect(empty.status == ExitStatus.usage.rawValue && empty.err.contains("The search query is empty"))
    }

    @Test func koreanMessagesExistForEveryError() {
        let errors: [SearchError] = [
            .emptyQuery, .invalidPage(0), .invalidPerPage(0), .beyondResultCap(page: 40, perPage: 30), .invalidLogin("a/b"),
            .freeAndPaid, .invalidDate(option: "--from", value: "x"), .badToken(tokenSet: true), .forbidden(nil),
            .rateLimited(RateLimitReset(resetAt: nil, retryAfterSeconds: 5, tokenSet: false)), .unknownUser("x"),
            .notFound(path: "/x", baseURL: "https://h"), .invalidQuery(nil), .malformedResponse("x"), .serverFailure(status: 500),
            .unexpectedStatus(418), .timedOut(seconds: 15), .offline(baseURL: "https://h"), .invalidBaseURL("x"), .transport("x"),
            .cancelled,
        ]
        for error in errors {
            #expect(error.message(in: .ko) != error.message, "\(error) has no Korean message")
            #expect(!error.message.isEmpty)
        }
        #expect(SearchError.timedOut(seconds: 15).message(in: .ko) == "검색 API가 15초 안에 응답하지 않았습니다.")
    }
}
