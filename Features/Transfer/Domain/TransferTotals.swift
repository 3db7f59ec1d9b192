import Foundation

/// How every Transfer store keeps the daily limit's sums cheap: each sender's total per currency and
/// quarter of an hour (`transfer_totals`), so that the sum over a day reads at most 96 rows plus the
/// transfers at the window's uneven edges.
public enum TransferTotals {
    public static let quarterSeconds: Double = 900

    /// The number of the quarter hour since 1970 that holds `date` (or, rounding up, the first that
    /// starts at or after it).
    public static func quarter(containing date: Date, roundingUp: Bool) -> Int64 {
        let quarters = date.timeIntervalSince1970 / quarterSeconds
        guard quarters.isFinite else { return 0 }
        let rounded = roundingUp ? quarters.rounded(.up) : quarters.rounded(.down)
        return Int64(Swift.min(Swift.max(rounded, -1e15), 1e15))
    }

    /// When quarter `quarter` starts.
    public static func date(ofQuarter quarter: Int64) -> Date {
        Date(timeIntervalSince1970: Double(quarter) * quarterSeconds)
    }
}
