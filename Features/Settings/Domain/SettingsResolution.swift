import Money
import SettingsInterface
import SharedKit

/// Where an effective value came from, highest precedence first.
public enum SettingSource: Sendable, Equatable {
    /// A command-line flag of this run (``SettingsOverrides``), e.g. `--no-color`.
    case flag
    /// An environment variable, e.g. `MOA_DISPLAY_PAGE_SIZE`.
    case environment(variable: String)
    /// Stored for the logged-in user.
    case user
    /// Stored for this device (what a user's unset keys fall back to).
    case device
    /// Nobody set it.
    case `default`

    /// The stable word of `--json` and of the table: `flag`, `env`, `user`, `device`, `default`.
    public var code: String {
        switch self {
        case .flag: "flag"
        case .environment: "env"
        case .user: "user"
        case .device: "device"
        case .default: "default"
        }
    }
}

/// One setting's effective value and where it came from.
public struct SettingEntry: Sendable, Equatable {
    public let key: SettingKey
    /// `nil`: unset (only keys without a default can be).
    public let value: SettingValue?
    public let source: SettingSource

    public init(key: SettingKey, value: SettingValue?, source: SettingSource) {
        self.key = key
        self.value = value
        self.source = source
    }

    public var defaultValue: SettingValue? { key.defaultValue }
}

/// A setting together with the scope it was read in.
public struct ScopedSetting: Sendable, Equatable {
    public let entry: SettingEntry
    public let scope: SettingsScope
}

/// Every setting of one scope, resolved, plus what the person should know about them.
public struct SettingsReport: Sendable, Equatable {
    public let scope: SettingsScope
    /// In ``SettingKey`` order.
    public let entries: [SettingEntry]
    /// Stored values that were ignored, limits that contradict each other.
    public let warnings: [LocalizedText]
    /// The typed view other features get.
    public let snapshot: SettingsSnapshot
}

/// Applies the layers — flag > environment > stored (user, then device) > default — to each key.
/// Pure: the stored values, the environment and the flags are given.
struct SettingsResolver: Sendable {
    let flags: [String: String]
    let environment: [String: String]

    /// Flags naming no known setting are a usage error (they come from the program, not a person,
    /// but saying so beats ignoring them).
    func checkFlags() throws(SettingsError) {
        for name in flags.keys.sorted() where SettingKey(rawValue: name) == nil {
            throw .unknownKey(name, suggestion: SettingKey.suggestion(for: name))
        }
    }

    /// One key. Invalid stored values are skipped (and reported in `warnings`): a database edited
    /// by hand must not lock anyone out of `moa settings reset`.
    func resolve(
        _ key: SettingKey, stored: StoredSettings, scope: SettingsScope,
        warnings: inout [LocalizedText]
    ) throws(SettingsError) -> SettingEntry {
        if let text = flags[key.name] {
            do { return SettingEntry(key: key, value: try key.parse(text), source: .flag) } catch {
                throw .invalidValue(key, value: text, origin: .flag)
            }
        }
        let variable = key.environmentVariable
        if let text = environment[variable], !text.isEmpty {
            do { return SettingEntry(key: key, value: try key.parse(text), source: .environment(variable: variable)) } catch {
                throw .invalidValue(key, value: text, origin: .environment(variable: variable))
            }
        }
        let layers: [(String?, SettingSource)] = [
            (stored.own[key.name], scope.isDevice ? .device : .user),
            (scope.isDevice ? nil : stored.fallback[key.name], .device),
        ]
        for case (let text?, let source) in layers {
            if let value = try? key.parse(text) { return SettingEntry(key: key, value: value, source: source) }
            warnings.append(
                LocalizedText(
                    en:
                        "The value stored for \(key.name) (\(source.code)) is not valid and is ignored; `moa settings reset \(key.name)` removes it.",
                    ko: "\(key.name)에 저장된 값(\(source.code))이 올바르지 않아 무시합니다. `moa settings reset \(key.name)`으로 지우세요."))
        }
        return SettingEntry(key: key, value: key.defaultValue, source: .default)
    }

    func report(stored: StoredSettings, scope: SettingsScope) throws(SettingsError) -> SettingsReport {
        try checkFlags()
        var warnings: [LocalizedText] = []
        var entries: [SettingEntry] = []
        for key in SettingKey.allCases {
            entries.append(try resolve(key, stored: stored, scope: scope, warnings: &warnings))
        }
        let snapshot = Self.snapshot(of: entries, warnings: &warnings)
        return SettingsReport(scope: scope, entries: entries, warnings: warnings, snapshot: snapshot)
    }

