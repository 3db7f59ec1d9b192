import ArchiveData
import ArchiveDomain
import ArchiveFeature
import ArchiveInterface
import ArchiveTesting
import ArgumentParser
import AuthInterface
import AuthTesting
import CommandKit
import Foundation
import GRDB
import Persistence
import SharedKit
import Storage
import Testing

/// Runs `moa archive ARGUMENTS` and returns the typed error it fails with (`nil`: it did not fail so).
private func archiveError(_ harness: ArchiveHarness, _ arguments: [String]) async -> ArchiveError? {
    do {
        try await harness.run(arguments)
        return nil
    } catch let error as ArchiveError {
        return error
    } catch {
        return nil
    }
}

private func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

/// The sample's categories, in byte order (what `preferences choices` lists).
private let sampleCategories = ["교육/체험", "뮤지컬/오페라", "연극", "전시/미술", "축제-문화/예술", "축제-자연/경관", "축제-전통/역사", "콘서트", "클래식"]

@Suite("Archive preferences")
struct PreferencesTests {
    struct Mistake: Sendable, CustomTestStringConvertible {
        let districts: String
        let categories: String
        let message: String
        let hintContains: String
        let status: SharedKit.ExitStatus
        var testDescription: String { "--districts \(districts) --categories \(categories)" }
    }

    static let mistakes: [Mistake] = [
        Mistake(
            districts: "", categories: "연극", message: "Choose at least one district with --districts (up to 3, comma-separated).",
            hintContains: "Seoul's districts: Jongno-gu (종로구), Jung-gu (중구),", status: .usage),
        Mistake(
            districts: " , ", categories: "연극", message: "Choose at least one district with --districts (up to 3, comma-separated).",
            hintContains: "Gangdong-gu (강동구).", status: .usage),
        Mistake(
            districts: "Mapo-gu,Jongno,강남구,Songpa", categories: "연극", message: "Choose at most 3 districts with --districts, not 4.",
            hintContains: "Mapo-gu (마포구)", status: .usage),
        Mistake(
            districts: "Mapo-gu,마포", categories: "연극", message: "Mapo-gu (마포구) is listed twice in --districts.",
            hintContains: "Seoul's districts:", status: .dataError),
        Mistake(
            districts: "Mapoo", categories: "연극", message: "“Mapoo” is not one of Seoul's 25 districts.",
            hintContains: "Seoul's districts:", status: .dataError),
        Mistake(
            districts: "Busan", categories: "연극", message: "“Busan” is not one of Seoul's 25 districts.",
            hintContains: "Songpa-gu (송파구)", status: .dataError),
        Mistake(
            districts: "마포구", categories: "", message: "Choose at least one category with --categories (up to 3, comma-separated).",
            hintContains: "Categories: 교육/체험, 국악, 기타,", status: .usage),
        Mistake(
            districts: "마포구", categories: "연극,콘서트,클래식,전시/미술", message: "Choose at most 3 categories with --categories, not 4.",
            hintContains: "Categories:", status: .usage),
        Mistake(
            districts: "마포구", categories: "연극, 연극", message: "연극 is listed twice in --categories.",
            hintContains: "moa archive preferences choices", status: .dataError),
        Mistake(
            districts: "마포구", categories: "오페라하우스", message: "“오페라하우스” is not one of the catalogue's categories.",
            hintContains: "Categories: 교육/체험, 국악, 기타, 독주/독창회, 무용, 뮤지컬/오페라, 연극, 영화, 전시/미술", status: .dataError),
        Mistake(
            districts: "마포구", categories: "축제",
            message: "“축제” matches 5 categories (축제-기타, 축제-문화/예술, 축제-시민화합, 축제-자연/경관, 축제-전통/역사): give one in full.",
            hintContains: "moa archive preferences choices", status: .dataError),
    ]

