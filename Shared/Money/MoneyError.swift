/// Why a money operation failed. Every case reads as one English sentence through `description`.
public enum MoneyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not a supported ISO 4217 currency code.
    case unknownCurrency(String)
    /// The text is not a well-formed amount.
    case invalidAmount(String)
    /// The amount has more decimal places than its currency allows (it is never rounded).
    case tooManyFractionDigits(String, allowed: Int)
    /// Two amounts (or an amount and the expected currency) are in different currencies: expected, actual.
    case currencyMismatch(Currency, Currency)
    /// The result does not fit in 64-bit minor units.
    case overflow
    /// A scaling denominator was zero.
    case divisionByZero
    /// A split was asked for fewer than one part.
    case invalidParts(Int)

    /// One clear English sentence naming the offending value.
    public var description: String {
        switch self {
        case .unknownCurrency(let code):
            if code.isEmpty { return "No currency code was given." }
            return "“\(code)” is not a supported currency code."
        case .invalidAmount(let text):
            if text.isEmpty { return "No amount was given." }
            return
                "“\(text)” is not a valid amount; write digits with an optional sign, commas between groups of three and a decimal point, like 1,234.50."
        case .tooManyFractionDigits(let text, let allowed):
            switch allowed {
            case 0: return "“\(text)” has decimal places, which this currency does not allow."
            case 1: return "“\(text)” has more than 1 decimal place, which this currency does not allow."
            default: return "“\(text)” has more than \(allowed) decimal places, which this currency does not allow."
            }
        case .currencyMismatch(let expected, let actual):
            return "Expected an amount in \(expected.code) but got one in \(actual.code)."
        case .overflow:
            return "The amount is too large to be represented."
        case .divisionByZero:
            return "An amount cannot be divided by zero."
        case .invalidParts(let parts):
            return "An amount cannot be split into \(parts) parts; the number of parts must be at least 1."
        }
    }
}
