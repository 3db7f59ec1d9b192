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
    struct SetValue: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Validate and store a setting.",
            usage: """
                moa settings set KEY VALUE
                moa settings set SECRET-KEY --value-stdin < file     (\(SettingsHelp.secretNames))
                moa settings set SECRET-KEY                           (on a terminal: typed without echo)
                """,
            discussion: """
                A secret (\(SettingsHelp.secretNames)) should not be given as VALUE: other users see the \
                command line in `ps`, and your shell keeps it in its history. Pipe it with --value-stdin, or \
                leave VALUE out on a terminal to type it without echo (a VALUE still works, with a warning).

                \(SettingsHelp.keyTable)
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The setting, e.g. display.page-size.") var key: String
        @Argument(help: "The new value. For a secret, use --value-stdin or leave it out to type it without echo.")
        var value: String?
        @Flag(name: .customLong("value-stdin"), help: "Secret settings only: read the value from the first line of standard input.")
        var valueStdin = false

        func run(in environment: SettingsEnvironment, context: CommandContext) async throws {
            let known = try? SettingKey.named(key)
            guard let settingKey = known, settingKey.isSecret else {
                if valueStdin, let known { throw SettingsCommandError.valueStdinNotSecret(known) }
                // A plain setting, or an unknown key (the manager names the closest known one).
                try await SettingsScreen.show(.set(key, value: value), environment, context)
                return
            }
            let secret: String
            if let value {
                if valueStdin { throw SettingsCommandError.valueTwice }
                SettingsScreen.warnVisibleSecret(settingKey, context)
                secret = value
            } else {
                // A terminal is asked without echo; otherwise (--value-stdin, or a pipe) standard input is read.
                let source: SecretInput.Source = valueStdin || !context.isInteractive ? .standardInput : .prompt
                secret = try environment.secretInput.read(settingKey, from: source, context: context)
            }
            try await SettingsScreen.show(.set(settingKey.name, value: secret), environment, context)
        }
    }
}