    @Test(arguments: mistakes)
    func everyMistakeGetsOneClearError(mistake: Mistake) async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let error = try #require(
            await archiveError(harness, ["preferences", "set", "--districts", mistake.districts, "--categories", mistake.categories]))
        #expect(error.message == mistake.message)
        #expect(error.hint?.contains(mistake.hintContains) == true, "hint: \(error.hint ?? "none")")
        #expect(error.exitStatus == mistake.status)
        #expect(try await harness.service.preferences() == nil) // nothing saved
    }

    @Test("onboarding comes before data: preferences are set on a fresh home, from the known lists")
    func preferencesBeforeAnyImport() async throws {
        let harness = try ArchiveHarness()
        _ = try await harness.run(["preferences", "set", "--districts", "종로구", "--categories", "연극"])
        #expect(try await harness.service.preferences()?.districts == ["종로구"])
        #expect(try await harness.service.preferences()?.categories == ["연극"])
        let choices = try await harness.run(["preferences", "choices"])
        #expect(choices.contains("Mapo-gu (마포구)"))
        for category in CultureCategories.known { #expect(choices.contains(category)) }
        // Still validated: a category the catalogue does not have is refused, and nothing is saved.
        let error = try #require(await archiveError(harness, ["preferences", "set", "--districts", "Mapo-gu", "--categories", "오락실"]))
        #expect(error.exitStatus == .dataError, "\(error.message)")
        #expect(try await harness.service.preferences()?.districts == ["종로구"])
    }

    @Test func bothListsAreRequiredWhileParsing() {
        #expect(throws: (any Error).self) { try ArchiveCommand.parseAsRoot(["preferences", "set", "--districts", "Mapo-gu"]) }
        #expect(throws: (any Error).self) { try ArchiveCommand.parseAsRoot(["preferences", "set", "--categories", "연극"]) }
    }

    @Test(arguments: [
        ("마포구", "마포구"), ("마포", "마포구"), ("Mapo-gu", "마포구"), ("mapo gu", "마포구"), ("MAPO", "마포구"), ("mapogu", "마포구"),
        ("Jung-gu", "중구"), ("jung", "중구"), ("중", "중구"), ("Jungnang-gu", "중랑구"), ("Guro", "구로구"), ("Jongro", "종로구"),
        ("yeongdeungpo-GU", "영등포구"), ("Dongdaemun-gu", "동대문구"),
    ])
    func districtsAreReadInKoreanOrRomanised(input: String, expected: String) {
        #expect(SeoulDistricts.match(input) == expected)
    }

    @Test func allTwentyFiveDistrictsHaveARomanisedName() {
        #expect(SeoulDistricts.romanised.count == 25)
        #expect(Set(SeoulDistricts.romanised.map(\.name)) == Set(SeoulDistricts.all))
        for (name, roman) in SeoulDistricts.romanised {
            #expect(
                SeoulDistricts.match(roman) == name
                    && SeoulDistricts.match(roman.lowercased().replacingOccurrences(of: "-", with: " ")) == name)
        }
        #expect(SeoulDistricts.match("gu") == nil && SeoulDistricts.match("") == nil && SeoulDistricts.match("Seoul") == nil)
    }

    @Test func setShowJSONAndClear() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        #expect(
            try await harness.run(["preferences"]).contains(
                "No preferences set: choose 1–3 districts and 1–3 categories with `moa archive preferences set"))
        let none = try jsonObject(try await harness.run(["preferences", "show"], json: true))
        #expect(none["set"] as? Bool == false && (none["districts"] as? [Any])?.isEmpty == true)

        let saved = try await harness.run(["preferences", "set", "--districts", "mapo gu, Jongno-gu", "--categories", "전시, 콘서트"])
        #expect(saved.contains("Saved your preferences."))
        #expect(saved.contains("Districts   Mapo-gu (마포구), Jongno-gu (종로구)"))
        #expect(saved.contains("Categories  전시/미술, 콘서트"))
        #expect(saved.contains("Updated     2026-11-23"))

        let json = try jsonObject(try await harness.run(["preferences", "--json"], json: true))
        #expect(json["set"] as? Bool == true)
        let districts = try #require(json["districts"] as? [[String: Any]])
        #expect(districts.map { $0["name"] as? String } == ["마포구", "종로구"])
        #expect(districts.map { $0["romanized"] as? String } == ["Mapo-gu", "Jongno-gu"])
        #expect(json["categories"] as? [String] == ["전시/미술", "콘서트"])
        #expect((json["updated_at"] as? String)?.hasPrefix("2026-11-23") == true)

        // Preferences are per user: Bo has none, and setting his leaves Ada's alone.
        harness.session.set(ArchiveHarness.bo)
        #expect(try await harness.service.preferences() == nil)
        try await harness.run(["preferences", "set", "--districts", "송파구", "--categories", "클래식"])
        harness.session.set(FakeSessionProvider.ada)
        #expect(try await harness.service.preferences()?.districts == ["마포구", "종로구"])

        // Setting again replaces.
        try await harness.run(["preferences", "set", "--districts", "Seocho-gu", "--categories", "클래식"])
        #expect(try await harness.service.preferences()?.districts == ["서초구"])

        #expect(try await harness.run(["preferences", "clear"]).contains("Cleared your preferences"))
        #expect(try await harness.run(["preferences", "clear"]).contains("You had no preferences to clear."))
        #expect(try jsonObject(try await harness.run(["preferences", "clear"], json: true))["cleared"] as? Bool == false)
        #expect(try await harness.service.preferences() == nil)
    }

    @Test func choicesListDistrictsAndTheCatalogueCategoriesWithEveryOneInUse() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let json = try jsonObject(try await harness.run(["preferences", "choices"], json: true))
        #expect((json["districts"] as? [[String: Any]])?.count == 25)
        #expect(json["categories"] as? [String] == CultureCategories.known)
        #expect(Set(sampleCategories).isSubset(of: CultureCategories.known))
    }

    @Test func preferencesNeedALogin() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        harness.session.set(nil)
        await #expect(throws: NotLoggedInError.self) {
            try await harness.run(["preferences", "set", "--districts", "마포구", "--categories", "연극"])
        }
    }
}

