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

    /// The sum sent in `[start, end)`, written once for every engine: the whole quarters inside the
    /// window from the per-quarter totals (`quarters(first, last)`: quarters `first ..< last`), the
    /// uneven edges, if any (a window not starting or ending on a quarter), from the transfers
    /// themselves (`exact(from, until)`, never called with an empty range).
    public static func sent(
        from start: Date, until end: Date, quarters: (_ first: Int64, _ last: Int64) throws -> Int64,
        exact: (_ from: Date, _ until: Date) throws -> Int64
    ) throws -> Int64 {
        let window = Window(from: start, until: end)
        return try (window.first < window.last ? quarters(window.first, window.last) : 0)
            + window.edges.reduce(0) { try $0 + exact($1.from, $1.until) }
    }

    /// How a window `[start, end)` is summed: the whole quarters `first ..< last` (none when
    /// `first >= last`) and the uneven edges (each a non-empty range, at most two).
    public struct Window: Sendable, Hashable {
        public let first: Int64
        public let last: Int64
        public let edges: [Edge]

        public struct Edge: Sendable, Hashable {
            public let from: Date
            public let until: Date

            public init(from: Date, until: Date) {
                self.from = from
                self.until = until
            }
        }

        public init(from start: Date, until end: Date) {
            let first = TransferTotals.quarter(containing: start, roundingUp: true)
            let last = TransferTotals.quarter(containing: end, roundingUp: false)
            let edges =
                first < last
                ? [
                    Edge(from: start, until: TransferTotals.date(ofQuarter: first)),
                    Edge(from: TransferTotals.date(ofQuarter: last), until: end),
                ]
                : [Edge(from: start, until: end)]
            self.first = first
            self.last = last
            self.edges = edges.filter { $0.from < $0.until }
        }
    }
}
