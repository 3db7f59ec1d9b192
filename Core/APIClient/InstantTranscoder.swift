import Foundation
import OpenAPIRuntime

/// How `moa`'s API clients write and read the API's date-times: RFC 3339 in UTC to the second
/// (`2026-11-23T12:00:09Z`, what moa-server writes), with `Date.ISO8601FormatStyle`.
///
/// The OpenAPI runtime's default, `ISO8601DateTranscoder`, is Foundation's `ISO8601DateFormatter`,
/// which on Linux loads ICU's Unicode sets the first time it parses: about 5 ms of a short `moa`
/// command's life (7 % of a release `moa transfer send`, Scripts/bench-client). The format style
/// reads the same strings without ICU. An offset other than `Z` is read as the instant it names.
public struct InstantTranscoder: DateTranscoder {
    public init() {}

    public func encode(_ date: Date) throws -> String {
        date.formatted(.iso8601)
    }

    public func decode(_ text: String) throws -> Date {
        // The format style reads a date-time at the start of a string and ignores what follows it:
        // the whole string must have the shape first.
        guard Self.hasShape(text), let date = try? Date(text, strategy: .iso8601) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Not an RFC 3339 date-time: \(text.prefix(40))"))
        }
        return date
    }

    /// `YYYY-MM-DDThh:mm:ssZ` or `YYYY-MM-DDThh:mm:ss±hh:mm`, and nothing else.
    static func hasShape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let stamp = Array("0000-00-00T00:00:00".utf8)
        guard bytes.count == stamp.count + 1 || bytes.count == stamp.count + 6 else { return false }
        for (byte, pattern) in zip(bytes, stamp) {
            guard pattern == UInt8(ascii: "0") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == pattern else {
                return false
            }
        }
        let zone = bytes[stamp.count...]
        if zone.count == 1 { return zone.first == UInt8(ascii: "Z") }
        let offset = Array(zone)
        return (offset[0] == UInt8(ascii: "+") || offset[0] == UInt8(ascii: "-")) && offset[3] == UInt8(ascii: ":")
            && [offset[1], offset[2], offset[4], offset[5]].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

extension Configuration {
    /// The configuration of every generated client of `moa`: ``InstantTranscoder`` for dates.
    public static let moa = Configuration(dateTranscoder: InstantTranscoder())
}
