import CommandKit
import DesignSystem
import Registry
import SettingsDomain
import SettingsInterface
import SharedKit

/// Settings' entry on the interactive home screen (anyone: before a login they are the device's).
public enum SettingsHomeEntryKey: ServiceKey { public typealias Service = HomeEntry }

/// Settings in the interactive mode: the table `moa settings list` prints, then a setting chosen by
/// number, its card, and a new value (typed hidden for a secret), through the same view model as
/// `moa settings set | reset`, until "back".
enum SettingsHome {
    static func entry(manager: SettingsManager) -> HomeEntry {
        HomeEntry(title: LocalizedText(en: "Settings", ko: "설정"), audience: .anyone, id: "settings") { screen in
            await run(screen, manager: manager)
        }
    }

    static func run(_ screen: Screen, manager: SettingsManager) async {
        let context = screen.context
        let text = { (en: String, ko: String) in context.text(LocalizedText(en: en, ko: ko)) }
        while true {
            guard case .listed(let report)? = await send(.list(flags: SettingsOverrides()), screen, manager) else { return }
            screen.show(
                screen.theme.paint(context.text(SettingsScreen.scopeLine(report.scope)), .muted) + "\n"
                    + SettingsScreen.table(report, context).render(theme: screen.theme))
            let options = report.entries.map { "\($0.key.name) = \(SettingsScreen.shown($0.value, context))" }
            guard let index = screen.choose(text("Which setting to change?", "어떤 설정을 바꿀까요?"), options) else { return }
            await change(report.entries[index], screen, manager)
        }
    }

    /// Shows the setting's card, asks for its new value and saves it (or resets it with `-`).
    private static func change(_ entry: SettingEntry, _ screen: Screen, _ manager: SettingsManager) async {
        let context = screen.context
        let key = entry.key
        guard case .shown(let setting)? = await send(.get(key.name, flags: SettingsOverrides()), screen, manager) else { return }
        screen.show(SettingsScreen.card(setting, context))
        let question = context.text(
            LocalizedText(
                en: "New value of \(key.name) (empty: keep it; -: back to the default):",
                ko: "\(key.name)의 새 값 (비우면 그대로, -는 기본값으로):"))
        guard let answer = key.isSecret ? screen.askSecret(question) : screen.ask(question), !answer.isEmpty else { return }
        let input: SettingsViewModel.Input = answer == "-" ? .reset(key.name) : .set(key.name, value: answer)
        guard let outcome = await send(input, screen, manager) else { return }
        switch outcome {
        case .changed(let setting), .reset(let setting, _):
            let saved =
                if case .reset = outcome {
                    LocalizedText(
                        en: "reset: \(SettingsScreen.sourceText(setting.entry.source))",
                        ko: "초기화: \(SettingsScreen.sourceText(setting.entry.source))")
                } else {
                    setting.scope.owner.map { LocalizedText(en: "saved for \($0)", ko: "\($0)에 저장함") }
                        ?? LocalizedText(en: "saved for this device", ko: "이 기기에 저장함")
                }
            screen.say(
                screen.theme.paint("\(key.name) = \(SettingsScreen.shown(setting.entry.value, context))", .success) + " "
                    + screen.theme.paint("(\(context.text(saved)))", .muted))
            if let note = SettingsScreen.overriddenNote(setting.entry, context) { screen.say(screen.theme.paint(note, .warning)) }
            screen.say("")
        default:
            return
        }
    }

    /// Runs one input through the view model; shows its error and returns `nil` if it failed.
    private static func send(_ input: SettingsViewModel.Input, _ screen: Screen, _ manager: SettingsManager) async
        -> SettingsViewModel.Outcome?
    {
        let viewModel = SettingsViewModel(manager: manager)
        await viewModel.send(input)
        let state = await viewModel.state
        if let error = state.error {
            screen.showError(error)
            return nil
        }
        return state.outcome
    }
}
