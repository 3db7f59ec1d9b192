import Foundation
import OpenAPIRuntime
import SharedKit

/// How both ends of docs/api/openapi.yaml write and read its date-times: RFC 3339 in UTC to the
/// second (`2026-11-23T12:00:09Z`), with `Date.ISO8601FormatStyle` — moa-server's handlers
/// (`APIServing`'s `ServedRoutes`) and `moa`'s API clients (`APIClient`'s `Configuration.moa`).
///
/// The OpenAPI runtime's default, `ISO8601DateTranscoder`, is Foundation's `ISO8601DateFormatter`,
/// which on Linux formats and parses through ICU: it loads ICU's Unicode sets the first time it
/// parses (about 5 ms of a short `moa` command's life, 7 % of a release `moa transfer send`,
/// Scripts/bench-client), and each date it writes costs moa-server about 2.5 % of its CPU at 1,400
/// transfers/s (perf, docs/benchmarks.md). The format style writes the same strings and reads them
/// without ICU. An offset other than `Z` is read as the instant it names.
public struct InstantTranscoder: DateTranscoder {
    public init() {}

    /// To the second, as Foundation's formatter wrote it (and as SQLite keeps it, `StoredDate`):
    /// the instant rounded to the millisecond first, so that x.9996 s is written as the next
    /// second, not cut to this one — the date a request answers with is the one read back later.
    /// By arithmetic (`UTCTimestamp`) in the years 1600–9999, by the format style outside them.
    public func encode(_ date: Date) throws -> String {
        if let text = UTCTimestamp.seconds(date, separator: .t) { return text + "Z" }
        let milliseconds = date.roundedMillisecondsSince1970
        guard milliseconds.isFinite else { return date.formatted(.iso8601) }
        return Date(timeIntervalSince1970: (milliseconds / 1_000).rounded(.down)).formatted(.iso8601)
    }

    public func decode(_ text: String) throws -> Date {
        // The format style reads a date-time at the start of a string and ignores what follows it,
        // and rolls a field out of range over into the next (`T25:00` is the next day, `02-31` is
        // March): the whole string must have the shape, and the instant read, written back in the
        // string's own offset, must give the string's own fields.
        guard text.utf8.count <= 25, let offset = Self.offset(text), let zone = TimeZone(secondsFromGMT: offset),
            let date = try? Date(text, strategy: .iso8601)
        else { throw Self.notADate(text) }
        guard Date.ISO8601FormatStyle(timeZone: zone).format(date).prefix(19) == text.prefix(19) else { throw Self.notADate(text) }
        return date
    }

    private static func notADate(_ text: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "Not an RFC 3339 date-time: \(text.prefix(40))"))
    }

    /// The offset from UTC in seconds of `YYYY-MM-DDThh:mm:ssZ` or `YYYY-MM-DDThh:mm:ss±hh:mm`
    /// (hours 00–23, minutes 00–59); `nil` for anything else.
    static func offset(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        let stamp = Array("0000-00-00T00:00:00".utf8)
        guard bytes.count == stamp.count + 1 || bytes.count == stamp.count + 6 else { return nil }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        for (byte, pattern) in zip(bytes, stamp) {
            guard pattern == UInt8(ascii: "0") ? isDigit(byte) : byte == pattern else { return nil }
        }
        let zone = Array(bytes[stamp.count...])
        if zone.count == 1 { return zone[0] == UInt8(ascii: "Z") ? 0 : nil }
        guard zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"), zone[3] == UInt8(ascii: ":"),
            [zone[1], zone[2], zone[4], zone[5]].allSatisfy(isDigit)
        else { return nil }
        let hours = Int(zone[1] - UInt8(ascii: "0")) * 10 + Int(zone[2] - UInt8(ascii: "0"))
        let minutes = Int(zone[4] - UInt8(ascii: "0")) * 10 + Int(zone[5] - UInt8(ascii: "0"))
        guard hours <= 23, minutes <= 59 else { return nil }
        return (zone[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }
}