    /// The typed snapshot of resolved entries. If the layers leave the daily limit below the
    /// per-transfer limit (only possible through the environment, flags, or a device value changed
    /// under a user's), the per-transfer limit is held to the daily one — the stricter reading.
    static func snapshot(of entries: [SettingEntry], warnings: inout [LocalizedText]) -> SettingsSnapshot {
        var snapshot = SettingsSnapshot.defaults
        var perTransfer = snapshot.transferLimits.perTransfer
        var daily = snapshot.transferLimits.daily
        var baseURL = snapshot.searchAPI.baseURL
        var token = snapshot.searchAPI.token
        var oauthBaseURL = snapshot.searchAPI.oauthBaseURL
        var oauthClientID = snapshot.searchAPI.oauthClientID
        var perSource = SettingSource.default
        var dailySource = SettingSource.default
        for entry in entries {
            switch (entry.key, entry.value) {
            case (.displayLanguage, .language(let language)?): snapshot.language = language
            case (.displayColor, .color(let color)?): snapshot.color = color
            case (.displayPageSize, .integer(let size)?): snapshot.pageSize = size
            case (.accountDefault, .accountNumber(let number)?): snapshot.defaultAccount = number
            case (.accountDefault, nil): snapshot.defaultAccount = nil
            case (.transferPerTransferLimit, .money(let money)?): (perTransfer, perSource) = (money, entry.source)
            case (.transferDailyLimit, .money(let money)?): (daily, dailySource) = (money, entry.source)
            case (.notificationsLargeTransfer, .money(let money)?): snapshot.largeTransferThreshold = money
            case (.searchAPIBaseURL, .url(let url)?): baseURL = url
            case (.searchAPIToken, .secret(let secret)?): token = secret
            case (.searchAPIToken, nil): token = nil
            case (.searchOAuthBaseURL, .url(let url)?): oauthBaseURL = url
            case (.searchOAuthClientID, .identifier(let id)?): oauthClientID = id
            case (.searchOAuthClientID, nil): oauthClientID = nil
            case (.archiveAPIKey, .secret(let secret)?): snapshot.archiveAPIKey = secret
            case (.archiveAPIKey, nil): snapshot.archiveAPIKey = nil
            default: break
            }
        }
        if daily.minorUnits < perTransfer.minorUnits {
            warnings.append(
                LocalizedText(
                    en:
                        "transfer.per-transfer-limit (\(perTransfer.formatted()), \(perSource.code)) is above transfer.daily-limit (\(daily.formatted()), \(dailySource.code)): each transfer is held to \(daily.formatted()).",
                    ko:
                        "transfer.per-transfer-limit(\(perTransfer.formatted()), \(perSource.code))가 transfer.daily-limit(\(daily.formatted()), \(dailySource.code))보다 커서 1회 이체도 \(daily.formatted())까지만 허용합니다."
                ))
            perTransfer = daily
        }
        snapshot.transferLimits = TransferLimits(perTransfer: perTransfer, daily: daily)
        snapshot.searchAPI = SearchAPISettings(baseURL: baseURL, token: token, oauthBaseURL: oauthBaseURL, oauthClientID: oauthClientID)
        return snapshot
    }

    /// The stored-layer value of a limit in a scope (own, then device, then default), ignoring the
    /// environment and flags: a stored change is judged against what is stored.
    static func storedLimit(_ key: SettingKey, in stored: StoredSettings) -> Money {
        for text in [stored.own[key.name], stored.fallback[key.name]].compactMap({ $0 }) {
            if case .money(let money)? = try? key.parse(text) { return money }
        }
        if case .money(let money)? = key.defaultValue { return money }
        return Money.zero(.krw)
    }

    /// Refuses a stored change of a limit that would leave the daily limit below the per-transfer one.
    static func checkLimits(after stored: StoredSettings, changed: SettingKey, byReset: Bool) throws(SettingsError) {
        guard changed == .transferPerTransferLimit || changed == .transferDailyLimit else { return }
        let perTransfer = storedLimit(.transferPerTransferLimit, in: stored)
        let daily = storedLimit(.transferDailyLimit, in: stored)
        if daily.minorUnits < perTransfer.minorUnits {
            throw .limitsInverted(changed: changed, perTransfer: perTransfer, daily: daily, byReset: byReset)
        }
    }
}
