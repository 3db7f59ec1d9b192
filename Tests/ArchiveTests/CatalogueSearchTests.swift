import ArchiveData
import ArchiveDomain
import ArchiveInterface
import ArchiveTesting
import Foundation
import SettingsInterface
import SharedKit
import Testing

/// The SQLite catalogue and `FakeEventCatalogue` (which Search's tests use) must answer every query
/// the same way: same events, same order, same totals.
@Suite("Catalogue search")
struct CatalogueSearchTests {
    static let events: [CulturalEvent] = [
        FakeEventCatalogue.event(
            "Seoul Jazz Festival", id: "e01", category: "콘서트", district: "송파구", place: "Olympic Park", audience: "누구나",
            free: false, starts: "2027-05-22", ends: "2027-05-24", organization: "Private Curve"),
        FakeEventCatalogue.event(
            "서울 재즈 나이트", id: "e02", category: "콘서트", district: "마포구", place: "마포아트센터", audience: "20세 이상",
            free: false, starts: "2026-12-05", organization: "마포문화재단"),
        FakeEventCatalogue.event(
            "겨울 사진전", id: "e03", category: "전시/미술", district: "종로구", place: "서울시립미술관", audience: "누구나",
            free: true, starts: "2026-12-01", ends: "2027-01-31"),
        FakeEventCatalogue.event(
            "어린이 국악 놀이터", id: "e04", category: "교육/체험", district: "마포구", place: "플레이맥", audience: "7세~12세 어린이 및 보호자",
            free: true, starts: "2026-11-01", ends: "2026-12-27"),
        FakeEventCatalogue.event(
            "연극 '햄릿'", id: "e05", category: "연극", district: "종로구", place: "아르코예술극장", audience: "14세 이상",
            free: false, starts: "2026-11-20", ends: "2026-12-20", organization: "한국문화예술위원회"),
        FakeEventCatalogue.event(
            "가을 사진전", id: "e06", category: "전시/미술", district: "종로구", place: "서울시립미술관", free: true,
            starts: "2026-12-01", ends: "2026-12-15"),
        FakeEventCatalogue.event(
            "Jazz in the Park", id: "e07", category: "콘서트", district: "종로구", place: "서울숲 Seoul Forest", audience: "All ages",
            free: true, starts: "2026-12-01"),
        FakeEventCatalogue.event(
            "정동야행", id: "e08", category: "축제-전통/역사", district: "중구", place: "정동 일대", free: true, starts: "2025-05-23",
            ends: "2025-05-24"),
        FakeEventCatalogue.event("가을 사진전", id: "e00", category: "전시/미술", district: "중구", place: "다른 미술관", free: true, starts: "2026-12-01"),
    ]

    static let queries: [(String, EventQuery, [String], Int)] = [
        (
            "everything, by start date then title (UTF-8) then id", EventQuery(perPage: 50),
            ["e08", "e04", "e05", "e07", "e00", "e06", "e03", "e02", "e01"], 9
        ),
        ("words in any order and case, title or place or organiser", EventQuery(text: "JAZZ seoul"), ["e07", "e01"], 2),
        ("a word from the organiser", EventQuery(text: "문화재단"), ["e02"], 1),
        ("Hangul words", EventQuery(text: "사진전 가을"), ["e00", "e06"], 2),
        ("district exact", EventQuery(district: " 종로구 "), ["e05", "e07", "e06", "e03"], 4),
        ("category exact, not a prefix", EventQuery(category: "전시"), [], 0),
        ("category", EventQuery(category: "전시/미술", free: true), ["e00", "e06", "e03"], 3),
        ("audience substring, case-insensitive", EventQuery(audience: "ALL"), ["e07"], 1),
        ("audience Hangul substring", EventQuery(audience: "어린이"), ["e04"], 1),
        ("paid only", EventQuery(free: false), ["e05", "e02", "e01"], 3),
        (
            "overlapping a range", EventQuery(from: ArchiveHarness.day("2026-12-16"), to: ArchiveHarness.day("2026-12-31")),
            ["e04", "e05", "e03"], 3
        ),
        (
            "running on a day (edges included)", EventQuery(from: ArchiveHarness.day("2026-12-20"), to: ArchiveHarness.day("2026-12-20")),
            ["e04", "e05", "e03"], 3
        ),
        ("from only", EventQuery(from: ArchiveHarness.day("2027-02-01")), ["e01"], 1),
        ("to only", EventQuery(to: ArchiveHarness.day("2026-11-01")), ["e08", "e04"], 2),
        ("page 2 of 3 per page", EventQuery(page: 2, perPage: 3), ["e07", "e00", "e06"], 9),
        ("past the last page", EventQuery(page: 9, perPage: 3), [], 9),
        ("page 0 reads as 1, per page clamped", EventQuery(page: 0, perPage: 0), ["e08"], 9),
        ("blank filters are no filters", EventQuery(text: "  ", district: "", category: " ", audience: "", perPage: 2), ["e08", "e04"], 9),
        (
            "everything combined",
            EventQuery(
                text: "사진전", district: "종로구", category: "전시/미술", audience: "누구", free: true,
                from: ArchiveHarness.day("2026-12-20"), to: ArchiveHarness.day("2027-01-10")), ["e03"], 1
        ),
    ]

