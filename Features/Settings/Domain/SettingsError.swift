import Money
import SharedKit

/// Where a value being validated came from: it decides the wording and the exit status.
public enum ValueOrigin: Sendable, Equatable {
    /// `moa settings set KEY VALUE`.
    case argument
    /// An environment variable such as `MOA_DISPLAY_PAGE_SIZE`.
    case environment(variable: String)
    /// A command-line flag of this run (``SettingsInterface/SettingsOverrides``).
    case flag
}

/// Settings' refusals, each naming the key, the value (never a secret's) and what is allowed.
public enum SettingsError: Error, LocalizedUserFacingError, Equatable {
    /// No such setting; the closest known one, if any is close.
    case unknownKey(String, suggestion: SettingKey?)
    /// The value is not allowed for the key.
    case invalidValue(SettingKey, value: String, origin: ValueOrigin)
    /// `set KEY` without a value.
    case missingValue(SettingKey)
    /// The change would put the daily limit below the per-transfer limit (values after the change).
    case limitsInverted(changed: SettingKey, perTransfer: Money, daily: Money, byReset: Bool)

    public var message: String { localizedMessage.en }

    public var localizedMessage: LocalizedText {
        switch self {
        case .unknownKey(let text, let suggestion):
            if let suggestion {
                return LocalizedText(
                    en: "Unknown setting “\(text)”. Did you mean \(suggestion.name)?",
                    ko: "알 수 없는 설정입니다: “\(text)”. 혹시 \(suggestion.name) 말인가요?")
            }
            return LocalizedText(en: "Unknown setting “\(text)”.", ko: "알 수 없는 설정입니다: “\(text)”.")

        case .invalidValue(let key, let value, let origin):
            let allowed = key.allowed
            let shown = key.isSecret ? nil : Self.echo(value)
            switch origin {
            case .argument:
                return LocalizedText(
                    en: "\(key.name) must be \(allowed.en)" + (shown.map { ", not “\($0)”." } ?? "; the value given is not shown."),
                    ko: "\(key.name)에는 \(allowed.ko)만 쓸 수 있습니다" + (shown.map { "(입력값: “\($0)”)." } ?? "(입력값은 표시하지 않습니다)."))
            case .environment(let variable):
                return LocalizedText(
                    en: "The environment variable \(variable) (\(key.name)) must be \(allowed.en)"
                        + (shown.map { ", not “\($0)”." } ?? "; its value is not shown."),
                    ko: "환경 변수 \(variable)(\(key.name))에는 \(allowed.ko)만 쓸 수 있습니다"
                        + (shown.map { "(값: “\($0)”)." } ?? "(값은 표시하지 않습니다)."))
            case .flag:
                return LocalizedText(
                    en: "The command-line value of \(key.name) must be \(allowed.en)" + (shown.map { ", not “\($0)”." } ?? "."),
                    ko: "명령줄로 준 \(key.name)에는 \(allowed.ko)만 쓸 수 있습니다" + (shown.map { "(값: “\($0)”)." } ?? "."))
            }

        case .missingValue(let key):
            return LocalizedText(
                en: "Give a value for \(key.name) (\(key.allowed.en)).",
                ko: "\(key.name) 값을 주세요(\(key.allowed.ko)).")

        case .limitsInverted(let changed, let perTransfer, let daily, let byReset):
            let per = perTransfer.formatted()
            let day = daily.formatted()
            switch (changed, byReset) {
            case (.transferPerTransferLimit, false):
                return LocalizedText(
                    en: "transfer.per-transfer-limit cannot be \(per): it must not exceed transfer.daily-limit, which is \(day).",
                    ko: "transfer.per-transfer-limit 값을 \(per)(으)로 할 수 없습니다: transfer.daily-limit 값(\(day))보다 클 수 없습니다.")
            case (.transferPerTransferLimit, true):
                return LocalizedText(
                    en: "Resetting transfer.per-transfer-limit to \(per) would put it above transfer.daily-limit, which is \(day).",
                    ko: "transfer.per-transfer-limit 값을 \(per)(으)로 되돌리면 transfer.daily-limit 값(\(day))보다 커집니다.")
            case (_, false):
                return LocalizedText(
                    en: "transfer.daily-limit cannot be \(day): it must be at least transfer.per-transfer-limit, which is \(per).",
                    ko: "transfer.daily-limit 값을 \(day)(으)로 할 수 없습니다: transfer.per-transfer-limit 값(\(per)) 이상이어야 합니다.")
            case (_, true):
                return LocalizedText(
                    en: "Resetting transfer.daily-limit to \(day) would put it below transfer.per-transfer-limit, which is \(per).",
                    ko: "transfer.daily-limit 값을 \(day)(으)로 되돌리면 transfer.per-transfer-limit 값(\(per))보다 작아집니다.")
            }
        }
    }

    public var hint: String? {
        switch self {
        case .unknownKey: "`moa settings list` shows every setting."
        case .invalidValue(_, _, .environment(let variable)): "Fix or unset \(variable)."
        case .invalidValue(let key, _, .argument) where key == .accountDefault:
            "To have no default account, run `moa settings reset account.default`."
        case .invalidValue, .missingValue: nil
        case .limitsInverted(.transferPerTransferLimit, _, _, _): "Raise transfer.daily-limit first."
        case .limitsInverted: "Lower transfer.per-transfer-limit first."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownKey, .missingValue: .usage
        case .invalidValue(_, _, .argument): .dataError
        case .invalidValue(_, _, .environment): .configuration
        case .invalidValue(_, _, .flag): .usage
        case .limitsInverted: .dataError
        }
    }
}

extension SettingsError {
    /// How a refused value is quoted back: the credentials of a URL (`https://user:pw@host`) hidden, and
    /// at most 60 characters, so an error never repeats a password or a page of pasted text.
    public static func echo(_ value: String) -> String {
        var shown = value.replacingOccurrences(
            of: #"^([A-Za-z][A-Za-z0-9+.\-]*://)[^/?#@]*@"#, with: "$1•••@", options: .regularExpression)
        if shown.count > 60 { shown = String(shown.prefix(59)) + "…" }
        return shown
    }
}
