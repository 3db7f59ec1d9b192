import ArchiveInterface
import ArchiveTesting
import CommandKit
import DesignSystem
import Networking
import SharedKit
import Testing

@testable import SearchFeature

@Suite("Search coordinator (interactive mode)")
@MainActor
struct SearchCoordinatorTests {
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

    @Test func usersPageAndAUsersCardThenBack() async throws {
        let stub = StubHTTPClient { endpoint throws(NetworkError) in
            if endpoint.pathSegments == ["users", "grace"] { return .json(GitHubJSON.user("grace", name: "Grace Hopper")) }
            let page = endpoint.query.first { $0.name == "page" }?.value ?? "1"
            return .json(
                GitHubJSON.searchPage(total: 40, logins: ["ada-\(page)", "grace"]),
                headers: [
                    "Link": GitHubJSON.links(base: "https://api.github.com", query: "swift", page: Int(page) ?? 1, last: 2, perPage: 20)
                ])
        }
        let harness = try SearchHarness(stub: stub)
        let out = CapturingOutput()
        let screen = Screen(
            context: CommandContext(out: out, err: CapturingOutput()),
            input: ScriptedLineInput([
                "1", // users
                "swift", // the query
                "2", // grace
                "", // leave the card
                "0", // back from the results
                "0", // quit the menu
            ]))
        let coordinator = SearchCoordinator(
            screen: screen, users: harness.service, events: harness.events,
            archiving: FakeEventArchiving(today: try #require(Day("2026-01-01"))))
        await coordinator.run()
        #expect(names(coordinator.router.history) == ["menu", "userQuery", "users", "user grace", "users", "menu"])
        #expect(out.text.contains("Grace Hopper (grace)"))
        #expect(!out.text.contains("Archive")) // no favourites route for users in any Interface
    }

    @Test func anEventIsArchivedThroughArchivesInterface() async throws {
        let harness = try SearchHarness(events: EventSearchTests.events)
        let archiving = FakeEventArchiving(catalogue: harness.catalogue, today: try #require(Day("2026-12-24")))
        let out = CapturingOutput()
        let screen = Screen(
            context: CommandContext(out: out, err: CapturingOutput()),
            input: ScriptedLineInput([
                "2", // events
                "", // no words
                "종로구", // district
                "y", // free only
                "2", // the second free event in 종로구 (빛초롱 축제)
                "1", // archive it
                "5", "lovely",
                "0", // back from the list
                "0", // quit
            ]))
        let coordinator = SearchCoordinator(screen: screen, users: harness.service, events: harness.events, archiving: archiving)
        await coordinator.run()
        #expect(names(coordinator.router.history) == ["menu", "eventFilters", "events p1", "event", "events p1", "menu"])
        let request = try #require(archiving.requests.first)
        #expect(request.event == EventSearchTests.events[3].id && request.rating == 5 && request.memo == "lovely")
        #expect(out.text.contains("Archived “빛초롱 축제”"))
    }

    @Test func anEmptyCatalogueExplainsAndGoesBack() async throws {
        let harness = try SearchHarness()
        let out = CapturingOutput()
        let screen = Screen(
            context: CommandContext(out: out, err: CapturingOutput()),
            input: ScriptedLineInput(["2", "", "", "n", "", "0"]))
        let coordinator = SearchCoordinator(
            screen: screen, users: harness.service, events: harness.events,
            archiving: FakeEventArchiving(today: try #require(Day("2026-01-01"))))
        await coordinator.run()
        #expect(out.text.contains("moa archive import FILE.json"))
        #expect(names(coordinator.router.history) == ["menu", "eventFilters", "events p1", "menu"])
    }
}
