import ArchiveDomain
import ArchiveFeature
import ArchiveInterface
import ArchiveTesting
import DesignSystem
import Foundation
import SharedKit
import Testing

/// A hand-checked fixture. Today is Monday 2026-06-01. Weights (rating/5, unrated 0.6, × 0.5^(age/180)):
///
/// | ticket | category | district | fee | audience | attended | rating | weight |
/// | A | 뮤지컬/오페라 | 종로구 | paid | 8세 이상 → everyone | today (Mon) | 5 | 1.0 |
/// | B | 뮤지컬/오페라 | 종로구 | paid | 누구나 → everyone | today − 180 (Wed) | 5 | 0.5 |
/// | C | 전시/미술 | 중구 | free | 누구나 → everyone | today (Mon) | — | 0.6 |
/// | D | 연극 | 종로구 | paid | (none) | today (Mon) | 2 | 0.4 |
///
/// Total 2.5. Categories 뮤지컬 1.5/2.5 = 0.6, 전시 0.24, 연극 0.16; districts 종로구 0.76, 중구 0.24;
/// free 0.24, paid 0.76; audience everyone 2.1/2.5 = 0.84; Monday 2.0/2.5 = 0.8, Wednesday 0.2.
enum TasteFixture {
    static let today = ArchiveHarness.day("2026-06-01")

    static func ticket(
        _ id: String, event: String?, _ category: String, _ district: String, free: Bool, audience: String, daysAgo: Int,
        rating: Int?
    ) -> Ticket {
        Ticket(
            id: TicketID(id), owner: "user-ada", eventID: event.map { EventID($0) }, title: id, category: category, district: district,
            place: "", audience: audience, isFree: free, attendedOn: today.adding(days: -daysAgo), rating: rating, memo: nil,
            createdAt: Date(timeIntervalSince1970: 0))
    }

    static let tickets = [
        ticket("A", event: "ev-a", "뮤지컬/오페라", "종로구", free: false, audience: "8세 이상", daysAgo: 0, rating: 5),
        ticket("B", event: "ev-b", "뮤지컬/오페라", "종로구", free: false, audience: "누구나", daysAgo: 180, rating: 5),
        ticket("C", event: nil, "전시/미술", "중구", free: true, audience: "누구나", daysAgo: 0, rating: nil),
        ticket("D", event: "ev-d", "연극", "종로구", free: false, audience: "", daysAgo: 0, rating: 2),
    ]

    static func event(
        _ id: String, _ title: String, _ category: String, _ district: String, free: Bool, audience: String = "",
        starts: String, ends: String? = nil
    ) -> CulturalEvent {
        FakeEventCatalogue.event(
            title, id: id, category: category, district: district, audience: audience, free: free, starts: starts, ends: ends)
    }

    static let candidates = [
        event("ev-01", "오페라 〈라 보엠〉", "뮤지컬/오페라", "종로구", free: false, audience: "누구나", starts: "2026-06-10", ends: "2026-06-20"),
        event("ev-10", "뮤지컬 〈빨래〉", "뮤지컬/오페라", "중구", free: false, starts: "2026-06-15"),
        event("ev-08", "뮤지컬 〈영웅〉", "뮤지컬/오페라", "중구", free: false, starts: "2026-06-12"),
        event("ev-09", "뮤지컬 〈광화문연가〉", "뮤지컬/오페라", "중구", free: false, starts: "2026-06-15"),
        event("ev-03", "서울 사진전", "전시/미술", "종로구", free: true, audience: "누구나", starts: "2026-05-20", ends: "2026-07-31"),
        event("ev-04", "연극 〈갈매기〉", "연극", "강남구", free: false, starts: "2026-06-05"),
        event("ev-05", "클래식 산책", "클래식", "강남구", free: true, starts: "2026-06-07"),
        event("ev-06", "지난 뮤지컬", "뮤지컬/오페라", "종로구", free: false, starts: "2026-05-01", ends: "2026-05-31"),
        event("ev-a", "이미 본 뮤지컬", "뮤지컬/오페라", "종로구", free: false, starts: "2026-05-01", ends: "2026-06-30"),
    ]
}

