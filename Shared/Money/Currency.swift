/// An ISO 4217 currency: its code and how many decimal places its minor unit has.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The upper-case ISO 4217 code, e.g. "KRW".
    public let code: String
    /// Decimal places of the minor unit: 0 for KRW and JPY, 2 for USD, 3 for BHD.
    public let minorUnitDigits: Int

    private init(known code: String, minorUnitDigits: Int) {
        self.code = code
        self.minorUnitDigits = minorUnitDigits
    }

    /// Looks up a supported currency by code, ignoring case and surrounding whitespace.
    /// - Throws: `MoneyError.unknownCurrency` when the code is not in the table.
    public init(code: String) throws(MoneyError) {
        let trimmed = trimmingWhitespace(code)
        let key = trimmed.uppercased()
        guard let digits = Currency.minorUnitTable[key] else {
            throw .unknownCurrency(trimmed)
        }
        self.init(known: key, minorUnitDigits: digits)
    }

    /// South Korean won (0 decimal places).
    public static let krw = Currency(known: "KRW", minorUnitDigits: 0)
    /// US dollar (2 decimal places).
    public static let usd = Currency(known: "USD", minorUnitDigits: 2)
    /// Euro (2 decimal places).
    public static let eur = Currency(known: "EUR", minorUnitDigits: 2)
    /// Japanese yen (0 decimal places).
    public static let jpy = Currency(known: "JPY", minorUnitDigits: 0)

    /// Every supported currency, sorted by code.
    public static let supported: [Currency] =
        minorUnitTable
        .map { Currency(known: $0.key, minorUnitDigits: $0.value) }
        .sorted { $0.code < $1.code }

    /// ISO 4217 minor-unit digits of the supported currencies.
    private static let minorUnitTable: [String: Int] = [
        "AED": 2, "AUD": 2, "BHD": 3, "BRL": 2, "CAD": 2, "CHF": 2, "CLP": 0, "CNY": 2,
        "CZK": 2, "DKK": 2, "EUR": 2, "GBP": 2, "HKD": 2, "HUF": 2, "IDR": 2, "ILS": 2,
        "INR": 2, "ISK": 0, "JOD": 3, "JPY": 0, "KRW": 0, "KWD": 3, "MXN": 2, "MYR": 2,
        "NOK": 2, "NZD": 2, "OMR": 3, "PHP": 2, "PLN": 2, "SAR": 2, "SEK": 2, "SGD": 2,
        "THB": 2, "TND": 3, "TRY": 2, "TWD": 2, "USD": 2, "VND": 0, "ZAR": 2,
    ]

    /// The code, e.g. "KRW".
    public var description: String { code }

    /// Decodes from the plain code string, e.g. `"KRW"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(code: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes as the plain code string, e.g. `"KRW"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

/// The text without leading and trailing whitespace.
func trimmingWhitespace<S: StringProtocol>(_ text: S) -> String {
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
        let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(text[first...last])
}
