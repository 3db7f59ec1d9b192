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

/// Sends one input to the view model and renders the outcome, or JSON.
enum SettingsScreen {
    static func show(_ input: SettingsViewModel.Input, _ environment: SettingsEnvironment, _ context: CommandContext) async throws {
        let viewModel = SettingsViewModel(manager: environment.manager)
        await viewModel.send(input)
        let state = await viewModel.state
        if let error = state.error { throw error }
        guard let outcome = state.outcome else { return }
        try render(outcome, localized(context, state.language))
    }

    /// The context in the language the settings now say (the App may not have applied it yet).
    static func localized(_ context: CommandContext, _ language: AppLanguage?) -> CommandContext {
        guard let language, language != context.language else { return context }
        return context.with(language: language, colorMode: nil, noColorFlag: false)
    }

    static func render(_ outcome: SettingsViewModel.Outcome, _ context: CommandContext) throws {
        let theme = context.theme
        if context.json {
            try printJSON(outcome, context)
            return
        }
        switch outcome {
        case .listed(let report):
            context.print(theme.paint(context.text(scopeLine(report.scope)), .muted))
            context.print(table(report, context).render(theme: theme))
            for warning in report.warnings {
                context.print(theme.paint(context.text(LocalizedText(en: "warning: ", ko: "경고: ")) + context.text(warning), .warning))
            }
        case .shown(let setting):
            context.print(card(setting, context))
        case .changed(let setting):
            let saved =
                setting.scope.owner.map { LocalizedText(en: "saved for \($0)", ko: "\($0)에 저장함") }
                ?? LocalizedText(en: "saved for this device", ko: "이 기기에 저장함")
            context.print(
                theme.paint("\(setting.entry.key.name) = \(shown(setting.entry.value, context))", .success)
                    + " " + theme.paint("(\(context.text(saved)))", .muted))
            if let note = overriddenNote(setting.entry, context) { context.print(theme.paint(note, .warning)) }
        case .reset(let setting, let removed):
            let key = setting.entry.key.name
            let now = shown(setting.entry.value, context)
            let source = setting.entry.source.code
            if removed {
                context.print(
                    theme.paint(
                        context.text(
                            LocalizedText(
                                en: "Reset \(key): it is now \(now) (\(source)).", ko: "\(key) 초기화: 이제 \(now) (\(source))")), .success))
            } else {
                let whose = setting.scope.owner ?? context.text(LocalizedText(en: "this device", ko: "이 기기"))
                context.print(
                    context.text(
                        LocalizedText(
                            en: "\(key) was not stored for \(whose); it is \(now) (\(source)).",
                            ko: "\(key)는 \(whose)에 저장되어 있지 않습니다. 현재 값: \(now) (\(source))")))
            }
            if let note = overriddenNote(setting.entry, context) { context.print(theme.paint(note, .warning)) }
        case .stored(let scope, let count), .resetAll(let scope, let count):
            let whose = scope.owner ?? context.text(LocalizedText(en: "this device", ko: "이 기기"))
            if count == 0 {
                context.print(
                    context.text(
                        LocalizedText(
                            en: "Nothing to reset: no setting is stored for \(whose).", ko: "초기화할 것이 없습니다: \(whose)에 저장된 설정이 없습니다.")))
            } else {
                context.print(
                    theme.paint(
                        context.text(
                            LocalizedText(
                                en: "Reset \(count) \(count == 1 ? "setting" : "settings") for \(whose).",
                                ko: "\(whose)의 설정 \(count)개를 초기화했습니다.")), .success))
            }
        }
    }

    // MARK: Pieces

    static func scopeLine(_ scope: SettingsScope) -> LocalizedText {
        guard let owner = scope.owner else {
            return LocalizedText(en: "Settings of this device (nobody is logged in).", ko: "이 기기의 설정 (로그인 전).")
        }
        return LocalizedText(
            en: "Settings of \(owner); what you have not set follows this device, then the defaults.",
            ko: "\(owner)의 설정. 직접 정하지 않은 값은 이 기기의 값, 그다음 기본값을 따릅니다.")
    }

