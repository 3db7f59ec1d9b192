import Foundation
import GRDB
import SharedKit

/// A date as SQLite keeps it here: GRDB's text, `yyyy-MM-dd HH:mm:ss.SSS` in UTC (to the nearest
/// millisecond) — written by arithmetic instead of by GRDB's `DateFormatter`, which on Linux is
/// ICU: binding a transfer's dates (its entries', its own, its recent recipient's, its notice's)
/// through it cost moa-server about 1.8 % of its CPU at 1,400 transfers/s (perf,
/// docs/benchmarks.md). The text is GRDB's to the byte (StoredDateTests compare the two), so rows
/// written either way compare and sort alike. Outside the years 1600–9999 — where ICU's calendar
/// turns Julian, or a year takes five digits — GRDB writes it. Read back as GRDB reads a `Date`.
public struct StoredDate: DatabaseValueConvertible, Sendable, Equatable {
    public let date: Date

    public init(_ date: Date) {
        self.date = date
    }

    public var databaseValue: DatabaseValue {
        Self.text(date)?.databaseValue ?? date.databaseValue
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> StoredDate? {
        Date.fromDatabaseValue(value).map(StoredDate.init)
    }

    /// Milliseconds since 1970 of 1600-01-01 and of 10000-01-01, UTC.
    private static let earliest: Double = -11_676_096_000_000
    private static let latest: Double = 253_402_300_800_000

    /// GRDB's text for `date`, or `nil` outside the years 1600–9999.
    static func text(_ date: Date) -> String? {
        let millis = date.roundedMillisecondsSince1970
        guard millis.isFinite, millis >= earliest, millis < latest else { return nil }
        let total = Int64(millis)
        let (days, inDay) = floorDivision(total, 86_400_000)
        let day = Day(daysSince1970: Int(days))
        let fields: [(Int64, Int)] = [
            (Int64(day.year), 4), (Int64(day.month), 2), (Int64(day.day), 2), (inDay / 3_600_000, 2), (inDay / 60_000 % 60, 2),
            (inDay / 1_000 % 60, 2), (inDay % 1_000, 3),
        ]
        let separators = Array("-- ::.".utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(23)
        for (index, (value, width)) in fields.enumerated() {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var rest = value
            for position in stride(from: width - 1, through: 0, by: -1) {
                digits[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            bytes += digits
            if index < separators.count { bytes.append(separators[index]) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value - 1) / divisor) - 1
        return (quotient, value - quotient * divisor)
    }
}