    static func sqlite() async throws -> ArchiveHarness {
        let harness = try ArchiveHarness()
        let entries = events.map { CatalogueEntry(event: $0, naturalKey: "key-\($0.id)") }
        _ = try await harness.root.store.upsert(entries, at: Date(timeIntervalSince1970: 0)) { _ in }
        return harness
    }

    @Test func theSQLiteCatalogueAndTheFakeAgreeOnEveryQuery() async throws {
        let harness = try await Self.sqlite()
        let fake = FakeEventCatalogue(Self.events)
        for (name, query, ids, total) in Self.queries {
            let real = try await harness.root.catalogue.search(query)
            let faked = try await fake.search(query)
            #expect(real.events.map(\.id.rawValue) == ids, "SQLite: \(name)")
            #expect(real.total == total, "SQLite total: \(name)")
            #expect(faked == real, "fake vs SQLite: \(name)")
            #expect(real.events.allSatisfy(query.matches), "matches(_:): \(name)")
        }
        #expect(try await harness.root.catalogue.count() == 9)
        #expect(try await fake.count() == 9)
        #expect(fake.queries.count == Self.queries.count)
        let page = try await fake.search(EventQuery(page: 2, perPage: 4))
        #expect((page.page, page.perPage, page.pageCount) == (2, 4, 3))
    }

    @Test func eventsAreStoredAndReadBackExactly() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let all = try await harness.root.catalogue.search(EventQuery(perPage: 200)).events
        for event in all {
            #expect(try await harness.root.catalogue.event(id: event.id) == event)
        }
        #expect(try await harness.root.catalogue.event(id: "nope") == nil)
    }

    @Test func theEventsCommandUsesThePageSizeSettingAndSaysWhenTheCatalogueIsEmpty() async throws {
        let harness = try ArchiveHarness()
        let empty = try await harness.run(["events"])
        #expect(empty.contains("The catalogue is empty: import one with `moa archive import FILE.json`"))
        let emptyJSON = try JSONSerialization.jsonObject(with: Data(try await harness.run(["events"], json: true).utf8)) as? [String: Any]
        #expect(emptyJSON?["catalogue_count"] as? Int == 0)

        try await harness.importSample()
        harness.settings.update { $0.pageSize = 2 }
        let text = try await harness.run(["events", "--region", "종로"])
        #expect(text.contains("Page 1 of 2 · 3 events · next: --page 2"))
        #expect(text.components(separatedBy: "\n").filter { $0.contains("종로구") }.count == 2)
        let second = try await harness.run(["events", "--region", "종로구", "--page", "2", "--per-page", "2"])
        #expect(second.contains("연극 '햄릿'") && second.contains("Page 2 of 2 · 3 events"))
        let none = try await harness.run(["events", "--text", "없는공연"])
        #expect(none.contains("No event matches these filters (10 in the catalogue)."))

        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    try await harness.run(
                        ["events", "--category", "전시/미술", "--free"],
                        json: true
                    ).utf8)) as? [String: Any])
        let events = try #require(json["events"] as? [[String: Any]])
        #expect(events.map { $0["title"] as? String } == ["DDP 디자인 전시 〈서울의 색〉"])
        #expect(events.first?["starts_on"] as? String == "2026-10-01" && events.first?["free"] as? Bool == true)
        #expect((json["total"] as? Int, json["page"] as? Int, json["per_page"] as? Int, json["page_count"] as? Int) == (1, 1, 2, 1))
    }

    @Test func badFiltersAreRefusedBeforeSearching() async throws {
        let harness = try ArchiveHarness()
        await #expect(throws: ArchiveError.invalidDate(field: "--from", value: "2026-13-01")) {
            try await harness.run(["events", "--from", "2026-13-01"])
        }
        await #expect(throws: ArchiveError.invalidDateRange(from: ArchiveHarness.day("2026-12-02"), to: ArchiveHarness.day("2026-12-01"))) {
            try await harness.run(["events", "--from", "2026-12-02", "--to", "2026-12-01"])
        }
        await #expect(throws: ArchiveError.invalidPage(0)) { try await harness.run(["events", "--page", "0"]) }
        await #expect(throws: ArchiveError.invalidPerPage(201, max: 200)) { try await harness.run(["events", "--per-page", "201"]) }
        #expect(ArchiveError.invalidPerPage(201, max: 200).exitStatus == .usage)
    }
}
