import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SettingsDomain
import SettingsInterface
import SharedKit
import Synchronization

extension SettingsCommand {
    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show every setting: value, default, where the value comes from, description.",
            discussion:
                "Secrets are masked. --json prints an array of {key, value, default, source, description}; a secret's value is {\"set\": true|false}, never the secret."
        )
        @OptionGroup var global: GlobalOptions

        func run(in environment: SettingsEnvironment, context: CommandContext) async throws {
            try await SettingsScreen.show(.list(flags: SettingsOverrides(global: global)), environment, context)
        }
    }

    struct Get: ServiceCommand {
        static let configuration = CommandConfiguration(abstract: "Show one setting and where its value comes from.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The setting, e.g. display.page-size.") var key: String

        func run(in environment: SettingsEnvironment, context: CommandContext) async throws {
            try await SettingsScreen.show(.get(key, flags: SettingsOverrides(global: global)), environment, context)
        }
    }
}

/// The `--json` shape of one setting: `{key, value, default, source, description}`.
///
/// `value`/`default`: a string, a number (page size), money as `{"minor_units", "currency"}`, or
/// `null` when unset; a secret's value is `{"set": true|false}` and its default `null` — the
/// secret itself never appears.
struct SettingJSON: Encodable {
    let key: String
    let value: SettingJSONValue
    let `default`: SettingJSONValue
    let source: String
    let description: String

    init(_ entry: SettingEntry) {
        key = entry.key.name
        if entry.key.isSecret {
            value = .secretIsSet(entry.value != nil)
            `default` = .null
        } else {
            value = SettingJSONValue(entry.value)
            `default` = SettingJSONValue(entry.defaultValue)
        }
        source = entry.source.code
        description = entry.key.summary.en
    }
}

enum SettingJSONValue: Encodable {
    case null
    case text(String)
    case integer(Int)
    case money(Money)
    case secretIsSet(Bool)

    init(_ value: SettingValue?) {
        switch value {
        case nil: self = .null
        case .integer(let number)?: self = .integer(number)
        case .money(let money)?: self = .money(money)
        case .secret?: self = .secretIsSet(true)
        case let value?: self = .text(value.storageText)
        }
    }

    private struct SecretFlag: Encodable { let set: Bool }

    func encode(to encoder: any Encoder) throws {
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