@Suite("Recommendations from preferences")
struct PreferenceRecommendationTests {
    @Test func coldStartRecommendsFromThePreferencesWithTheirReason() async throws {
        let harness = try ArchiveHarness(today: "2026-11-23")
        try await harness.importSample()
        try await harness.run(["preferences", "set", "--districts", "Jongno-gu", "--categories", "전시/미술,연극"])
        let list = try await harness.service.recommend()
        #expect(list.basis == .preferences && list.status == .ok)
        #expect(list.items.map(\.event.title) == ["〈한국 근현대 회화 100선〉", "연극 '햄릿'", "DDP 디자인 전시 〈서울의 색〉", "뮤지컬 〈명성황후〉 30주년 기념 공연"])
        #expect(
            list.items.map(\.reason) == [
                "Because you chose Jongno-gu and 전시/미술", "Because you chose Jongno-gu and 연극",
                "Because you chose 전시/미술", "Because you chose Jongno-gu",
            ])
        #expect(list.items.map(\.score) == [1, 1, 0.6, 0.4])

        // With 2 tickets it is still a cold start; archived events drop out.
        _ = try await harness.service.add(eventID: try await harness.eventID("연극 '햄릿'").rawValue, rating: 5)
        _ = try await harness.service.add(eventID: try await harness.eventID("어린이 국악 놀이터 〈장단 맞춰 둥기둥〉").rawValue, rating: 4)
        let text = try await harness.run(["recommend"])
        #expect(text.contains("Recommended for you · from your preferences · as of 2026-11-23"))
        #expect(text.contains("1. 〈한국 근현대 회화 100선〉  score 100"))
        #expect(text.contains("   Because you chose Jongno-gu and 전시/미술"))
        #expect(!text.contains("연극 '햄릿'"))
        #expect(try await harness.service.recommend().items.map(\.score) == [1, 0.6, 0.4])
        let json = try jsonObject(try await harness.run(["recommend"], json: true))
        #expect(json["basis"] as? String == "preferences")
        let first = try #require((json["recommendations"] as? [[String: Any]])?.first)
        #expect((first["preference"] as? [String: Any])?["district"] as? String == "종로구")
        #expect((first["preference"] as? [String: Any])?["category"] as? String == "전시/미술")
    }

    @Test func coldStartWithNothingMatchingSaysSo() async throws {
        let harness = try ArchiveHarness(today: "2026-11-23")
        try await harness.importSample()
        try await harness.run(["preferences", "set", "--districts", "Dobong-gu", "--categories", "축제-전통/역사"]) // only a past event
        let list = try await harness.service.recommend()
        #expect(list.status == .noCandidates && list.basis == .preferences)
        #expect(
            try await harness.run(["recommend"]).contains(
                "No current or upcoming event you have not archived is in your chosen districts or categories (Dobong-gu, 축제-전통/역사)"))
    }

    @Test func noTicketsAndNoPreferencesHintsAtPreferences() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let text = try await harness.run(["recommend"])
        #expect(text.contains("Nothing to recommend yet: recommendations come from your tickets."))
        #expect(text.contains("Or tell moa what you like: `moa archive preferences set --districts"))
        #expect(try await harness.service.recommend().basis == .taste)
    }

    @Test func withThreeTicketsTheTasteIsBlendedWithABoundedBoost() {
        let preferences = ArchivePreferences(districts: ["강남구"], categories: ["클래식"])
        let plain = Recommender.recommend(
            profile: RecommendationTests.profile, tickets: TasteFixture.tickets, candidates: TasteFixture.candidates, limit: 10)
        let items = Recommender.recommend(
            profile: RecommendationTests.profile, tickets: TasteFixture.tickets, candidates: TasteFixture.candidates,
            limit: 10, preferences: preferences)
        #expect(items.map(\.event.id.rawValue) == ["ev-01", "ev-03", "ev-08", "ev-09", "ev-10", "ev-04", "ev-05"])
        // ev-04 (연극, 강남구): 0.178 + 0.1; ev-05 (클래식, 강남구): 0.036 + 0.2. Others unchanged.
        #expect(items.map(\.score) == [0.708, 0.486, 0.426, 0.426, 0.426, 0.278, 0.236])
        #expect(items.prefix(5).map(\.reason) == plain.prefix(5).map(\.reason))
        #expect(items[5].reason == "Both of your 5-star tickets are paid events · and your chosen district Gangnam-gu")
        #expect(items[6].reason == "1 of your 4 tickets is a free event · and your chosen Gangnam-gu and 클래식")
        #expect(items[6].preferenceBoost == 0.2 && items[0].preferenceBoost == 0)

        // Both boosts together are 0.2 at most, and no score passes 1.
        let musical = ArchivePreferences(districts: ["종로구"], categories: ["뮤지컬/오페라"])
        let boosted = Recommender.recommend(
            profile: RecommendationTests.profile, tickets: TasteFixture.tickets, candidates: TasteFixture.candidates,
            limit: 1, preferences: musical)
        #expect(boosted.first?.score == 0.908)
        #expect(boosted.first?.reason == "Both of your 5-star tickets are 뮤지컬/오페라 in 종로구 · and your chosen Jongno-gu and 뮤지컬/오페라")
        #expect(
            Recommender.recommend(
                profile: RecommendationTests.profile, tickets: TasteFixture.tickets, candidates: TasteFixture.candidates,
                limit: 10, preferences: musical
            ).allSatisfy { $0.score <= 1 })
    }

    @Test func theServiceBlendsOnceThereAreThreeTickets() async throws {
        let harness = try ArchiveHarness(today: "2026-11-23")
        try await harness.importSample()
        for title in ["연극 '햄릿'", "〈한국 근현대 회화 100선〉", "어린이 국악 놀이터 〈장단 맞춰 둥기둥〉"] {
            _ = try await harness.service.add(eventID: try await harness.eventID(title).rawValue, rating: 5)
        }
        let before = try await harness.service.recommend()
        #expect(before.basis == .taste)
        try await harness.run(["preferences", "set", "--districts", "Songpa-gu", "--categories", "콘서트"])
        let after = try await harness.service.recommend()
        #expect(after.basis == .blended)
        let jazz = try #require(after.items.first { $0.event.title == "서울재즈페스티벌 2027" })
        let jazzBefore = try #require(before.items.first { $0.event.title == "서울재즈페스티벌 2027" })
        #expect(abs(jazz.score - (jazzBefore.score + 0.2)) < 1e-9)
        #expect(jazz.reason == jazzBefore.reason + " · and your chosen Songpa-gu and 콘서트")
        #expect(
            after.items.firstIndex { $0.event.title == "서울재즈페스티벌 2027" } ?? 99 < before.items.firstIndex {
                $0.event.title == "서울재즈페스티벌 2027"
            } ?? 0)
        #expect(
            try await harness.run(["recommend"]).contains(
                "Recommended for you · from your 3 tickets and your preferences · as of 2026-11-23"))
    }
}

