import Foundation
import Money
import SettingsInterface
import SharedKit

/// Every setting Moa knows, in the order `moa settings list` shows them.
public enum SettingKey: String, Sendable, CaseIterable, Codable {
    case displayLanguage = "display.language"
    case displayColor = "display.color"
    case displayPageSize = "display.page-size"
    case accountDefault = "account.default"
    case transferPerTransferLimit = "transfer.per-transfer-limit"
    case transferDailyLimit = "transfer.daily-limit"
    case notificationsLargeTransfer = "notifications.large-transfer"
    case searchAPIBaseURL = "search.api-base-url"
    case searchAPIToken = "search.api-token"
    case searchOAuthBaseURL = "search.oauth-base-url"
    case searchOAuthClientID = "search.oauth-client-id"
    case archiveAPIKey = "archive.api-key"

    /// The name people type: `display.page-size`.
    public var name: String { rawValue }

    /// The environment variable that overrides it: `MOA_` + the name upper-cased, `.` and `-` → `_`
    /// (`MOA_DISPLAY_PAGE_SIZE`).
    public var environmentVariable: String {
        "MOA_" + String(rawValue.uppercased().map { $0 == "." || $0 == "-" ? "_" : $0 })
    }

    /// Whether the value is a secret: shown masked, never in `--json`, never in a message.
    public var isSecret: Bool { self == .searchAPIToken || self == .archiveAPIKey }

    /// The secret keys, for messages ("only for search.api-token, archive.api-key").
    public static var secretKeys: [SettingKey] { allCases.filter(\.isSecret) }

    /// The key named `text` (surrounding blanks and case ignored), or ``SettingsError/unknownKey(_:suggestion:)``
    /// with the closest known key when one is close enough.
    public static func named(_ text: String) throws(SettingsError) -> SettingKey {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let key = SettingKey(rawValue: wanted) { return key }
        throw .unknownKey(text, suggestion: suggestion(for: wanted))
    }

    /// The known key closest to `text` by edit distance (transpositions count once), compared with
    /// the whole name and with its last part (`langauge` → `display.language`); `nil` when nothing
    /// is within a third of the length (at least 2 edits).
    static func suggestion(for text: String) -> SettingKey? {
        guard !text.isEmpty else { return nil }
        let scored = allCases.map { key -> (SettingKey, Int) in
            let last = key.rawValue.split(separator: ".").last.map(String.init) ?? key.rawValue
            return (key, min(EditDistance.between(text, key.rawValue), EditDistance.between(text, last)))
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, text.count / 3) ? best.0 : nil
    }

    // MARK: Values

    /// The default, or `nil` for "unset" (`account.default`, `search.api-token`, `archive.api-key`).
    public var defaultValue: SettingValue? {
        let defaults = SettingsSnapshot.defaults
        switch self {
        case .displayLanguage: return .language(defaults.language)
        case .displayColor: return .color(defaults.color)
        case .displayPageSize: return .integer(defaults.pageSize)
        case .accountDefault: return defaults.defaultAccount.map(SettingValue.accountNumber)
        case .transferPerTransferLimit: return .money(defaults.transferLimits.perTransfer)
        case .transferDailyLimit: return .money(defaults.transferLimits.daily)
        case .notificationsLargeTransfer: return .money(defaults.largeTransferThreshold)
        case .searchAPIBaseURL: return .url(defaults.searchAPI.baseURL)
        case .searchAPIToken: return defaults.searchAPI.token.map(SettingValue.secret)
        case .searchOAuthBaseURL: return .url(defaults.searchAPI.oauthBaseURL)
        case .searchOAuthClientID: return defaults.searchAPI.oauthClientID.map(SettingValue.identifier)
        case .archiveAPIKey: return defaults.archiveAPIKey.map(SettingValue.secret)
        }
    }

