/// An exact amount of money: a whole number of minor units (cents, won…) in one currency.
///
/// Never a floating-point number. Arithmetic is overflow-checked and refuses to mix currencies;
/// `==` is `false` across currencies, and ordering is only available through the throwing
/// `compare(_:)`, `isLess(than:)` and `isGreater(than:)`.
public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The amount in minor units: 1250 with USD is 12.50 USD; 10000 with KRW is 10,000 KRW.
    public let minorUnits: Int64
    /// The currency of the amount.
    public let currency: Currency

    /// An amount of `minorUnits` of `currency`.
    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Zero in `currency`.
    public static func zero(_ currency: Currency) -> Money {
        Money(minorUnits: 0, currency: currency)
    }

    /// Whether the amount is zero.
    public var isZero: Bool { minorUnits == 0 }
    /// Whether the amount is below zero.
    public var isNegative: Bool { minorUnits < 0 }
    /// Whether the amount is above zero.
    public var isPositive: Bool { minorUnits > 0 }

    /// The amount with its code, e.g. "10,000 KRW".
    public var description: String { formatted() }

    // MARK: Comparison

    /// The order of two amounts in the same currency.
    public enum Comparison: Sendable, Hashable {
        /// The receiver is smaller.
        case less
        /// Both are equal.
        case equal
        /// The receiver is greater.
        case greater
    }

    /// Compares with an amount in the same currency.
    /// - Throws: `MoneyError.currencyMismatch(self.currency, other.currency)`.
    public func compare(_ other: Money) throws(MoneyError) -> Comparison {
        try requireSameCurrency(other)
        if minorUnits < other.minorUnits { return .less }
        if minorUnits > other.minorUnits { return .greater }
        return .equal
    }

    /// Whether this amount is smaller than `other` (same currency only).
    public func isLess(than other: Money) throws(MoneyError) -> Bool {
        try compare(other) == .less
    }

    /// Whether this amount is greater than `other` (same currency only).
    public func isGreater(than other: Money) throws(MoneyError) -> Bool {
        try compare(other) == .greater
    }

    func requireSameCurrency(_ other: Money) throws(MoneyError) {
        guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
    }

    // MARK: Codable — {"minor_units": 1250, "currency": "USD"}

    private enum CodingKeys: String, CodingKey {
        case minorUnits = "minor_units"
        case currency
    }

    /// Decodes `{"minor_units": 1250, "currency": "USD"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        minorUnits = try container.decode(Int64.self, forKey: .minorUnits)
        currency = try container.decode(Currency.self, forKey: .currency)
    }

    /// Encodes as `{"minor_units": 1250, "currency": "USD"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(minorUnits, forKey: .minorUnits)
        try container.encode(currency, forKey: .currency)
    }
}
