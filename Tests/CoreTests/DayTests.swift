import Foundation
import SharedKit
import Testing

@Suite("Day")
struct DayTests {
    @Test func parsesISODatesAndSeoulTimestamps() {
        #expect(Day("2025-05-01")?.description == "2025-05-01")
        #expect(Day("2025-05-01 00:00:00.0") == Day(year: 2025, month: 5, day: 1))
        #expect(Day("2024-02-29") != nil)
        for bad in ["2025-02-29", "2025-13-01", "2025-5-1", "20250501", "", "2025-05-0x"] {
            #expect(Day(bad) == nil, "\(bad)")
        }
    }

    @Test func aCountOfDaysSince1970NamesItsDay() {
        #expect(Day(daysSince1970: 0).description == "1970-01-01")
        #expect(Day(daysSince1970: -1).description == "1969-12-31")
        #expect(Day(daysSince1970: 11_016).description == "2000-02-29")
        #expect(Day(daysSince1970: 20_785).description == "2026-11-28")
        #expect(Day(daysSince1970: -135_140).description == "1600-01-01")
    }

    @Test func weekdaysFollowISO8601() {
        #expect(Day("2025-05-01")?.isoWeekday == 4) // a Thursday
        #expect(Day("2026-11-22")?.isoWeekday == 7) // a Sunday
        #expect(Day("2000-01-01")?.isoWeekday == 6) // a Saturday
    }

    @Test func arithmeticCrossesMonthsYearsAndLeapDays() throws {
        let day = try #require(Day("2024-02-28"))
        #expect(day.adding(days: 1).description == "2024-02-29")
        #expect(day.adding(days: 2).description == "2024-03-01")
        #expect(day.adding(days: 366).description == "2025-02-28")
        #expect(day.adding(days: -59).description == "2023-12-31")
        #expect(day.days(until: try #require(Day("2025-02-28"))) == 366)
        #expect(try #require(Day("2025-01-01")) < (try #require(Day("2025-01-02"))))
    }

    @Test func theDayOfAnInstantDependsOnTheTimeZone() throws {
        let instant = Date(timeIntervalSince1970: 1_767_225_600 - 3600) // 2025-12-31T23:00:00Z
        #expect(Day(instant, in: try #require(TimeZone(identifier: "UTC"))).description == "2025-12-31")
        #expect(Day(instant, in: try #require(TimeZone(identifier: "Asia/Seoul"))).description == "2026-01-01")
    }

    @Test func codesAsAPlainString() throws {
        let data = try JSONEncoder().encode([Day("2025-05-01")])
        #expect(String(decoding: data, as: UTF8.self) == #"["2025-05-01"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Day].self, from: Data(#"["2025-02-30"]"#.utf8)) }
    }
}
