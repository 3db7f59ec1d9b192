import Foundation
import SharedKit
import Testing

/// Dates written by arithmetic (``UTCTimestamp``: the request log, the API's date-times, SQLite's
/// stored dates) are what Foundation's ISO 8601 format style writes, to the byte.
@Suite("UTC timestamps")
struct UTCTimestampTests {
    /// Dates from 1600 through 9999, to the microsecond, and the edges of a millisecond and of a year.
    static let dates: [Date] = {
        var state: UInt64 = 28
        var dates = (0..<20_000).map { _ -> Date in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let span: UInt64 = 265_078_396_800_000_000 // 1600-01-01 to 10000-01-01, in microseconds
            return Date(timeIntervalSince1970: -11_676_096_000 + Double(state % span) / 1_000_000)
        }
        let newYear = 1_798_761_600.0 // 2027-01-01T00:00:00Z
        dates += [-0.0006, -0.0005, -0.0004, 0, 0.0004, 0.0005, 0.9994, 0.9995, 0.9996].map { Date(timeIntervalSince1970: newYear + $0) }
        dates += [Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: -11_676_096_000)] // 2000-02-29, 1600-01-01
        return dates
    }()

    @Test func toTheMillisecondItIsWhatTheFormatStyleWritesOfTheRoundedInstant() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        // The format style cuts the fraction: it is given the rounded millisecond and a tenth of one
        // more, so that the binary fraction just under it (x.123 as 0.12299…) still reads as x.123.
        let differing = Self.dates.compactMap { date -> String? in
            let rounded = Date(timeIntervalSince1970: (date.roundedMillisecondsSince1970 + 0.1) / 1_000)
            let ours = UTCTimestamp.milliseconds(date, separator: .t).map { $0 + "Z" }
            return ours == style.format(rounded) ? nil : "\(date.timeIntervalSince1970): \(ours ?? "nil") ≠ \(style.format(rounded))"
        }
        #expect(differing.isEmpty, "\(differing.count): \(differing.prefix(3))")
        #expect(UTCTimestamp.milliseconds(Date(timeIntervalSince1970: 1_798_761_599.9996), separator: .space) == "2027-01-01 00:00:00.000")
    }

    @Test func toTheSecondItIsWhatTheFormatStyleWritesOfTheRoundedInstantCut() {
        let differing = Self.dates.compactMap { date -> String? in
            let second = Date(timeIntervalSince1970: (date.roundedMillisecondsSince1970 / 1_000).rounded(.down))
            let ours = UTCTimestamp.seconds(date, separator: .t).map { $0 + "Z" }
            return ours == second.formatted(.iso8601)
                ? nil : "\(date.timeIntervalSince1970): \(ours ?? "nil") ≠ \(second.formatted(.iso8601))"
        }
        #expect(differing.isEmpty, "\(differing.count): \(differing.prefix(3))")
    }

    @Test func outsideTheYears1600To9999ThereIsNone() {
        for date in [
            Date(timeIntervalSince1970: -11_676_096_000.001), Date(timeIntervalSince1970: 253_402_300_800), .distantPast,
            Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: .nan),
        ] {
            #expect(UTCTimestamp.milliseconds(date, separator: .t) == nil)
            #expect(UTCTimestamp.seconds(date, separator: .t) == nil)
        }
        #expect(UTCTimestamp.seconds(Date(timeIntervalSince1970: 253_402_300_799.9994), separator: .t) == "9999-12-31T23:59:59")
    }
}
