import Foundation

/// A typed identifier: `Identifier<Account>` and `Identifier<Transfer>` cannot be mixed up.
///
/// The raw value is an opaque string (a lowercase UUID for generated ids). It encodes as a plain
/// JSON string, so `--json` output stays simple.
public struct Identifier<Tag>: RawRepresentable, Hashable, Comparable, Codable, Sendable,
    CustomStringConvertible, ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// A new random identifier (UUID v4, lowercase), from the system's secure generator in two
    /// draws: Foundation's `UUID()` opened, read and closed `/dev/urandom` each time on Linux
    /// (three system calls for every transfer moa-server writes).
    public static func random() -> Identifier {
        var generator = SystemRandomNumberGenerator()
        let halves = (generator.next(), generator.next())
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: halves.0 >> UInt64(8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: halves.1 >> UInt64(8 * index))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40 // version 4: random
        bytes[8] = bytes[8] & 0x3F | 0x80 // variant: RFC 9562
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11],
                bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return Identifier(uuid.uuidString.lowercased())
    }

    public var description: String { rawValue }

    public static func < (lhs: Identifier, rhs: Identifier) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The tag of user identifiers. Users are shared by every feature (an account's owner, a ticket's
/// holder), so their id lives here rather than in Auth.
public enum UserTag {}
public typealias UserID = Identifier<UserTag>
