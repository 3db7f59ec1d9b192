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

    /// A new random identifier (UUID v4, lowercase).
    public static func random() -> Identifier { Identifier(UUID().uuidString.lowercased()) }

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
