import Foundation

/// How moments read in tables and cards: fixed `yyyy-MM-dd…` digits (never the locale's order or
/// names), in the machine's time zone unless said otherwise. `--json` uses ISO 8601 instead.
public enum DateText {
    /// `2026-11-23`
    public static func day(_ date: Date, in timeZone: TimeZone = .current) -> String {
        format(date, "yyyy-MM-dd", timeZone)
    }

    /// `2026-11-23 14:05`
    public static func minute(_ date: Date, in timeZone: TimeZone = .current) -> String {
        format(date, "yyyy-MM-dd HH:mm", timeZone)
    }

    /// `2026-11-23 14:05:09`
    public static func second(_ date: Date, in timeZone: TimeZone = .current) -> String {
        format(date, "yyyy-MM-dd HH:mm:ss", timeZone)
    }

    private static func format(_ date: Date, _ pattern: String, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
