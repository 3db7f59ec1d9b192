import Foundation
import Money
import Registry
import SharedKit

// What other features may use of Settings: typed, already-validated values and a change stream.
// Nothing here is looked up by a string: a feature reads `snapshot().transferLimits.perTransfer`.

/// When to colour the output (`display.color`).
public enum ColorPreference: String, Sendable, CaseIterable, Codable {
    /// Colour on a terminal that supports it, unless `NO_COLOR` is set.
    case auto
    /// Always colour (an explicit choice: it overrides `NO_COLOR`, not `--no-color`).
    case always
    /// Never colour.
    case never
}

/// How much money may leave the user's accounts, per currency (Moa converts nothing, so each currency
/// has its own limits).
///
/// - KRW: `perTransfer` and `daily`, the user's settings `transfer.per-transfer-limit` and
///   `transfer.daily-limit`. `daily` is never below `perTransfer`: Settings refuses a change that
///   would break that, and if layers given from outside (environment, flags) still break it,
///   `perTransfer` is lowered to `daily` (the stricter reading) and `moa settings list` warns.
/// - Every other supported currency: the fixed limits of ``TransferLimits/defaultLimits``, about
///   3,500 USD per transfer and twice that a day (`moa transfer send --help` lists them).
/// - A currency with no limits at all cannot be sent (``limits(in:)`` is `nil`; Transfer refuses).
public struct TransferLimits: Sendable, Equatable {
    /// The most one KRW transfer may send (`transfer.per-transfer-limit`).
    public let perTransfer: Money
    /// The most all KRW transfers of one calendar day may send together (`transfer.daily-limit`).
    public let daily: Money
    /// The limits of the currencies other than `perTransfer`'s, by currency.
    public let others: [Currency: CurrencyLimits]

    /// - Parameter others: the limits of the other currencies (those of `perTransfer`'s currency in it
    ///   are ignored); by default ``defaultLimits``.
    public init(perTransfer: Money, daily: Money, others: [Currency: CurrencyLimits] = TransferLimits.defaultLimits) {
        self.perTransfer = perTransfer
        self.daily = daily
        self.others = others
    }

    /// The limits that bind transfers in `currency`; `nil` when it has none (then nothing may be sent in it).
    public func limits(in currency: Currency) -> CurrencyLimits? {
        if currency == perTransfer.currency, currency == daily.currency {
            return CurrencyLimits(perTransfer: perTransfer, daily: daily)
        }
        return others[currency]
    }

    /// The currency whose limits the user sets (`transfer.per-transfer-limit`, `transfer.daily-limit`): KRW.
    public static let configurableCurrency = Currency.krw

    /// The fixed limits of every supported currency but KRW: round amounts near 3,500 USD per transfer
    /// (5,000,000 KRW, KRW's default, at about 1,400 KRW a dollar) and twice that a day.
    public static let defaultLimits: [Currency: CurrencyLimits] = {
        // Per transfer, in whole units of the currency; the daily limit is twice it.
        let perTransfer: [String: Int64] = [
            "AED": 13_000, "AUD": 5_500, "BHD": 1_300, "BRL": 20_000, "CAD": 5_000, "CHF": 3_000, "CLP": 3_300_000,
            "CNY": 25_000, "CZK": 80_000, "DKK": 25_000, "EUR": 3_500, "GBP": 3_000, "HKD": 27_000, "HUF": 1_300_000,
            "IDR": 55_000_000, "ILS": 13_000, "INR": 300_000, "ISK": 500_000, "JOD": 2_500, "JPY": 500_000, "KWD": 1_000,
            "MXN": 60_000, "MYR": 16_000, "NOK": 37_000, "NZD": 6_000, "OMR": 1_300, "PHP": 200_000, "PLN": 14_000,
            "SAR": 13_000, "SEK": 37_000, "SGD": 5_000, "THB": 120_000, "TND": 11_000, "TRY": 110_000, "TWD": 110_000,
            "USD": 3_500, "VND": 88_000_000, "ZAR": 65_000,
        ]
        var limits: [Currency: CurrencyLimits] = [:]
        for currency in Currency.supported where currency != configurableCurrency {
            guard let units = perTransfer[currency.code] else { continue }
            var scale: Int64 = 1
            for _ in 0..<currency.minorUnitDigits { scale *= 10 }
            limits[currency] = CurrencyLimits(
                perTransfer: Money(minorUnits: units * scale, currency: currency),
                daily: Money(minorUnits: 2 * units * scale, currency: currency))
        }
        return limits
    }()
}