@Suite("Taste card")
struct TasteTests {
    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test func sharesAreWeightedByRatingAndRecency() {
        let profile = TasteProfile.make(tickets: TasteFixture.tickets, today: TasteFixture.today)
        #expect(profile.ticketCount == 4 && profile.ratedCount == 3)
        #expect(Self.close(profile.averageRating ?? 0, 4.0))
        #expect(Self.close(profile.totalWeight, 2.5))
        #expect(profile.categories.map(\.name) == ["뮤지컬/오페라", "전시/미술", "연극"])
        #expect(zip(profile.categories.map(\.share), [0.6, 0.24, 0.16]).allSatisfy(Self.close))
        #expect(profile.categories.map(\.count) == [2, 1, 1])
        #expect(profile.districts.map(\.name) == ["종로구", "중구"])
        #expect(zip(profile.districts.map(\.share), [0.76, 0.24]).allSatisfy(Self.close))
        #expect(Self.close(profile.free.share, 0.24) && Self.close(profile.paid.share, 0.76))
        #expect((profile.free.count, profile.paid.count) == (1, 3))
        #expect(profile.weekdays.map(\.name) == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        #expect(zip(profile.weekdays.map(\.share), [0.8, 0, 0.2, 0, 0, 0, 0]).allSatisfy(Self.close))
        #expect(profile.audiences.map(\.name) == ["everyone"])
        #expect(Self.close(profile.share(audience: .everyone), 0.84))
        #expect(TasteProfile.weight(rating: nil, attendedOn: TasteFixture.today.adding(days: -360), today: TasteFixture.today) == 0.15)
    }

    @Test func theCardShowsBarsPerSectionAndTheWeighting() {
        let card = TasteCardView.render(TasteProfile.make(tickets: TasteFixture.tickets, today: TasteFixture.today), theme: .plain)
        #expect(card.hasPrefix("┌─ Your taste · 4 tickets · as of 2026-06-01 ─"))
        #expect(card.contains("│   뮤지컬/오페라  ████████████░░░░░░░░   60%  2 tickets"))
        #expect(card.contains("│   종로구         ███████████████░░░░░   76%  3 tickets"))
        #expect(card.contains("│   Mon            ████████████████░░░░   80%  3 tickets"))
        #expect(card.contains("│   free           █████░░░░░░░░░░░░░░░   24%  1 ticket "))
        #expect(card.contains("Average rating 4.0 (3 rated)"))
    }

    @Test func anEmptyCardSaysHowToAddTickets() async throws {
        let harness = try ArchiveHarness()
        let text = try await harness.run(["taste"])
        #expect(text.contains("No tickets yet: archive an event you attended with `moa archive add EVENT_ID`"))
        let json = try JSONSerialization.jsonObject(with: Data(try await harness.run(["taste"], json: true).utf8)) as? [String: Any]
        #expect(json?["tickets"] as? Int == 0)
    }

    @Test func tasteJSONHasStableFieldsRoundedToFourDecimals() async throws {
        let harness = try ArchiveHarness(today: "2026-11-23")
        try await harness.importSample()
        _ = try await harness.service.add(eventID: try await harness.eventID("연극 '햄릿'").rawValue, rating: 5)
        _ = try await harness.service.add(
            eventID: try await harness.eventID("〈한국 근현대 회화 100선〉").rawValue, rating: 4,
            attendedOn: ArchiveHarness.day("2026-09-29"))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try await harness.run(["taste"], json: true).utf8)) as? [String: Any])
        #expect(json["as_of"] as? String == "2026-11-23")
        #expect(json["tickets"] as? Int == 2)
        // 연극: 1.0; 전시/미술: 0.8 × 0.5^(55/180) = 0.64731; shares 1/1.64731 = 0.60705, 0.39295.
        let categories = try #require(json["categories"] as? [[String: Any]])
        #expect(categories.map { $0["name"] as? String } == ["연극", "전시/미술"])
        #expect(categories.map { $0["share"] as? Double } == [0.6071, 0.3929])
        #expect(json["paid_share"] as? Double == 1 && json["free_share"] as? Double == 0)
        #expect((json["weekdays"] as? [[String: Any]])?.count == 7)
        #expect((json["weighting"] as? [String: Any])?["half_life_days"] as? Double == 180)
    }
}

@Suite("Recommendations")
struct RecommendationTests {
    static let profile = TasteProfile.make(tickets: TasteFixture.tickets, today: TasteFixture.today)

