import ArchiveInterface
import ArchiveTesting
import CommandKit
import DesignSystem
import Foundation
import Networking
import SearchDomain
import SearchInterface
import SharedKit
import TestSupport
import Testing

@testable import SearchFeature

/// Users with explicit ids (the id is what duplicates are recognised by).
private func usersPage(total: Int, _ users: [(login: String, id: Int64)]) -> String {
    let items = users.map { user in
        #"{"login":"\#(user.login)","id":\#(user.id),"type":"User","score":1.0,"html_url":"https://github.com/\#(user.login)","avatar_url":null}"#
    }
    return #"{"total_count":\#(total),"incomplete_results":false,"items":[\#(items.joined(separator: ","))]}"#
}

/// The server's own address, for its `Link` headers.
private func base(_ request: SeenRequest) -> String {
    "http://127.0.0.1:\(request.headers["host"]?.split(separator: ":").last ?? "")"
}

/// Two pages of "swift": page 1 ada, grace, linus; page 2 grace again (a duplicate), ken, barbara; no page 3.
/// `pageTwo` can replace the second page's reply (an error, a delay).
private func twoPages(pageTwo: (@Sendable (SeenRequest, Int) -> CannedReply?)? = nil) -> FakeGitHubServer.Handler {
    let pageTwoCalls = Locked(0)
    return { request in
        if request.path == "/users/ken" {
            return .json(
                #"{"login":"ken","id":4,"type":"User","name":"Ken Thompson","company":"Google","blog":"","location":"Murray Hill","#
                    + #""email":null,"bio":"Unix & Go","public_repos":12,"followers":4567,"following":0,"created_at":"2010-01-01T00:00:00Z","#
                    + #""html_url":"https://github.com/ken","avatar_url":null}"#)
        }
        if request.path.hasPrefix("/users/") {
            return .json(GitHubJSON.user(String(request.path.dropFirst("/users/".count)), id: 3, name: "Linus Torvalds"))
        }
        guard request.path == "/search/users" else { return .json(#"{"message":"Not Found"}"#, status: 404) }
        let page = Int(request.query["page"] ?? "") ?? 1
        let links = GitHubJSON.links(base: base(request), query: "swift", page: page, last: 2, perPage: 20)
        if page == 1 {
            return .json(usersPage(total: 6, [("ada", 1), ("grace", 2), ("linus", 3)]), headers: ["Link": links])
        }
        let call = pageTwoCalls.withLock { count in
            count += 1
            return count
        }
        if let replaced = pageTwo?(request, call) { return replaced }
        return .json(usersPage(total: 6, [("grace", 2), ("ken", 4), ("barbara", 5)]), headers: ["Link": links])
    }
}

private func harness(_ server: FakeGitHubServer) throws -> SearchHarness {
    try SearchHarness(clients: .logging(to: LogLines()), baseURL: try server.baseURL)
}

private func searchRequests(_ server: FakeGitHubServer, page: Int) -> Int {
    server.requests.filter { $0.path == "/search/users" && $0.query["page"] == String(page) }.count
}

@Suite("Search: the user list grows on demand", .serialized, .timeLimit(.minutes(1)))
@MainActor
struct UserListPagingTests {
    private func names(_ history: [SearchCoordinator.Route]) -> [String] {
        history.map { route in
            switch route {
            case .menu: "menu"
            case .userQuery: "userQuery"
            case .users: "users"
            case .user(let login): "user \(login)"
            case .eventFilters: "eventFilters"
            case .events(let input): "events p\(input.page)"
            case .event: "event"
            }
        }
    }

    /// Runs `body` with a fake GitHub on 127.0.0.1 (on the main actor, like the coordinator), then stops it.
    private func withServer(_ handler: @escaping FakeGitHubServer.Handler, _ body: (FakeGitHubServer) async throws -> Void) async throws {
        let server = try await FakeGitHubServer.start(maxRequests: 20, lifetime: .seconds(20), handler)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func coordinator(_ harness: SearchHarness, _ answers: [String], out: CapturingOutput) throws -> SearchCoordinator {
        let screen = Screen(context: CommandContext(out: out, err: CapturingOutput()), input: ScriptedLineInput(answers))
        return SearchCoordinator(
            screen: screen, users: harness.service, events: harness.events,
            archiving: FakeEventArchiving(today: try #require(Day("2026-01-01"))))
    }

    @Test func twoPagesAreJoinedWithoutTheDuplicateThenTheEndIsSaidAndADetailReturnsToTheSamePlace() async throws {
        try await withServer(twoPages()) { server in
            let out = CapturingOutput()
            let flow = try coordinator(
                try harness(server),
                [
                    "1", // users
                    "swift", // the query
                    "n", // more: page 2
                    "n", // more again: the end, no request
                    "x", // not a choice
                    "4", // ken
                    "", // leave ken's card
                    "0", // back from the list
                    "0", // quit the menu
                ], out: out)
            await flow.run()
            #expect(names(flow.router.history) == ["menu", "userQuery", "users", "user ken", "users", "menu"])
            let text = out.text
            // Page 1, with the prompt offering more.
            #expect(text.contains("“swift” · 3 users loaded of 6 · 1 page"))
            #expect(text.contains("1–3: open a user · n: more · 0: back >"))
            // Page 2: only its new rows, numbered after page 1; grace is not repeated.
            #expect(text.contains("“swift” · 5 users loaded of 6 · 2 pages"))
            #expect(text.contains("4  ken"))
            #expect(text.contains("5  barbara"))
            #expect(text.components(separatedBy: "  grace ").count == 2) // listed once
            #expect(text.contains("1 user was already listed and is not repeated."))
            #expect(text.contains("That was the last page: all 5 users are loaded."))
            #expect(text.contains("1–5: open a user · 0: back >"))
            #expect(text.contains("Type a number from 1 to 5, or 0 to go back."))
            // The card, then the same rows again with ken marked.
            #expect(text.contains("Ken Thompson (ken)"))
            #expect(
                text.contains("Unix & Go") && text.contains("Murray Hill") && text.contains("4,567")
                    && text.contains("https://github.com/ken"))
            let afterCard = try #require(text.components(separatedBy: "Press Enter to go back to the results.").last)
            #expect(afterCard.contains("› 4  ken"))
            #expect(afterCard.contains("5  barbara") && !afterCard.contains("  ada "))
            // One request per page; the second "n" sent nothing; back from the card re-used the list.
            #expect(searchRequests(server, page: 1) == 1 && searchRequests(server, page: 2) == 1)
            #expect(server.requests.filter { $0.path == "/search/users" }.count == 2)
        }
    }

    @Test func aRateLimitOnPageTwoKeepsPageOneAndNCanTryAgain() async throws {
        let reset = Int(Date().timeIntervalSince1970) + 600
        let handler = twoPages { _, call in
            call == 1
                ? .json(
                    #"{"message":"API rate limit exceeded for 127.0.0.1."}"#, status: 403,
                    headers: ["x-ratelimit-limit": "60", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset)]) : nil
        }
        try await withServer(handler) { server in
            let out = CapturingOutput()
            let flow = try coordinator(try harness(server), ["1", "swift", "n", "3", "", "n", "0", "0"], out: out)
            await flow.run()
            #expect(names(flow.router.history) == ["menu", "userQuery", "users", "user linus", "users", "menu"])
            let text = out.text
            #expect(text.contains("rate limit"))
            #expect(text.contains("The 3 users loaded so far are kept; type n to try again."))
            // Still offered: more (the page was not consumed), and linus (row 3, from page 1) opened fine.
            let afterError = try #require(text.components(separatedBy: "type n to try again.").last)
            #expect(afterError.contains("1–3: open a user · n: more · 0: back >"))
            // The retry worked and appended page 2 after page 1's rows.
            #expect(text.contains("Linus Torvalds (linus)"))
            #expect(text.contains("“swift” · 5 users loaded of 6 · 2 pages"))
            #expect(searchRequests(server, page: 2) == 2)
        }
    }

    @Test func anOfflineNextPageKeepsTheList() async throws {
        let calls = Locked(0)
        let stub = StubHTTPClient { endpoint throws(NetworkError) in
            let page = endpoint.query.first { $0.name == "page" }?.value ?? "1"
            calls.withLock { $0 += 1 }
            guard page == "1" else { throw .offline }
            return .json(
                usersPage(total: 40, [("ada", 1), ("grace", 2)]),
                headers: ["Link": GitHubJSON.links(base: "https://api.github.com", query: "swift", page: 1, last: 2, perPage: 20)])
        }
        let search = try SearchHarness(stub: stub)
        let viewModel = SearchViewModel(users: search.service, events: search.events)
        await viewModel.send(.startUsers(query: "swift"))
        #expect(viewModel.state.userList?.users.map(\.login) == ["ada", "grace"])
        await viewModel.send(.moreUsers)
        let error = try #require(viewModel.state.error as? SearchError)
        #expect(error == .offline(baseURL: "https://api.github.com"))
        #expect(viewModel.state.userList?.users.map(\.login) == ["ada", "grace"])
        #expect(viewModel.state.userList?.nextPage == 2)
        // A user's card in between does not drop the list either.
        await viewModel.send(.user(login: "nobody"))
        #expect(viewModel.state.userList?.users.count == 2)
        #expect(calls.withLock { $0 } == 3)
    }

    @Test func askingTwiceWhileAPageLoadsSendsOneRequest() async throws {
        let handler = twoPages { request, _ in
            var reply = CannedReply.json(
                usersPage(total: 6, [("grace", 2), ("ken", 4), ("barbara", 5)]),
                headers: ["Link": GitHubJSON.links(base: base(request), query: "swift", page: 2, last: 2, perPage: 20)])
            reply.delay = .milliseconds(400)
            return reply
        }
        try await withServer(handler) { server in
            let search = try harness(server)
            let viewModel = SearchViewModel(users: search.service, events: search.events)
            await viewModel.send(.startUsers(query: "swift"))
            let first = Task { await viewModel.send(.moreUsers) }
            let second = Task { await viewModel.send(.moreUsers) }
            try await Task.sleep(for: .milliseconds(100))
            #expect(viewModel.isLoadingMore)
            await first.value
            await second.value
            #expect(!viewModel.isLoadingMore)
            #expect(searchRequests(server, page: 2) == 1)
            #expect(viewModel.state.userList?.users.map(\.login) == ["ada", "grace", "linus", "ken", "barbara"])
            #expect(viewModel.state.userList?.duplicatesDropped == 1)
            // At the end, more is answered without a request.
            await viewModel.send(.moreUsers)
            guard case .endOfUsers(let list)? = viewModel.state.outcome else {
                Issue.record("expected the end of the list, got \(String(describing: viewModel.state.outcome))")
                return
            }
            #expect(list.end == .lastPage && list.nextPage == nil)
            #expect(server.requests.filter { $0.path == "/search/users" }.count == 2)
        }
    }
}

@Suite("Search: the user list's pages")
struct UserResultListTests {
    private func page(_ number: Int, perPage: Int = 2, next: Int?, ids: [Int64], total: Int = 100) -> UserSearchPage {
        UserSearchPage(
            request: UserSearchRequest(query: "q", page: number, perPage: perPage, sort: nil), totalCount: total, incompleteResults: false,
            users: ids.map { UserHit(login: "u\($0)", id: $0, type: "User", score: nil, htmlURL: nil, avatarURL: nil) },
            nextPage: next, lastPage: nil)
    }

    @Test func pagesAreJoinedInOrderAndRepeatsDropped() {
        var list = UserResultList(first: page(1, next: 2, ids: [1, 2]))
        #expect(list.append(page(2, next: 3, ids: [2, 3])) == 1)
        #expect(list.append(page(3, next: nil, ids: [3, 1])) == 0)
        #expect(list.users.map(\.id) == [1, 2, 3])
        #expect(list.duplicatesDropped == 3 && list.pagesLoaded == 3)
        #expect(list.nextPage == nil && list.end == .lastPage)
    }

    @Test func theResultCapEndsTheListBeforeAPageTheAPINeverGives() {
        let list = UserResultList(first: page(10, perPage: 100, next: 11, ids: [1], total: 5_000))
        #expect(list.nextPage == nil && list.end == .resultCap)
        #expect(SearchScreen.endNotice(list)?.hasPrefix("GitHub returns at most the first 1,000 results") == true)
        let open = UserResultList(first: page(9, perPage: 100, next: 10, ids: [1], total: 5_000))
        #expect(open.nextPage == 10 && open.end == nil)
    }
}
