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
            commandName: "list",
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
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Show one setting and where its value comes from.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The setting, e.g. display.page-size.") var key: String

        func run(in environment: SettingsEnvironment, context: CommandContext) async throws {
            try await SettingsScreen.show(.get(key, flags: SettingsOverrides(global: global)), environment, context)
        }
    }
}