    @Test func scoresOrderAndReasonsAreTheHandCheckedOnes() {
        let items = Recommender.recommend(
            profile: Self.profile, tickets: TasteFixture.tickets, candidates: TasteFixture.candidates, limit: 10)
        #expect(items.map(\.event.id.rawValue) == ["ev-01", "ev-03", "ev-08", "ev-09", "ev-10", "ev-04", "ev-05"])
        #expect(items.map(\.score) == [0.708, 0.486, 0.426, 0.426, 0.426, 0.178, 0.036])
        #expect(items.map(\.strongest) == [.category, .district, .category, .category, .category, .fee, .fee])
        #expect(
            items.map(\.reason) == [
                "Both of your 5-star tickets are 뮤지컬/오페라 in 종로구",
                "Both of your 5-star tickets are in 종로구",
                "Both of your 5-star tickets are 뮤지컬/오페라",
                "Both of your 5-star tickets are 뮤지컬/오페라",
                "Both of your 5-star tickets are 뮤지컬/오페라",
                "Both of your 5-star tickets are paid events",
                "1 of your 4 tickets is a free event",
            ])
        let first = items[0].contributions
        #expect(abs((first[.category] ?? 0) - 0.24) < 1e-9 && abs((first[.district] ?? 0) - 0.228) < 1e-9)
        #expect(abs((first[.fee] ?? 0) - 0.114) < 1e-9 && abs((first[.audience] ?? 0) - 0.126) < 1e-9)
        // Past events and events already archived are never recommended.
        #expect(!items.contains { ["ev-06", "ev-a"].contains($0.event.id.rawValue) })
        #expect(
            Recommender.recommend(profile: Self.profile, tickets: TasteFixture.tickets, candidates: TasteFixture.candidates, limit: 2).count
                == 2)
    }

    @Test func theReasonCountsFiveStarTicketsWhenSeveralMatch() {
        let today = TasteFixture.today
        let tickets =
            (1...3).map {
                TasteFixture.ticket("M\($0)", event: "m\($0)", "뮤지컬/오페라", "종로구", free: false, audience: "", daysAgo: $0, rating: 5)
            }
            + [
                TasteFixture.ticket("X", event: "x", "전시/미술", "마포구", free: true, audience: "", daysAgo: 3, rating: 5),
                TasteFixture.ticket("Y", event: "y", "연극", "종로구", free: false, audience: "", daysAgo: 3, rating: 3),
            ]
        let profile = TasteProfile.make(tickets: tickets, today: today)
        let event = TasteFixture.event("ev-new", "뮤지컬 〈명성황후〉", "뮤지컬/오페라", "종로구", free: false, starts: "2026-06-10")
        let items = Recommender.recommend(profile: profile, tickets: tickets, candidates: [event], limit: 1)
        #expect(items.first?.reason == "3 of your 5-star tickets are 뮤지컬/오페라 in 종로구")
    }

    @Test(arguments: [
        (1, 1, "ticket", true, "your only ticket is X"),
        (2, 2, "ticket", true, "both of your tickets are X"),
        (4, 4, "ticket", true, "all 4 of your tickets are X"),
        (2, 5, "ticket", true, "2 of your 5 tickets are X"),
        (1, 5, "ticket", true, "1 of your 5 tickets is X"),
        (3, 4, "5-star ticket", false, "3 of your 5-star tickets are X"),
    ])
    func countsReadAsEnglish(count: Int, total: Int, noun: String, showTotal: Bool, expected: String) {
        #expect(Recommender.counted(count, of: total, noun: noun, phrase: ("is X", "are X"), showTotal: showTotal) == expected)
    }

    @Test func withoutTicketsOrCandidatesItSaysWhy() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let none = try await harness.service.recommend()
        #expect(none.status == .noTickets && none.items.isEmpty)
        #expect(try await harness.run(["recommend"]).contains("Nothing to recommend yet: recommendations come from your tickets."))
        let json = try JSONSerialization.jsonObject(with: Data(try await harness.run(["recommend"], json: true).utf8)) as? [String: Any]
        #expect(json?["status"] as? String == "no_tickets")

        let later = try ArchiveHarness(today: "2028-01-01")
        try await later.importSample()
        _ = try await later.service.add(eventID: try await later.eventID("연극 '햄릿'").rawValue, rating: 5)
        #expect(try await later.service.recommend().status == .noCandidates)
        await #expect(throws: ArchiveError.invalidLimit(0, range: 1...100)) { try await later.service.recommend(limit: 0) }
    }

    @Test func theCommandListsRankedEventsWithTheirReasonAndID() async throws {
        let harness = try ArchiveHarness(today: "2026-11-23")
        try await harness.importSample()
        _ = try await harness.service.add(eventID: try await harness.eventID("연극 '햄릿'").rawValue, rating: 5)
        _ = try await harness.service.add(eventID: try await harness.eventID("〈한국 근현대 회화 100선〉").rawValue, rating: 5)
        let text = try await harness.run(["recommend", "--limit", "2"])
        let musical = try await harness.eventID("뮤지컬 〈명성황후〉 30주년 기념 공연")
        #expect(text.contains("Recommended for you · from your 2 tickets · as of 2026-11-23"))
        #expect(text.contains("1. 뮤지컬 〈명성황후〉 30주년 기념 공연  score 53"))
        #expect(text.contains("   뮤지컬/오페라 · 종로구 · paid · 2026-11-10 → 2027-01-04  id \(musical)"))
        #expect(text.contains("   Both of your 5-star tickets are in 종로구"))
        #expect(text.contains("2. DDP 디자인 전시 〈서울의 색〉  score 28"))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try await harness.run(["recommend"], json: true).utf8)) as? [String: Any])
        let first = try #require((json["recommendations"] as? [[String: Any]])?.first)
        #expect(first["rank"] as? Int == 1 && first["score"] as? Double == 0.525 && first["strongest_signal"] as? String == "district")
        #expect((first["event"] as? [String: Any])?["id"] as? String == musical.rawValue)
    }
}