    /// The smallest and largest page size.
    public static let pageSizeRange = 1...200
    /// The length of an account number, dashes included.
    public static let accountNumberLength = 8...20
    /// The length of the search API token.
    public static let tokenLength = 1...512
    /// The length of an OAuth client id (GitHub's are 20 characters: `Iv1.` and hex, or `Ov23…`).
    public static let clientIDLength = 1...100
    /// The length of the Seoul Open Data API key (issued keys are about 40 characters).
    public static let apiKeyLength = 1...128
    /// The largest `transfer.per-transfer-limit` and `notifications.large-transfer`: what one transfer
    /// may move at most, 100,000,000,000 KRW (`AmountBounds`).
    public static let maximumPerTransferLimit = AmountBounds.maximumOperation(in: .krw)
    /// The largest `transfer.daily-limit`: ten transfers at their maximum, 1,000,000,000,000 KRW. With
    /// it, one sender needs a thousand days to fill an account to its maximum balance.
    public static let maximumDailyLimit = Money(minorUnits: 10 * AmountBounds.maximumOperationMinorUnits, currency: .krw)

    /// The largest amount an amount setting accepts (`nil` for the other settings).
    public var maximumAmount: Money? {
        switch self {
        case .transferPerTransferLimit, .notificationsLargeTransfer: Self.maximumPerTransferLimit
        case .transferDailyLimit: Self.maximumDailyLimit
        default: nil
        }
    }

    /// Parses what a person typed (or what is stored: the stored text parses back to the same value).
    ///
    /// Money accepts "5,000,000", "5000000" and "5,000,000 KRW" and is stored as minor units;
    /// a URL loses its trailing slash.
    /// - Throws: ``SettingValueRejected`` — the caller names the key, the value and where it came from.
    public func parse(_ text: String) throws(SettingValueRejected) -> SettingValue {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch self {
        case .displayLanguage:
            guard let language = AppLanguage(rawValue: trimmed.lowercased()) else { throw SettingValueRejected() }
            return .language(language)
        case .displayColor:
            guard let color = ColorPreference(rawValue: trimmed.lowercased()) else { throw SettingValueRejected() }
            return .color(color)
        case .displayPageSize:
            guard !trimmed.isEmpty, trimmed.count <= 6, trimmed.allSatisfy(\.isASCIIDigit),
                let size = Int(trimmed), Self.pageSizeRange.contains(size)
            else { throw SettingValueRejected() }
            return .integer(size)
        case .accountDefault:
            guard Self.accountNumberLength.contains(trimmed.count),
                trimmed.allSatisfy({ $0.isASCIIDigit || $0 == "-" }),
                trimmed.first?.isASCIIDigit == true, trimmed.last?.isASCIIDigit == true,
                !trimmed.contains("--")
            else { throw SettingValueRejected() }
            return .accountNumber(trimmed)
        case .transferPerTransferLimit, .transferDailyLimit, .notificationsLargeTransfer:
            guard let money = try? Money.parse(trimmed, currency: .krw), money.isPositive,
                let maximum = maximumAmount, money.minorUnits <= maximum.minorUnits
            else { throw SettingValueRejected() }
            return .money(money)
        case .searchAPIBaseURL, .searchOAuthBaseURL:
            return .url(try Self.parseURL(trimmed))
        case .searchOAuthClientID:
            guard Self.clientIDLength.contains(trimmed.count),
                trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") })
            else { throw SettingValueRejected() }
            return .identifier(trimmed)
        case .searchAPIToken:
            return .secret(try Self.parseSecret(trimmed, length: Self.tokenLength))
        case .archiveAPIKey:
            return .secret(try Self.parseSecret(trimmed, length: Self.apiKeyLength))
        }
    }

    /// A secret of `length` characters, none of them blank or a control character.
    private static func parseSecret(_ text: String, length: ClosedRange<Int>) throws(SettingValueRejected) -> String {
        guard length.contains(text.count),
            !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        else { throw SettingValueRejected() }
        return text
    }

    private static func parseURL(_ text: String) throws(SettingValueRejected) -> URL {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        guard !text.contains(where: \.isWhitespace),
            let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, // credentials belong in search.api-token
            components.query == nil, components.fragment == nil,
            let url = URL(string: text)
        else { throw SettingValueRejected() }
        return url
    }