/// The transfer limits of one currency.
public struct CurrencyLimits: Sendable, Equatable {
    /// The most one transfer may send.
    public let perTransfer: Money
    /// The most all transfers of one calendar day may send together.
    public let daily: Money

    public init(perTransfer: Money, daily: Money) {
        self.perTransfer = perTransfer
        self.daily = daily
    }
}

/// Where the user search talks to (`search.api-base-url`, `search.api-token`), and where its
/// GitHub login goes (`search.oauth-base-url`, `search.oauth-client-id`).
///
/// The token is a secret: `description` and `debugDescription` mask it, so interpolating this
/// value into a log line or an error never leaks it.
public struct SearchAPISettings: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A GitHub-compatible API root, e.g. `https://api.github.com` (no trailing slash).
    public let baseURL: URL
    /// The bearer token, if the user set one. Secret.
    public let token: String?
    /// The OAuth host of `moa search login`, e.g. `https://github.com` (no trailing slash).
    public let oauthBaseURL: URL
    /// The client id of the OAuth app `moa search login` logs in through; none is built in.
    public let oauthClientID: String?

    public init(
        baseURL: URL, token: String?, oauthBaseURL: URL = SettingsSnapshot.defaultOAuthBaseURL, oauthClientID: String? = nil
    ) {
        self.baseURL = baseURL
        self.token = token
        self.oauthBaseURL = oauthBaseURL
        self.oauthClientID = oauthClientID
    }

    public var description: String {
        "SearchAPISettings(baseURL: \(baseURL.absoluteString), token: \(token == nil ? "unset" : "set, hidden"), "
            + "oauthBaseURL: \(oauthBaseURL.absoluteString), oauthClientID: \(oauthClientID ?? "unset"))"
    }

    public var debugDescription: String { description }
}