    static func shown(_ value: SettingValue?, _ context: CommandContext) -> String {
        value?.displayText ?? context.text(LocalizedText(en: "(unset)", ko: "(없음)"))
    }

    static func sourceText(_ source: SettingSource) -> String {
        if case .environment(let variable) = source { return "env \(variable)" }
        return source.code
    }

    static func table(_ report: SettingsReport, _ context: CommandContext) -> Table {
        let title = { (en: String, ko: String) in context.text(LocalizedText(en: en, ko: ko)) }
        var table = Table(columns: [
            .init(title("Key", "키")),
            .init(title("Value", "값"), maxWidth: 32),
            .init(title("Default", "기본값"), maxWidth: 32),
            .init(title("Source", "출처")),
            .init(title("Description", "설명"), maxWidth: 48),
        ])
        for entry in report.entries {
            table.append([
                entry.key.name,
                shown(entry.value, context),
                shown(entry.defaultValue, context),
                entry.source.code,
                context.text(entry.key.summary),
            ])
        }
        return table
    }

    static func card(_ setting: ScopedSetting, _ context: CommandContext) -> String {
        let entry = setting.entry
        let label = { (en: String, ko: String) in context.text(LocalizedText(en: en, ko: ko)) }
        var rows = [
            KeyValueRows.Row(label("Value", "값"), shown(entry.value, context)),
            KeyValueRows.Row(label("Source", "출처"), sourceText(entry.source)),
            KeyValueRows.Row(label("Default", "기본값"), shown(entry.defaultValue, context)),
            KeyValueRows.Row(label("Allowed", "허용값"), context.text(entry.key.allowed)),
            KeyValueRows.Row(label("Description", "설명"), context.text(entry.key.summary)),
            KeyValueRows.Row(label("Environment", "환경 변수"), entry.key.environmentVariable),
        ]
        if let note = entry.key.note { rows.append(KeyValueRows.Row(label("Note", "참고"), note)) }
        let lines = KeyValueRows(rows).render(theme: context.theme).components(separatedBy: "\n")
        return Card(title: entry.key.name, lines: lines).render(theme: context.theme)
    }

    /// Said after a change that this run does not see, because a flag or a variable wins.
    static func overriddenNote(_ entry: SettingEntry, _ context: CommandContext) -> String? {
        let now = shown(entry.value, context)
        switch entry.source {
        case .environment(let variable):
            return context.text(
                LocalizedText(
                    en: "Note: \(variable) is set, so it still decides: \(now).",
                    ko: "참고: \(variable) 환경 변수가 있어 그 값이 계속 쓰입니다: \(now)"))
        case .flag:
            return context.text(
                LocalizedText(
                    en: "Note: a command-line flag decides it for this run: \(now).",
                    ko: "참고: 이번 실행에서는 명령줄 플래그가 정합니다: \(now)"))
        case .user, .device, .default:
            return nil
        }
    }

    /// The one line said on standard error when a secret is given as a command-line argument.
    static func warnVisibleSecret(_ key: SettingKey, _ context: CommandContext) {
        let text = context.text(
            LocalizedText(
                en: "warning: a value on the command line is visible to other users in `ps` and kept in your shell history; "
                    + "use `moa settings set \(key.name) --value-stdin` instead.",
                ko: "경고: 명령줄의 값은 다른 사용자가 `ps`로 볼 수 있고 셸 기록에도 남습니다. "
                    + "`moa settings set \(key.name) --value-stdin`을 쓰세요."))
        context.err.write(context.errorTheme.paint(text, .warning) + "\n")
    }

    static func printJSON(_ outcome: SettingsViewModel.Outcome, _ context: CommandContext) throws {
        switch outcome {
        case .listed(let report):
            try context.printJSON(report.entries.map { SettingRecord($0) })
        case .shown(let setting), .changed(let setting), .reset(let setting, _):
            try context.printJSON(SettingRecord(setting.entry))
        case .stored(let scope, let count), .resetAll(let scope, let count):
            try context.printJSON(ResetAllJSON(reset: count, scope: scope.isDevice ? "device" : "user"))
        }
    }
}
