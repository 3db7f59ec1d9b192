import ArchiveInterface
import ArchiveTesting
import Foundation
import SearchDomain
import SharedKit
import Testing

/// `moa search events` on Archive's `FakeEventCatalogue` (same query semantics as the SQLite one).
@Suite("Search: events")
struct EventSearchTests {
    static let events = [
        FakeEventCatalogue.event(
            "겨울 클래식 산책", category: "클래식", district: "서초구", audience: "초등학생 이상", free: false, fee: "30,000원",
            starts: "2026-12-20"),
        FakeEventCatalogue.event("한국 근현대 회화", category: "전시/미술", district: "종로구", starts: "2026-09-01", ends: "2027-02-28"),
        FakeEventCatalogue.event(
            "뮤지컬 〈명성황후〉", category: "뮤지컬/오페라", district: "종로구", audience: "8세 이상", free: false,
            fee: "R석 120,000원", starts: "2026-11-10", ends: "2027-01-04"),
        FakeEventCatalogue.event("빛초롱 축제", category: "축제-문화/예술", district: "종로구", place: "청계천", starts: "2026-12-13", ends: "2027-01-05"),
        FakeEventCatalogue.event("마포 거리 공연", category: "국악", district: "마포구", starts: "2026-10-03", ends: "2026-10-04"),
    ]

    @Test func filtersGoToTheCatalogueAndResultsComeSortedByStartDate() async throws {
        let harness = try SearchHarness(events: Self.events)
        let result = try await harness.events.search(
            EventSearchInput(text: " ", region: "종로구", free: true, from: "2026-12-01", to: "2026-12-31"))
        guard case .page(let page, let query) = result else { throw ServerFailure("expected a page") }
        #expect(page.events.map(\.title) == ["한국 근현대 회화", "빛초롱 축제"])
        #expect(query == EventQuery(district: "종로구", free: true, from: Day("2026-12-01"), to: Day("2026-12-31"), page: 1, perPage: 20))
        #expect(harness.catalogue.queries == [query])
    }

    @Test func paidAudienceCategoryAndTextFilters() async throws {
        let harness = try SearchHarness(events: Self.events)
        let paid = try await harness.events.search(EventSearchInput(paid: true))
        guard case .page(let page, _) = paid else { throw ServerFailure("expected a page") }
        #expect(page.events.map(\.title) == ["뮤지컬 〈명성황후〉", "겨울 클래식 산책"])
        let run = try await harness.run(["events", "--text", "청계천", "--category", "축제-문화/예술", "--audience", "누구"])
        #expect(run.out.contains("빛초롱 축제") && !run.out.contains("명성황후"))
    }

    @Test func pagesHoldThePageSizeSettingAndTellTheNextCommand() async throws {
        let harness = try SearchHarness(events: Self.events)
        harness.settings.update { $0.pageSize = 2 }
        let run = try await harness.run(["events", "--region", "종로구", "--from", "2026-01-01"])
        let lines = run.out.components(separatedBy: "\n")
        #expect(lines[0].split(separator: " ").map(String.init) == ["Dates", "Title", "District", "Category", "Audience", "Fee"])
        #expect(lines.contains { $0.hasPrefix("2026-09-01 – 2027-02-28") && $0.contains("한국 근현대 회화") && $0.hasSuffix("free") })
        #expect(lines.contains { $0.contains("뮤지컬 〈명성황후〉") && $0.contains("R석 120,000원") })
        #expect(lines.contains("page 1 of 2 · 3 events"))
        #expect(lines.contains("Next: moa search events --region 종로구 --from 2026-01-01 --page 2"))
        let last = try await harness.run(["events", "--region", "종로구", "--from", "2026-01-01", "--page", "2"])
        #expect(last.out.contains("빛초롱 축제") && last.out.contains("page 2 of 2") && !last.out.contains("Next:"))
        let past = try await harness.run(["events", "--page", "9"])
        #expect(past.out.contains("Page 9 is past the last page (3)."))
    }

