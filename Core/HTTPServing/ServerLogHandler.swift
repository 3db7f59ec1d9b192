import Foundation
import Logging
import SharedKit

/// How `moa-server` writes its log (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-11-26T03:04:05.123Z info request request_id=… route=/v1/accounts status=200`: for a person.
    case text
    /// One JSON object per line (`{"time":…,"level":…,"message":…,"request_id":…}`): for a collector.
    case json
}

/// `moa-server`'s log handler: one line per event, in either ``LogFormat``, on standard error.
///
/// Whatever a value holds, it cannot break a line or a collector's parser: every value is cut to
/// ``maximumValueLength`` characters (an 80 KB URL is one short field, not one long line), and in
/// text the control characters of a value (a newline, ESC) are written as `\u{…}`, in JSON as the
/// format's escapes. Nothing is logged that a caller did not put in metadata, and the request log
/// puts in no header, body, token or query.
public struct ServerLogHandler: LogHandler {
    /// Longer values are cut here, with the count of what was left out.
    public static let maximumValueLength = 256

    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level
    private let label: String
    private let format: LogFormat
    private let write: @Sendable (String) -> Void

    /// - Parameter write: takes each whole line, with its newline (standard error by default).
    public init(
        label: String, format: LogFormat, level: Logger.Level = .info,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // The event's metadata over the handler's over the provider's, merged only where there is any.
        var fields = event.metadata ?? [:]
        if !metadata.isEmpty { fields.merge(metadata) { event, _ in event } }
        if let provided = metadataProvider?.get(), !provided.isEmpty { fields.merge(provided) { earlier, _ in earlier } }
        let now = Date()
        let time =
            UTCTimestamp.milliseconds(now, separator: .t).map { $0 + "Z" }
            ?? now.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let message = Self.cut(event.message.description)
        let sorted = fields.sorted { $0.key < $1.key }
        var line = ""
        line.reserveCapacity(160)
        switch format {
        case .json:
            line += "{\"time\":" + Self.json(time) + ",\"level\":" + Self.json(event.level.rawValue) + ",\"label\":" + Self.json(label)
            line += ",\"message\":" + Self.json(message)
            for (key, value) in sorted { line += "," + Self.json(key) + ":" + Self.json(Self.flatten(value)) }
            line += "}\n"
        case .text:
            line += time + " " + event.level.rawValue + " " + Self.text(message)
            for (key, value) in sorted { line += " " + Self.text(key) + "=" + Self.quotedIfNeeded(Self.text(Self.flatten(value))) }
            line += "\n"
        }
        write(line)
    }

    /// A metadata value as one string: arrays and dictionaries as their elements, each cut.
    static func flatten(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): cut(string)
        case .stringConvertible(let convertible): cut(convertible.description)
        case .array(let values): cut("[" + values.map(flatten).joined(separator: ",") + "]")
        case .dictionary(let values):
            cut("{" + values.sorted { $0.key < $1.key }.map { "\($0)=\(flatten($1))" }.joined(separator: ",") + "}")
        }
    }

    /// `value`, or its first ``maximumValueLength`` characters and how many more there were.
    static func cut(_ value: String) -> String {
        // No more bytes than the limit: no more characters either (counting them is the slow part).
        guard value.utf8.count > maximumValueLength, value.count > maximumValueLength else { return value }
        return value.prefix(maximumValueLength) + "…(\(value.count - maximumValueLength) more)"
    }

    /// `value` as a JSON string (RFC 8259: quotes, backslashes and control characters escaped).
    static func json(_ value: String) -> String {
        if isPlain(value) { return "\"" + value + "\"" }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || (0x2028...0x2029).contains(scalar.value):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `value` with its control characters (C0, DEL, C1, line and paragraph separators) written as
    /// `\u{…}`, and a backslash as two (so that `\u{a}` in a value never reads as an escaped newline).
    public static func text(_ value: String) -> String {
        if isPlain(value) { return value }
        var out = ""
        for scalar in value.unicodeScalars {
            if scalar == "\\" {
                out += "\\\\"
            } else if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || (0x2028...0x2029).contains(scalar.value)
            {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func quotedIfNeeded(_ value: String) -> String {
        value.isEmpty || value.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\"") }) ? json(value) : value
    }

    /// Printable ASCII without `"` or `\`: what ``json(_:)`` and ``text(_:)`` write as it is (most
    /// of a request's line), found without walking its scalars.
    private static func isPlain(_ value: String) -> Bool {
        value.utf8.allSatisfy { (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }
}
