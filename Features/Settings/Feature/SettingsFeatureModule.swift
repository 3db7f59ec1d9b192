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

/// What Settings' Feature layer provides: its commands.
public struct SettingsFeatureModule: FeatureModule {
    public let name = "Settings"
    private let confirmation: ConfirmationPrompt
    private let secretInput: SecretValueInput

    /// - Parameters:
    ///   - confirmation: how `reset` (all) asks; the terminal by default.
    ///   - secretInput: how `set` reads a secret's value when it is not an argument; the terminal and
    ///     standard input by default.
    public init(confirmation: ConfirmationPrompt = .terminal, secretInput: SecretValueInput = .terminal) {
        self.confirmation = confirmation
        self.secretInput = secretInput
    }

    public var providers: [Provider] {
        let confirmation = confirmation
        let secretInput = secretInput
        return [
            .singleton(SettingsCommandsKey.self, requires: SettingsManagerKey.self) { manager in
                FeatureCommands(
                    SettingsCommand.self,
                    environment: SettingsEnvironment(
                        manager: manager, confirmation: confirmation,
                        secretInput: secretInput))
            },
            .singleton(SettingsHomeEntryKey.self, requires: SettingsManagerKey.self) { SettingsHome.entry(manager: $0) },
        ]
    }
}
