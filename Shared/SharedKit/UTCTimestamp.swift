import Foundation

/// A date's UTC date and time as text, written by arithmetic: `2026-11-28T10:21:00.123` (to the
/// millisecond, the instant rounded first: ``Foundation/Date/roundedMillisecondsSince1970``), with
/// the separator between date and time a caller's format needs (`T` in RFC 3339, a space in GRDB's
/// text) — without a formatter: Foundation's go through ICU on Linux, or through
/// `Date.ISO8601FormatStyle`'s general machinery, a few per cent of moa-server's CPU where every
/// request or row writes a date (perf, docs/benchmarks.md). Only in the years 1600–9999, where the
/// proleptic Gregorian calendar is every formatter's and a year has four digits: `nil` outside.
public enum UTCTimestamp {
    /// What stands between the date and the time.
    public enum Separator: UInt8, Sendable {
        /// `T`, as RFC 3339 and ISO 8601 write it.
        case t = 0x54
        /// A space, as GRDB (and SQLite's own date functions) write it.
        case space = 0x20
    }

    /// Milliseconds since 1970 of 1600-01-01 and of 10000-01-01, UTC.
    private static let earliest: Double = -11_676_096_000_000
    private static let latest: Double = 253_402_300_800_000

    /// `yyyy-MM-dd`, `separator`, `HH:mm:ss.SSS`; `nil` outside the years 1600–9999.
    public static func milliseconds(_ date: Date, separator: Separator) -> String? {
        fields(date).map { text($0, separator: separator, digits: 7) }
    }

    /// `yyyy-MM-dd`, `separator`, `HH:mm:ss` of the instant rounded to the millisecond (x.9996 s is the
    /// next second); `nil` outside the years 1600–9999.
    public static func seconds(_ date: Date, separator: Separator) -> String? {
        fields(date).map { text($0, separator: separator, digits: 6) }
    }

    /// Year, month, day, hour, minute, second, millisecond.
    private static func fields(_ date: Date) -> [Int64]? {
        let millis = date.roundedMillisecondsSince1970
        guard millis.isFinite, millis >= earliest, millis < latest else { return nil }
        let total = Int64(millis)
        let (days, inDay) = floorDivision(total, 86_400_000)
        let day = Day(daysSince1970: Int(days))
        return [
            Int64(day.year), Int64(day.month), Int64(day.day), inDay / 3_600_000, inDay / 60_000 % 60, inDay / 1_000 % 60,
            inDay % 1_000,
        ]
    }

    /// The first `count` of `fields`, each at its width, with their separators.
    private static func text(_ fields: [Int64], separator: Separator, digits count: Int) -> String {
        let widths = [4, 2, 2, 2, 2, 2, 3]
        let separators = [
            UInt8(ascii: "-"), UInt8(ascii: "-"), separator.rawValue, UInt8(ascii: ":"),
            UInt8(ascii: ":"), UInt8(ascii: "."),
        ]
        var bytes = [UInt8]()
        bytes.reserveCapacity(23)
        for index in 0..<count {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: widths[index]))
            var rest = fields[index]
            for position in stride(from: start + widths[index] - 1, through: start, by: -1) {
                bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            if index < count - 1 { bytes.append(separators[index]) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value - 1) / divisor) - 1
        return (quotient, value - quotient * divisor)
    }
}