    // MARK: Words for people

    /// What the setting is for, one line.
    public var summary: LocalizedText {
        switch self {
        case .displayLanguage:
            LocalizedText(en: "Language of moa's messages.", ko: "moa 메시지의 언어.")
        case .displayColor:
            LocalizedText(en: "When to colour the output.", ko: "출력에 색을 쓰는 때.")
        case .displayPageSize:
            LocalizedText(en: "Rows per page in listings.", ko: "목록 한 페이지의 행 수.")
        case .accountDefault:
            LocalizedText(en: "Account used when none is given.", ko: "계좌를 지정하지 않았을 때 쓰는 계좌.")
        case .transferPerTransferLimit:
            LocalizedText(en: "The most one KRW transfer may send.", ko: "원화 1회 이체 한도.")
        case .transferDailyLimit:
            LocalizedText(en: "The most all KRW transfers of a day may send.", ko: "원화 1일 이체 한도.")
        case .notificationsLargeTransfer:
            LocalizedText(en: "Transfers of at least this much leave a notice in your inbox.", ko: "이 금액 이상을 보내면 알림함에 알림을 남깁니다.")
        case .searchAPIBaseURL:
            LocalizedText(en: "GitHub-compatible API used by user search.", ko: "사용자 검색에 쓰는 GitHub 호환 API.")
        case .searchAPIToken:
            LocalizedText(en: "Token for the search API (secret).", ko: "검색 API 토큰 (비밀값).")
        case .searchOAuthBaseURL:
            LocalizedText(en: "OAuth host of `moa search login`.", ko: "`moa search login`의 OAuth 호스트.")
        case .searchOAuthClientID:
            LocalizedText(en: "Client id of the OAuth app `moa search login` uses.", ko: "`moa search login`이 쓰는 OAuth 앱의 클라이언트 ID.")
        case .archiveAPIKey:
            LocalizedText(
                en: "Seoul Open Data API key for `moa archive import --api` (secret).",
                ko: "`moa archive import --api`에 쓰는 서울 열린데이터광장 인증키 (비밀값).")
        }
    }

    /// What values are allowed, as the end of "… must be ___".
    public var allowed: LocalizedText {
        switch self {
        case .displayLanguage:
            LocalizedText(en: "one of en, ko", ko: "en, ko 중 하나")
        case .displayColor:
            LocalizedText(en: "one of auto, always, never", ko: "auto, always, never 중 하나")
        case .displayPageSize:
            LocalizedText(
                en: "a whole number from \(Self.pageSizeRange.lowerBound) to \(Self.pageSizeRange.upperBound)",
                ko: "\(Self.pageSizeRange.lowerBound)부터 \(Self.pageSizeRange.upperBound)까지의 정수")
        case .accountDefault:
            LocalizedText(
                en: "an account number of 8 to 20 digits and dashes, starting and ending with a digit",
                ko: "숫자와 대시로 된 8~20자의 계좌번호(숫자로 시작하고 끝남)")
        case .transferPerTransferLimit:
            LocalizedText(
                en:
                    "an amount of KRW above zero and at most \(Self.maximumPerTransferLimit.formattedAmount()), like 5,000,000 or 5,000,000 KRW",
                ko: "0보다 크고 \(Self.maximumPerTransferLimit.formattedAmount()) 이하인 원화 금액(예: 5,000,000 또는 5,000,000 KRW)")
        case .transferDailyLimit:
            LocalizedText(
                en:
                    "an amount of KRW above zero, at least the per-transfer limit and at most \(Self.maximumDailyLimit.formattedAmount()), like 10,000,000",
                ko: "0보다 크고 1회 이체 한도 이상, \(Self.maximumDailyLimit.formattedAmount()) 이하인 원화 금액(예: 10,000,000)")
        case .notificationsLargeTransfer:
            LocalizedText(
                en:
                    "an amount of KRW above zero and at most \(Self.maximumPerTransferLimit.formattedAmount()), like 1,000,000 or 1,000,000 KRW",
                ko: "0보다 크고 \(Self.maximumPerTransferLimit.formattedAmount()) 이하인 원화 금액(예: 1,000,000 또는 1,000,000 KRW)")
        case .searchAPIBaseURL:
            LocalizedText(
                en: "an http:// or https:// URL with a host and no credentials, like https://api.github.com",
                ko: "호스트가 있고 계정 정보가 없는 http:// 또는 https:// URL(예: https://api.github.com)")
        case .searchOAuthBaseURL:
            LocalizedText(
                en: "an http:// or https:// URL with a host and no credentials, like https://github.com",
                ko: "호스트가 있고 계정 정보가 없는 http:// 또는 https:// URL(예: https://github.com)")
        case .searchOAuthClientID:
            LocalizedText(
                en: "1 to 100 ASCII letters, digits, dots, dashes and underscores, like Iv1.0123456789abcdef",
                ko: "ASCII 영문자, 숫자, 점, 대시, 밑줄로 된 1~100자(예: Iv1.0123456789abcdef)")
        case .searchAPIToken:
            LocalizedText(en: "1 to 512 characters without spaces", ko: "공백 없는 1~512자")
        case .archiveAPIKey:
            LocalizedText(en: "1 to 128 characters without spaces", ko: "공백 없는 1~128자")
        }
    }

