import ArchiveData
import ArchiveDomain
import ArchiveInterface
import AuthInterface
import AuthTesting
import Foundation
import SharedKit
import Testing

@Suite("Tickets")
struct TicketTests {
    @Test func aCatalogueTicketKeepsTheEventIDAndDefaultsToTodayOrTheLastDay() async throws {
        let harness = try ArchiveHarness(ticketIDs: ["t-hamlet", "t-fireworks"])
        try await harness.importSample()
        let hamlet = try await harness.eventID("연극 '햄릿'")
        let ticket = try await harness.service.add(eventID: hamlet.rawValue.uppercased(), rating: 5, memo: "  대단했다  ")
        #expect(ticket.id == "t-hamlet")
        #expect(ticket.eventID == hamlet)
        #expect(ticket.owner == FakeSessionProvider.ada.id)
        #expect((ticket.title, ticket.category, ticket.district, ticket.isFree) == ("연극 '햄릿'", "연극", "종로구", false))
        #expect(ticket.attendedOn == ArchiveHarness.day("2026-11-23"))
        #expect(ticket.memo == "대단했다")
        // An event that is over: its last day.
        let fireworks = try await harness.service.add(eventID: try await harness.eventID("서울세계불꽃축제 2025").rawValue)
        #expect(fireworks.attendedOn == ArchiveHarness.day("2025-09-27"))
        #expect(try await harness.service.list().map(\.id) == ["t-hamlet", "t-fireworks"])
    }

