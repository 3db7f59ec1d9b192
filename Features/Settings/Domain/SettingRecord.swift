import Money
import SettingsInterface

/// A setting as JSON shows it — the one shape of `moa settings list/get/set/reset --json` and of the
/// API's `Setting` (docs/api/openapi.yaml names this type on the schema): `{key, value, default,
/// source, description}`.
///
/// `value`/`default`: a string, a number (page size), money as `{"minor_units", "currency"}`, or
/// `null` when unset; a secret's value is `{"set": true|false}` and its default `null` — the
/// secret itself never appears. The server serves only the money settings, so its values are money.
public struct SettingRecord: Codable, Sendable, Hashable {
    public let key: String
    public let value: Value
    public let `default`: Value
    /// Where the value came from: `flag`, `env`, `user`, `device` or `default` (the server: `user` or `default`).
    public let source: String
    public let description: String

    public init(key: String, value: Value, default: Value, source: String, description: String) {
        self.key = key
        self.value = value
        self.default = `default`
        self.source = source
        self.description = description
    }

    /// `entry` as JSON shows it; `source`: where its value came from, when the shower names it
    /// otherwise (the server calls every value that is not the user's `default`).
    public init(_ entry: SettingEntry, source: String? = nil) {
        key = entry.key.name
        if entry.key.isSecret {
            value = .secretIsSet(entry.value != nil)
            `default` = .null
        } else {
            value = Value(entry.value)
            `default` = Value(entry.defaultValue)
        }
        self.source = source ?? entry.source.code
        description = entry.key.summary.en
    }

    /// A setting's value as JSON writes it.
    public enum Value: Codable, Sendable, Hashable {
        case null
        case text(String)
        case integer(Int)
        case money(Money)
        case secretIsSet(Bool)

        public init(_ value: SettingValue?) {
            switch value {
            case nil: self = .null
            case .integer(let number)?: self = .integer(number)
            case .money(let money)?: self = .money(money)
            case .secret?: self = .secretIsSet(true)
            case let value?: self = .text(value.storageText)
            }
        }

        private struct SecretFlag: Codable { let set: Bool }

        private struct Key: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        /// `null`, a number, a string, `{"set": …}` (that key alone) or money — whose own errors
        /// (an unknown currency, an amount out of range) are the ones reported.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let number = try? container.decode(Int.self) {
                self = .integer(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue) == ["set"] {
                self = .secretIsSet(try container.decode(SecretFlag.self).set)
            } else {
                self = .money(try container.decode(Money.self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .text(let text): try container.encode(text)
            case .integer(let number): try container.encode(number)
            case .money(let money): try container.encode(money)
            case .secretIsSet(let isSet): try container.encode(SecretFlag(set: isSet))
            }
        }
    }
}
