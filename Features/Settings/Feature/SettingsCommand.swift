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

    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show every setting: value, default, where the value comes from, description.",
            discussion: "Secrets are masked. --json prints an array of {key, value, default, source, description}; a secret's value is {\"set\": true|false}, never the secret.")
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

    struct Reset: ServiceCommand {
        static let configuration = CommandConfiguration(
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
                let question = context.text(LocalizedText(
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
            let saved = setting.scope.owner.map { LocalizedText(en: "saved for \($0)", ko: "\($0)에 저장함") }
                ?? LocalizedText(en: "saved for this device", ko: "이 기기에 저장함")
            context.print(theme.paint("\(setting.entry.key.name) = \(shown(setting.entry.value, context))", .success)
                + " " + theme.paint("(\(context.text(saved)))", .muted))
            if let note = overriddenNote(setting.entry, context) { context.print(theme.paint(note, .warning)) }
        case .reset(let setting, let removed):
            let key = setting.entry.key.name, now = shown(setting.entry.value, context), source = setting.entry.source.code
            if removed {
                context.print(theme.paint(context.text(LocalizedText(
                    en: "Reset \(key): it is now \(now) (\(source)).", ko: "\(key) 초기화: 이제 \(now) (\(source))")), .success))
            } else {
                let whose = setting.scope.owner ?? context.text(LocalizedText(en: "this device", ko: "이 기기"))
                context.print(context.text(LocalizedText(
                    en: "\(key) was not stored for \(whose); it is \(now) (\(source)).",
                    ko: "\(key)는 \(whose)에 저장되어 있지 않습니다. 현재 값: \(now) (\(source))")))
            }
            if let note = overriddenNote(setting.entry, context) { context.print(theme.paint(note, .warning)) }
        case .stored(let scope, let count), .resetAll(let scope, let count):
            let whose = scope.owner ?? context.text(LocalizedText(en: "this device", ko: "이 기기"))
            if count == 0 {
                context.print(context.text(LocalizedText(
                    en: "Nothing to reset: no setting is stored for \(whose).", ko: "초기화할 것이 없습니다: \(whose)에 저장된 설정이 없습니다.")))
            } else {
                context.print(theme.paint(context.text(LocalizedText(
                    en: "Reset \(count) \(count == 1 ? "setting" : "settings") for \(whose).", ko: "\(whose)의 설정 \(count)개를 초기화했습니다.")), .success))
            }
        }
    }

    // MARK: Pieces

    static func scopeLine(_ scope: SettingsScope) -> LocalizedText {
        guard let owner = scope.owner else {
            return LocalizedText(en: "Settings of this device (nobody is logged in).", ko: "이 기기의 설정 (로그인 전).")
        }
        return LocalizedText(en: "Settings of \(owner); what you have not set follows this device, then the defaults.",
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
            return context.text(LocalizedText(
                en: "Note: \(variable) is set, so it still decides: \(now).",
                ko: "참고: \(variable) 환경 변수가 있어 그 값이 계속 쓰입니다: \(now)"))
        case .flag:
            return context.text(LocalizedText(
                en: "Note: a command-line flag decides it for this run: \(now).",
                ko: "참고: 이번 실행에서는 명령줄 플래그가 정합니다: \(now)"))
        case .user, .device, .default:
            return nil
        }
    }

    /// The one line said on standard error when a secret is given as a command-line argument.
    static func warnVisibleSecret(_ key: SettingKey, _ context: CommandContext) {
        let text = context.text(LocalizedText(
            en: "warning: a value on the command line is visible to other users in `ps` and kept in your shell history; "
                + "use `moa settings set \(key.name) --value-stdin` instead.",
            ko: "경고: 명령줄의 값은 다른 사용자가 `ps`로 볼 수 있고 셸 기록에도 남습니다. "
                + "`moa settings set \(key.name) --value-stdin`을 쓰세요."))
        context.err.write(context.errorTheme.paint(text, .warning) + "\n")
    }

    static func printJSON(_ outcome: SettingsViewModel.Outcome, _ context: CommandContext) throws {
        switch outcome {
        case .listed(let report):
            try context.printJSON(report.entries.map(SettingJSON.init))
        case .shown(let setting), .changed(let setting), .reset(let setting, _):
            try context.printJSON(SettingJSON(setting.entry))
        case .stored(let scope, let count), .resetAll(let scope, let count):
            try context.printJSON(ResetAllJSON(reset: count, scope: scope.isDevice ? "device" : "user"))
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

struct ResetAllJSON: Encodable {
    let reset: Int
    let scope: String
}

/// The command's own refusals.
enum SettingsCommandError: Error, LocalizedUserFacingError, Equatable {
    case confirmationNeeded
    /// Nothing (or an empty line) was read for a secret, from standard input or the prompt.
    case noSecretGiven(SettingKey, from: SecretInput.Source)
    /// `--value-stdin` and a VALUE.
    case valueTwice
    /// `--value-stdin` for a setting that is not a secret.
    case valueStdinNotSecret(SettingKey)

    var message: String { localizedMessage.en }

    var localizedMessage: LocalizedText {
        switch self {
        case .confirmationNeeded:
            LocalizedText(en: "Resetting every setting needs a confirmation: run it on a terminal, or add --yes.",
                          ko: "모든 설정을 초기화하려면 확인이 필요합니다: 터미널에서 실행하거나 --yes를 붙이세요.")
        case .noSecretGiven(let key, .standardInput):
            LocalizedText(en: "No value for \(key.name) was read from standard input: pipe it in as one line, e.g. `moa settings set \(key.name) --value-stdin < key.txt`.",
                          ko: "표준 입력에서 \(key.name) 값을 읽지 못했습니다: 한 줄로 넘기세요(예: `moa settings set \(key.name) --value-stdin < key.txt`).")
        case .noSecretGiven(let key, .prompt):
            LocalizedText(en: "No value for \(key.name) was entered.", ko: "\(key.name) 값을 입력하지 않았습니다.")
        case .valueTwice:
            LocalizedText(en: "Give the value either as VALUE or with --value-stdin, not both.",
                          ko: "값은 VALUE 인자나 --value-stdin 중 하나로만 주세요.")
        case .valueStdinNotSecret(let key):
            LocalizedText(en: "--value-stdin is only for secret settings (\(SettingsHelp.secretNames)): give \(key.name) as VALUE.",
                          ko: "--value-stdin은 비밀 설정(\(SettingsHelp.secretNames))에만 쓸 수 있습니다: \(key.name) 값은 VALUE 인자로 주세요.")
        }
    }

    var exitStatus: ExitStatus { .usage }
}

/// Reads a secret setting's value without it ever being on the command line: typed without echo at
/// a prompt on the terminal, or the first line of standard input (`--value-stdin`).
public struct SecretValueInput: Sendable {
    private let line: @Sendable (String, SecretInput.Source, CommandContext) throws -> String?

    /// - Parameter line: reads one line from `source` after showing the prompt (if it is one);
    ///   `nil` when nothing was read.
    public init(_ line: @escaping @Sendable (_ prompt: String, _ source: SecretInput.Source, _ context: CommandContext) throws -> String?) {
        self.line = line
    }

    /// The value of `key`; an empty line or nothing at all is ``SettingsCommandError/noSecretGiven(_:from:)``.
    func read(_ key: SettingKey, from source: SecretInput.Source, context: CommandContext) throws -> String {
        guard let value = try line("\(key.name): ", source, context), !value.isEmpty else {
            throw SettingsCommandError.noSecretGiven(key, from: source)
        }
        return value
    }

    /// The process's terminal and standard input, through CommandKit's ``SecretInput`` (as `moa auth
    /// login --password-stdin` reads). Its refusals name passwords, so they become Settings' own.
    public static let terminal = SecretValueInput { prompt, source, context in
        do {
            return try SecretInput.read(prompt, from: source, context: context)
        } catch {
            return nil
        }
    }

    /// Answers the given lines in turn, then nothing (tests, scripts); the sources asked are recorded
    /// by `asked`, when given.
    public static func lines(_ lines: [String], asked: (@Sendable (SecretInput.Source) -> Void)? = nil) -> SecretValueInput {
        let remaining = Mutex(lines)
        return SecretValueInput { _, source, _ in
            asked?(source)
            return remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }
}

/// Asks a yes/no question; `false` unless the answer is yes.
public struct ConfirmationPrompt: Sendable {
    private let answer: @Sendable (String, CommandContext) -> Bool

    public init(_ answer: @escaping @Sendable (String, CommandContext) -> Bool) {
        self.answer = answer
    }

    func ask(_ question: String, _ context: CommandContext) -> Bool { answer(question, context) }

    /// Writes the question to standard error and reads the answer from standard input: `y`/`yes`
    /// (or 예/네) confirms; anything else, or end of input, declines.
    public static let terminal = ConfirmationPrompt { question, context in
        context.err.write(question + " ")
        guard let line = readLine(strippingNewline: true) else { return false }
        return ["y", "yes", "예", "네", "ㅇ"].contains(line.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Always answers `answer` (tests, scripts).
    public static func always(_ answer: Bool) -> ConfirmationPrompt {
        ConfirmationPrompt { _, _ in answer }
    }
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
        let confirmation = confirmation, secretInput = secretInput
        return [
            .singleton(SettingsCommandsKey.self, requires: SettingsManagerKey.self) { manager in
                FeatureCommands(SettingsCommand.self, environment: SettingsEnvironment(manager: manager, confirmation: confirmation,
                                                                                       secretInput: secretInput))
            },
        ]
    }
}
