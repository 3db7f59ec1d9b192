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

/// Settings' command group, collected by the App's root.
public enum SettingsCommandsKey: ServiceKey {
    public typealias Service = FeatureCommands
}

/// What Settings' commands run with.
public struct SettingsEnvironment: Sendable {
    let manager: SettingsManager
    let confirmation: ConfirmationPrompt
    let secretInput: SecretValueInput
}

extension SettingsOverrides {
    /// The settings the global options decide for this run: `--no-color` → `display.color = never`.
    public init(global: GlobalOptions) {
        self.init(global.noColor ? [SettingKey.displayColor.name: ColorPreference.never.rawValue] : [:])
    }
}

/// `moa settings …`
public struct SettingsCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "List, get, set and reset your settings.",
        discussion: """
            Each setting's value comes from, highest first: a command-line flag of this run (--no-color \
            sets display.color), an environment variable (MOA_ + the key in capitals, with . and - as _, \
            e.g. MOA_DISPLAY_PAGE_SIZE), the value stored for you, the value stored for this device, \
            the default. Logged in, `set` and `reset` change your values; before login, the device's \
            (which a user's unset keys then fall back to).

            \(SettingsHelp.keyTable)
            """,
        subcommands: [List.self, Get.self, SetValue.self, Reset.self]
    )

    public init() {}
}

/// Help text generated from the keys, so it cannot drift from the validation.
enum SettingsHelp {
    /// "search.api-token, archive.api-key".
    static let secretNames = SettingKey.secretKeys.map(\.name).joined(separator: ", ")

    static let keyTable: String = {
        let lines = SettingKey.allCases.map { key -> String in
            let defaultText = key.defaultValue?.displayText ?? "unset"
            return "• \(key.name): \(key.allowed.en); default \(defaultText)." + (key.note.map { " " + $0 } ?? "")
        }
        return "Settings:\n" + lines.joined(separator: "\n")
    }()
}
