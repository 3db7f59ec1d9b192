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
    struct Reset: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Remove a stored setting, or all of them (after a confirmation).",
            discussion: """
                With a KEY, that value is removed: yours then falls back to this device's value, then to \
                the default. Without a KEY, every value stored for you (or for the device) is removed; \
                this asks first on a terminal, and needs --yes anywhere else.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The setting to reset; leave it out to reset all.") var key: String?
        @Flag(help: "Reset all without asking.") var yes = false

        func run(in environment: SettingsEnvironment, context: CommandContext) async throws {
            if let key {
                try await SettingsScreen.show(.reset(key), environment, context)
                return
            }
            let viewModel = SettingsViewModel(manager: environment.manager)
            await viewModel.send(.countStored)
            let state = await viewModel.state
            if let error = state.error { throw error }
            let context = SettingsScreen.localized(context, state.language)
            guard case .stored(let scope, let count)? = state.outcome else { return }
            guard count > 0 else {
                try SettingsScreen.render(.resetAll(scope: scope, removed: 0), context)
                return
            }
            if !yes {
                guard context.isInteractive else { throw SettingsCommandError.confirmationNeeded }
                let question = context.text(
                    LocalizedText(
                        en: count == 1 ? "Reset the 1 stored setting? [y/N]" : "Reset all \(count) settings? [y/N]",
                        ko: "설정 \(count)개를 모두 초기화할까요? [y/N]"))
                guard environment.confirmation.ask(question, context) else {
                    context.print(context.text(LocalizedText(en: "Nothing was reset.", ko: "아무것도 초기화하지 않았습니다.")))
                    return
                }
            }
            try await SettingsScreen.show(.resetAll, environment, context)
        }
    }
}

struct ResetAllJSON: Encodable {
    let reset: Int
    let scope: String
}