@Suite("Events on a day")
struct EventsOnADayTests {
    private func titles(_ harness: ArchiveHarness, _ arguments: [String]) async throws -> [String] {
        let json = try jsonObject(try await harness.run(["events"] + arguments, json: true))
        return (json["events"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test func theFirstAndLastDayAreIncludedAndTheDaysAroundAreNot() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        // 연극 '햄릿' runs 2026-11-20 … 2026-12-20 in 종로구.
        #expect(try await titles(harness, ["--on", "2026-11-20", "--region", "종로구"]).contains("연극 '햄릿'"))
        #expect(try await titles(harness, ["--on", "2026-12-20", "--region", "종로구"]).contains("연극 '햄릿'"))
        #expect(try await !titles(harness, ["--on", "2026-11-19", "--region", "종로구"]).contains("연극 '햄릿'"))
        #expect(try await !titles(harness, ["--on", "2026-12-21", "--region", "종로구"]).contains("연극 '햄릿'"))
        // A one-day event: 신년음악회 on 2027-01-09 only.
        #expect(try await titles(harness, ["--on", "2027-01-09", "--category", "클래식"]) == ["서울시립교향악단 2027 신년음악회"])
        #expect(try await titles(harness, ["--on", "2027-01-10", "--category", "클래식"]).isEmpty)
        // Everything running on 2026-12-20, with the other filters.
        #expect(
            try await titles(harness, ["--on", "2026-12-20", "--free"]) == ["DDP 디자인 전시 〈서울의 색〉", "어린이 국악 놀이터 〈장단 맞춰 둥기둥〉", "2026 서울빛초롱축제"])
        #expect(
            try await titles(harness, ["--on", "2026-12-20", "--from", "2026-12-21", "--free"]) == [
                "DDP 디자인 전시 〈서울의 색〉", "어린이 국악 놀이터 〈장단 맞춰 둥기둥〉", "2026 서울빛초롱축제",
            ])
        #expect(try await titles(harness, ["--on", "2025-05-23", "--text", "정동"]) == ["2025 정동야행"])
    }