/// The effective settings of the current user: every layer (flag > environment > stored > default)
/// already applied and validated.
///
/// It holds secrets (`searchAPI.token`, `archiveAPIKey`): `description` and `debugDescription` mask
/// them, so interpolating a snapshot into a log line or an error never leaks one.
public struct SettingsSnapshot: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// `display.language`: the language of user-facing strings.
    public var language: AppLanguage
    /// `display.color`.
    public var color: ColorPreference
    /// `display.page-size`: rows per page in listings, 1…200.
    public var pageSize: Int
    /// `account.default`: the account number to use when none is given. Only its format was
    /// checked (8–20 digits and dashes): the Account feature must still check that it exists and
    /// belongs to the user.
    public var defaultAccount: String?
    /// `transfer.per-transfer-limit` and `transfer.daily-limit`.
    public var transferLimits: TransferLimits
    /// `search.api-base-url` and `search.api-token`.
    public var searchAPI: SearchAPISettings
    /// `notifications.large-transfer`: a transfer of at least this much (always KRW, above zero)
    /// puts a "large transfer sent" notice in the sender's inbox. Transfers in another currency are
    /// never compared with it (Moa converts nothing).
    public var largeTransferThreshold: Money
    /// `archive.api-key`: the user's Seoul Open Data API key (`moa archive import --api`), if set.
    /// Secret: never put it in a message, a log line or `--json`.
    public var archiveAPIKey: String?

    public init(
        language: AppLanguage, color: ColorPreference, pageSize: Int, defaultAccount: String?,
        transferLimits: TransferLimits, searchAPI: SearchAPISettings,
        largeTransferThreshold: Money = SettingsSnapshot.defaultLargeTransferThreshold,
        archiveAPIKey: String? = nil
    ) {
        self.language = language
        self.color = color
        self.pageSize = pageSize
        self.defaultAccount = defaultAccount
        self.transferLimits = transferLimits
        self.searchAPI = searchAPI
        self.largeTransferThreshold = largeTransferThreshold
        self.archiveAPIKey = archiveAPIKey
    }

    public var description: String {
        "SettingsSnapshot(language: \(language.rawValue), color: \(color.rawValue), pageSize: \(pageSize), "
            + "defaultAccount: \(defaultAccount ?? "unset"), transferLimits: \(transferLimits.perTransfer.formatted()) per transfer, "
            + "\(transferLimits.daily.formatted()) a day, searchAPI: \(searchAPI), largeTransferThreshold: \(largeTransferThreshold.formatted()), "
            + "archiveAPIKey: \(archiveAPIKey == nil ? "unset" : "set, hidden"))"
    }

    public var debugDescription: String { description }

    /// 1,000,000 KRW: the default of `notifications.large-transfer`.
    public static let defaultLargeTransferThreshold = Money(minorUnits: 1_000_000, currency: .krw)

    /// Every setting at its default: en, auto, 20 rows, no default account, 5,000,000 KRW per
    /// transfer and 10,000,000 KRW a day, `https://api.github.com` without a token, a notice for
    /// transfers of 1,000,000 KRW or more, no archive API key.
    public static let defaults = SettingsSnapshot(
        language: .en,
        color: .auto,
        pageSize: 20,
        defaultAccount: nil,
        transferLimits: TransferLimits(
            perTransfer: Money(minorUnits: 5_000_000, currency: .krw),
            daily: Money(minorUnits: 10_000_000, currency: .krw)),
        searchAPI: SearchAPISettings(baseURL: defaultSearchBaseURL, token: nil),
        largeTransferThreshold: defaultLargeTransferThreshold,
        archiveAPIKey: nil
    )

    /// `https://api.github.com`. (The literal is valid; the fallback only satisfies the optional.)
    public static let defaultSearchBaseURL: URL = URL(string: "https://api.github.com") ?? URL(fileURLWithPath: "/")

    /// `https://github.com`: the OAuth host of `moa search login`.
    public static let defaultOAuthBaseURL: URL = URL(string: "https://github.com") ?? URL(fileURLWithPath: "/")
}

/// Reads the user's settings. Provided by Settings; other features require `SettingsReaderKey`.
public protocol SettingsReader: Sendable {
    /// The effective settings of the current user (device-level before login), all layers applied.
    func snapshot() async throws -> SettingsSnapshot
    /// Every change made through this process (set/reset), as new snapshots.
    func changes() -> AsyncStream<SettingsSnapshot>
}

public enum SettingsReaderKey: ServiceKey {
    public typealias Service = any SettingsReader
}

/// Values given on the command line this run (highest precedence), keyed by setting name, e.g.
/// `--no-color` → `["display.color": "never"]`. Validated like any other value.
public struct SettingsOverrides: Sendable, Equatable {
    public var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// These values, with `other`'s taking precedence.
    public func merging(_ other: SettingsOverrides) -> SettingsOverrides {
        SettingsOverrides(values.merging(other.values) { _, new in new })
    }
}

/// The command-line overrides of this run. Meant to be provided by the App from the global options
/// (`SettingsOverrides(global:)` in SettingsFeature); until it does, `SettingsDataModule()` provides
/// an empty one.
public enum SettingsOverridesKey: ServiceKey {
    public typealias Service = SettingsOverrides
    public static var expectedProvider: String { "App" }
}