    @Test func datesMustBeRealPastAndWithinTheEventsRun() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let future = try await harness.eventID("서울재즈페스티벌 2027")
        await #expect(throws: ArchiveError.eventNotStarted(title: "서울재즈페스티벌 2027", startsOn: ArchiveHarness.day("2027-05-22"))) {
            try await harness.service.add(eventID: future.rawValue)
        }
        #expect(ArchiveError.eventNotStarted(title: "", startsOn: ArchiveHarness.day("2027-05-22")).exitStatus == .refused)
        let hamlet = try await harness.eventID("연극 '햄릿'")
        await #expect(throws: ArchiveError.attendedInFuture(ArchiveHarness.day("2026-11-24"), today: ArchiveHarness.day("2026-11-23"))) {
            try await harness.service.add(eventID: hamlet.rawValue, attendedOn: ArchiveHarness.day("2026-11-24"))
        }
        await #expect(
            throws: ArchiveError.attendedOutsideRun(
                ArchiveHarness.day("2026-11-19"), title: "연극 '햄릿'",
                startsOn: ArchiveHarness.day("2026-11-20"), endsOn: ArchiveHarness.day("2026-12-20"))
        ) {
            try await harness.service.add(eventID: hamlet.rawValue, attendedOn: ArchiveHarness.day("2026-11-19"))
        }
        await #expect(throws: ArchiveError.unknownEvent("0000000000000000")) { try await harness.service.add(eventID: "0000000000000000") }
        await #expect(throws: ArchiveError.invalidDate(field: "--attended", value: "2026-11-2")) {
            try await harness.run(["add", hamlet.rawValue, "--attended", "2026-11-2"])
        }
        #expect(ArchiveError.unknownEvent("x").exitStatus == .unavailable)
    }

    @Test(arguments: [0, 6, -1])
    func ratingsOutsideOneToFiveAreRefused(rating: Int) async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        await #expect(throws: ArchiveError.invalidRating(rating)) {
            try await harness.service.add(eventID: try await harness.eventID("연극 '햄릿'").rawValue, rating: rating)
        }
    }

    @Test func aMemoHoldsUpTo500Characters() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let hamlet = try await harness.eventID("연극 '햄릿'").rawValue
        let long = String(repeating: "가", count: 501)
        await #expect(throws: ArchiveError.memoTooLong(501)) { try await harness.service.add(eventID: hamlet, memo: long) }
        let ticket = try await harness.service.add(eventID: hamlet, memo: String(long.dropFirst()))
        #expect(ticket.memo?.count == 500)
        // ESC, BEL, an 8-bit CSI and a bidi override are refused, not stored (they were, raw).
        for (memo, scalar) in [("fine\u{1B}]0;owned\u{07}", "\u{1B}"), ("\u{9B}31m", "\u{9B}"), ("abc\u{202E}def", "\u{202E}")]
            as [(String, Unicode.Scalar)]
        {
            let error = await #expect(throws: ArchiveError.memoCharacter(scalar)) {
                try await harness.service.add(eventID: hamlet, memo: memo)
            }
            #expect(error?.exitStatus == .dataError)
        }
    }

    @Test func theSameEventTwiceOnOneDayIsRefusedButAnotherDayIsFine() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let hamlet = try await harness.eventID("연극 '햄릿'").rawValue
        _ = try await harness.service.add(eventID: hamlet, attendedOn: ArchiveHarness.day("2026-11-21"))
        await #expect(throws: ArchiveError.alreadyArchived(title: "연극 '햄릿'", on: ArchiveHarness.day("2026-11-21"))) {
            try await harness.service.add(eventID: hamlet, attendedOn: ArchiveHarness.day("2026-11-21"))
        }
        _ = try await harness.service.add(eventID: hamlet, attendedOn: ArchiveHarness.day("2026-11-22"))
        // Someone else may archive it on the same day.
        harness.session.set(ArchiveHarness.bo)
        _ = try await harness.service.add(eventID: hamlet, attendedOn: ArchiveHarness.day("2026-11-21"))
        #expect(try await harness.service.list().count == 1)
    }

    @Test func aTicketByHandNeedsATitleCategoryRegionAndAPastDate() async throws {
        let harness = try ArchiveHarness()
        let ticket = try await harness.service.addManual(
            ManualTicket(
                title: " 골목 재즈  공연 ", category: "콘서트", district: "마포",
                isFree: true, attendedOn: ArchiveHarness.day("2026-10-03"), rating: 4))
        #expect((ticket.title, ticket.category, ticket.district, ticket.isFree, ticket.eventID) == ("골목 재즈 공연", "콘서트", "마포구", true, nil))
        await #expect(throws: ArchiveError.invalidText(field: "title", value: "", limit: 200)) {
            try await harness.service.addManual(
                ManualTicket(
                    title: "  ", category: "연극", district: "종로구", isFree: false,
                    attendedOn: ArchiveHarness.day("2026-10-03")))
        }
        await #expect(throws: ArchiveError.attendedInFuture(ArchiveHarness.day("2026-12-01"), today: ArchiveHarness.day("2026-11-23"))) {
            try await harness.service.addManual(
                ManualTicket(
                    title: "미래 공연", category: "연극", district: "종로구", isFree: false,
                    attendedOn: ArchiveHarness.day("2026-12-01")))
        }
        let output = try await harness.run([
            "add", "--title", "동네 연극", "--category", "연극", "--region", "성북구", "--date", "2026-11-01",
            "--rating", "3", "--memo", "소극장, 좋았다",
        ])
        #expect(output.contains("Archived “동네 연극” (attended 2026-11-01, rated 3/5) as ticket "))
    }

    @Test func withoutASessionEveryTicketUseCaseSaysNotLoggedIn() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let hamlet = try await harness.eventID("연극 '햄릿'").rawValue
        harness.session.set(nil)
        await #expect(throws: NotLoggedInError()) { try await harness.service.add(eventID: hamlet) }
        await #expect(throws: NotLoggedInError()) { try await harness.service.list() }
        await #expect(throws: NotLoggedInError()) { try await harness.service.taste() }
        await #expect(throws: NotLoggedInError()) { try await harness.service.recommend() }
        await #expect(throws: NotLoggedInError()) { try await harness.service.export(.csv) }
        await #expect(throws: NotLoggedInError()) { try await harness.run(["remove", "abcd"]) }
        #expect(NotLoggedInError().exitStatus == .noPermission)
        // The catalogue itself needs nobody.
        #expect(try await harness.run(["events", "--per-page", "1"]).contains("Page 1 of 10"))
    }

    @Test func onlyYourOwnTicketsAreListedAndRemovedByIdOrPrefix() async throws {
        let harness = try ArchiveHarness(ticketIDs: ["aaaa1111-ada", "aaaa2222-ada", "bbbb3333-bo"])
        try await harness.importSample()
        let hamlet = try await harness.eventID("연극 '햄릿'").rawValue
        let art = try await harness.eventID("〈한국 근현대 회화 100선〉").rawValue
        _ = try await harness.service.add(eventID: hamlet)
        _ = try await harness.service.add(eventID: art)
        harness.session.set(ArchiveHarness.bo)
        _ = try await harness.service.add(eventID: hamlet)
        #expect(try await harness.service.list().map(\.id) == ["bbbb3333-bo"])
        await #expect(throws: ArchiveError.unknownTicket("aaaa1111-ada")) { try await harness.service.remove("aaaa1111-ada") }

        harness.session.set(FakeSessionProvider.ada)
        await #expect(throws: ArchiveError.ambiguousTicket("aaaa", matches: 2)) { try await harness.service.remove("aaaa") }
        await #expect(throws: ArchiveError.unknownTicket("aaa")) { try await harness.service.remove("aaa") }
        let output = try await harness.run(["remove", "AAAA2"])
        #expect(output == "Removed ticket aaaa2222 “〈한국 근현대 회화 100선〉” (attended 2026-11-23).\n")
        #expect(try await harness.service.list().map(\.id) == ["aaaa1111-ada"])
    }

    @Test func otherFeaturesArchiveThroughTheInterface() async throws {
        let harness = try ArchiveHarness(ticketIDs: ["t-1"])
        try await harness.importSample()
        let hamlet = try await harness.eventID("연극 '햄릿'")
        let summary = try await harness.root.archiving.archive(hamlet, rating: 4, memo: nil, attendedOn: ArchiveHarness.day("2026-11-20"))
        #expect(
            summary == TicketSummary(id: "t-1", eventID: hamlet, title: "연극 '햄릿'", attendedOn: ArchiveHarness.day("2026-11-20"), rating: 4))
    }

    @Test func listShowsATableAndStableJSON() async throws {
        let harness = try ArchiveHarness(ticketIDs: ["0123456789abcdef"])
        #expect(try await harness.run(["list"]).contains("No tickets yet: archive an event you attended with `moa archive add EVENT_ID`"))
        try await harness.importSample()
        _ = try await harness.service.add(eventID: try await harness.eventID("연극 '햄릿'").rawValue, rating: 5, memo: "좋음")
        let text = try await harness.run(["list"])
        #expect(text.contains("01234567  2026-11-23  연극 '햄릿'  연극      종로구    paid     5/5"))
        let json = try JSONSerialization.jsonObject(with: Data(try await harness.run(["list"], json: true).utf8)) as? [[String: Any]]
        let first = try #require(json?.first)
        #expect(first["id"] as? String == "0123456789abcdef")
        #expect(first["attended_on"] as? String == "2026-11-23")
        #expect(first["event_id"] as? String == (try await harness.eventID("연극 '햄릿'")).rawValue)
        #expect(first["rating"] as? Int == 5 && first["free"] as? Bool == false && first["memo"] as? String == "좋음")
    }
}
