import Foundation

/// A calendar day (no time, no time zone): an event's start date, the day a ticket was used.
/// Written and read as `YYYY-MM-DD`; ordered by date.
public struct Day: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid date, or `nil` (`2025-02-30` is not a day).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
            day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `2025-05-01`, also the leading date of `2025-05-01 00:00:00.0`.
    public init?(_ text: some StringProtocol) {
        let digits = text.prefix(10)
        let parts = digits.split(separator: "-", omittingEmptySubsequences: false)
        guard digits.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `days` days after 1970-01-01 (before it when negative), in the proleptic Gregorian
    /// calendar: 0 is 1970-01-01.
    public init(daysSince1970 days: Int) {
        self.init(ordinal: days + 719_468) // 1970-01-01 is day 719,468 since 0000-03-01
    }

    /// The day that `date` falls on in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        year = parts.year ?? 1970
        month = parts.month ?? 1
        day = parts.day ?? 1
    }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Monday = 1 … Sunday = 7 (ISO 8601).
    public var isoWeekday: Int {
        // Zeller-style computation on the proleptic Gregorian calendar, no Foundation needed.
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        let sunday0 = (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day) % 7 // 0 = Sunday
        return sunday0 == 0 ? 7 : sunday0
    }

    /// The number of days from `self` to `other` (negative if `other` is earlier).
    public func days(until other: Day) -> Int { other.ordinal - ordinal }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> Day { Day(ordinal: ordinal + count) }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.ordinal < rhs.ordinal }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = Day(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "“\(text)” is not a YYYY-MM-DD date"))
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: Day numbers (days since 0000-03-01, civil calendar)

    private var ordinal: Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra
    }

    private init(ordinal: Int) {
        let era = (ordinal >= 0 ? ordinal : ordinal - 146_096) / 146_097
        let dayOfEra = ordinal - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        self.day = day
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
