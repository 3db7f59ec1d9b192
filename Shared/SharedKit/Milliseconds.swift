import Foundation

extension Date {
    /// Milliseconds since 1970-01-01 UTC, to the nearest (half a millisecond up): the instant
    /// Foundation hands ICU's formatters, and so the one the API's date-times (`APIWire`'s
    /// `InstantTranscoder`) and SQLite's stored dates (`Storage`'s `StoredDate`) are both written
    /// at. One rule for both, so that a date an answer gives is the date read back later.
    public var roundedMillisecondsSince1970: Double {
        ((timeIntervalSinceReferenceDate + Date.timeIntervalBetween1970AndReferenceDate) * 1_000 + 0.5).rounded(.down)
    }
}
