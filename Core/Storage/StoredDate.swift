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

    /// GRDB's text for `date`, or `nil` outside the years 1600–9999.
    static func text(_ date: Date) -> String? {
        UTCTimestamp.milliseconds(date, separator: .space)
    }
}