    /// What `moa settings set --help` says about the key, beyond ``allowed``.
    public var note: String? {
        switch self {
        case .accountDefault:
            "Only the format is checked here: that the account is yours is checked when it is used."
        case .searchOAuthClientID:
            "None is built in: register an OAuth app with the device flow enabled (GitHub: Settings → Developer settings → OAuth Apps) and give its client id."
        case .searchAPIToken, .archiveAPIKey:
            "Secret: masked, never in --json; give it with --value-stdin, or leave VALUE out to type it hidden."
        case .transferPerTransferLimit:
            "It binds transfers in KRW; every other currency has fixed limits, listed by `moa transfer send --help`."
        case .transferDailyLimit:
            "At least transfer.per-transfer-limit. It binds transfers in KRW; every other currency has fixed limits, listed by `moa transfer send --help`."
        case .notificationsLargeTransfer:
            "Only transfers in KRW are compared with it: Moa converts no currency."
        default:
            nil
        }
    }
}

/// A value that ``SettingKey/parse(_:)`` refused. Carries nothing: the caller knows the key, the
/// text and its origin, and a secret must not travel in an error.
public struct SettingValueRejected: Error, Equatable {
    public init() {}
}

/// A validated setting value.
public enum SettingValue: Sendable, Equatable {
    case language(AppLanguage)
    case color(ColorPreference)
    case integer(Int)
    case accountNumber(String)
    /// Always KRW.
    case money(Money)
    case url(URL)
    /// A name of ASCII letters, digits, `.`, `-` and `_` (an OAuth client id).
    case identifier(String)
    /// A secret: never shown in full.
    case secret(String)

    /// What SQLite stores: money as minor units ("5000000"); parses back to the same value.
    public var storageText: String {
        switch self {
        case .language(let language): language.rawValue
        case .color(let color): color.rawValue
        case .integer(let number): String(number)
        case .accountNumber(let number): number
        case .money(let money): String(money.minorUnits)
        case .url(let url): url.absoluteString
        case .identifier(let text): text
        case .secret(let secret): secret
        }
    }

    /// What people see: "5,000,000 KRW"; a secret as `***` plus at most its last 4 characters.
    public var displayText: String {
        switch self {
        case .money(let money): money.formatted()
        case .secret(let secret): Self.mask(secret)
        default: storageText
        }
    }

    /// `***` followed by the last 4 characters, only when the secret is long enough (12 or more)
    /// that 4 characters give nothing useful away; otherwise `***` alone.
    public static func mask(_ secret: String) -> String {
        secret.count >= 12 ? "***" + secret.suffix(4) : "***"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