    @Test(arguments: ["2026-13-01", "2026-02-30", "tomorrow", "2026-1-5", ""])
    func aBadDateIsADataError(value: String) async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let error = try #require(await archiveError(harness, ["events", "--on", value]))
        #expect(error == .invalidDate(field: "--on", value: value))
        #expect(error.message == "“\(value)” is not a date for --on: use YYYY-MM-DD.")
        #expect(error.exitStatus.rawValue == 65)
    }

    @Test func theFakeCatalogueAgreesWithSQLite() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let all = try await harness.root.catalogue.search(EventQuery(perPage: 200)).events
        let fake = FakeEventCatalogue(all)
        for day in ["2025-05-22", "2025-05-23", "2025-05-24", "2026-11-10", "2026-12-27", "2026-12-28", "2027-01-04", "2027-05-24"] {
            let query = EventQuery(on: Day(day), perPage: 200)
            #expect(try await fake.search(query).events.map(\.id) == harness.root.catalogue.search(query).events.map(\.id), "on \(day)")
        }
    }
}

@Suite("Deleting a user: Archive's share")
struct ArchiveUserDataTests {
    @Test func nothingBlocksAndEraseRemovesOnlyThatUsersTicketsAndPreferences() async throws {
        let harness = try ArchiveHarness(today: "2026-11-23")
        try await harness.importSample()
        let owner = harness.root.userData
        #expect(owner.name == "Archive")
        // Ada: two tickets and preferences; Bo: one ticket and preferences.
        _ = try await harness.service.add(eventID: try await harness.eventID("연극 '햄릿'").rawValue, rating: 5)
        _ = try await harness.service.addManual(
            ManualTicket(
                title: "동네 공연", category: "콘서트", district: "마포구", isFree: true,
                attendedOn: ArchiveHarness.day("2026-10-01")))
        try await harness.run(["preferences", "set", "--districts", "마포구", "--categories", "연극"])
        harness.session.set(ArchiveHarness.bo)
        _ = try await harness.service.add(eventID: try await harness.eventID("연극 '햄릿'").rawValue, rating: 3)
        try await harness.run(["preferences", "set", "--districts", "종로구", "--categories", "콘서트"])

        let ada = FakeSessionProvider.ada.id
        let blockers = try await harness.database.perform { transaction in try owner.deletionBlockers(for: ada, in: transaction) }
        #expect(blockers.isEmpty)
        try await harness.database.perform { transaction in try owner.erase(ada, in: transaction) }

        let rows = try harness.database.read { db in
            try [
                Int.fetchOne(db, sql: "SELECT COUNT(*) FROM archive_tickets WHERE owner_id = ?", arguments: [ada.rawValue]) ?? -1,
                Int.fetchOne(db, sql: "SELECT COUNT(*) FROM archive_preferences WHERE owner_id = ?", arguments: [ada.rawValue]) ?? -1,
            ]
        }
        #expect(rows == [0, 0])
        // Bo's data and the shared catalogue stay.
        #expect(try await harness.service.list().count == 1)
        #expect(try await harness.service.preferences()?.districts == ["종로구"])
        #expect(try harness.eventCount() == 10)
        harness.session.set(FakeSessionProvider.ada)
        #expect(try await harness.service.list().isEmpty)
        #expect(try await harness.service.preferences() == nil)
    }

    @Test func aRolledBackTransactionErasesNothing() async throws {
        struct Refused: Error {}
        let harness = try ArchiveHarness(today: "2026-11-23")
        try await harness.importSample()
        _ = try await harness.service.add(eventID: try await harness.eventID("연극 '햄릿'").rawValue, rating: 5)
        let owner = harness.root.userData
        let ada = FakeSessionProvider.ada.id
        await #expect(throws: Refused.self) {
            try await harness.database.perform { transaction in
                try owner.erase(ada, in: transaction)
                throw Refused() // another owner failed after Archive erased: all of it rolls back
            }
        }
        #expect(try await harness.service.list().count == 1)
    }
}