    @Test func onADayKeepsEventsRunningThatDayEdgesIncluded() async throws {
        let harness = try SearchHarness(events: Self.events)
        // 빛초롱 축제 runs 2026-12-13 … 2027-01-05; 겨울 클래식 산책 only on 2026-12-20.
        func titles(_ day: String, region: String? = nil) async throws -> [String] {
            guard case .page(let page, _) = try await harness.events.search(EventSearchInput(region: region, on: day)) else { return [] }
            return page.events.map(\.title)
        }
        #expect(try await titles("2026-12-13", region: "종로구") == ["한국 근현대 회화", "뮤지컬 〈명성황후〉", "빛초롱 축제"])
        #expect(try await titles("2026-12-12", region: "종로구") == ["한국 근현대 회화", "뮤지컬 〈명성황후〉"])
        #expect(try await titles("2027-01-05") == ["한국 근현대 회화", "빛초롱 축제"])
        #expect(try await titles("2027-01-06") == ["한국 근현대 회화"])
        #expect(try await titles("2026-12-20") == ["한국 근현대 회화", "뮤지컬 〈명성황후〉", "빛초롱 축제", "겨울 클래식 산책"])
        #expect(harness.catalogue.queries.last?.on == Day("2026-12-20"))
        let run = try await harness.run(["events", "--on", "2026-12-20", "--paid"])
        #expect(run.out.contains("겨울 클래식 산책") && run.out.contains("뮤지컬 〈명성황후〉") && !run.out.contains("빛초롱"))
        harness.settings.update { $0.pageSize = 1 }
        let paged = try await harness.run(["events", "--on", "2026-12-20", "--paid"])
        #expect(paged.out.contains("Next: moa search events --on 2026-12-20 --paid --page 2"))
    }

    @Test func anEmptyCatalogueSaysHowToImportOne() async throws {
        let harness = try SearchHarness()
        let run = try await harness.run(["events", "--region", "종로구"])
        #expect(run.status == 0)
        #expect(
            run.out
                == "The event catalogue is empty: import one with `moa archive import FILE.json` (Seoul Open Data culturalEventInfo JSON).\n"
        )
        let json = try await harness.run(["events", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["catalogue_empty"] as? Bool == true && (object["events"] as? [Any])?.isEmpty == true)
        #expect((object["hint"] as? String)?.contains("moa archive import FILE.json") == true)
    }

    @Test func noMatchInAFullCatalogueIsNotAnEmptyCatalogue() async throws {
        let run = try await SearchHarness(events: Self.events).run(["events", "--region", "강남구"])
        #expect(run.status == 0)
        #expect(run.out.contains("No events match these filters.") && !run.out.contains("archive import"))
    }

    @Test func eventsJSONHasStableSnakeCaseFields() async throws {
        let run = try await SearchHarness(events: Self.events).run(["events", "--paid", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["page", "per_page", "page_count", "total", "catalogue_empty", "events"])
        let events = try #require(object["events"] as? [[String: Any]])
        #expect(
            Set(events[0].keys) == [
                "id", "title", "category", "district", "place", "audience", "fee", "is_free", "starts_on", "ends_on",
                "organization",
            ])
        #expect(events[0]["starts_on"] as? String == "2026-11-10" && events[0]["is_free"] as? Bool == false)
    }

    @Test(arguments: [
        (
            ["events", "--free", "--paid"], "--free and --paid exclude each other: give one of them, or neither for both.",
            SharedKit.ExitStatus.usage
        ),
        (
            ["events", "--from", "2026-02-30"], "--from “2026-02-30” is not a date: write it as YYYY-MM-DD, e.g. 2025-05-01.",
            SharedKit.ExitStatus.dataError
        ),
        (
            ["events", "--to", "next week"], "--to “next week” is not a date: write it as YYYY-MM-DD, e.g. 2025-05-01.",
            SharedKit.ExitStatus.dataError
        ),
        (
            ["events", "--on", "2026-13-01"], "--on “2026-13-01” is not a date: write it as YYYY-MM-DD, e.g. 2025-05-01.",
            SharedKit.ExitStatus.dataError
        ),
        (
            ["events", "--from", "2026-03-01", "--to", "2026-02-01"],
            "--from 2026-03-01 is after --to 2026-02-01: no day is in that range.", SharedKit.ExitStatus.usage
        ),
        (["events", "--page", "0"], "The page must be 1 or more, not 0.", SharedKit.ExitStatus.usage),
    ])
    /// A malformed date is bad data (65, as in `moa archive events`); options that cannot go together are usage errors (64).
    func badFiltersAreRefusedNamingTheValue(arguments: [String], message: String, status: SharedKit.ExitStatus) async throws {
        let harness = try SearchHarness(events: Self.events)
        let run = try await harness.run(arguments)
        #expect(run.status == status.rawValue)
        #expect(run.err == "error: \(message)\n")
        #expect(harness.catalogue.queries.isEmpty)
    }

    @Test func aCatalogueFailureReachesThePerson() async throws {
        struct Broken: Error, UserFacingError {
            var message: String { "The catalogue could not be read." }
            var exitStatus: SharedKit.ExitStatus { .ioError }
        }
        let harness = try SearchHarness(events: Self.events)
        harness.catalogue.fail(with: Broken())
        let run = try await harness.run(["events"])
        #expect(run.status == SharedKit.ExitStatus.ioError.rawValue && run.err == "error: The catalogue could not be read.\n")
    }
}
