import Money
import SharedKit

/// The amount of one deposit, withdrawal or transfer, parsed once at the edge: more than zero and at
/// most ``AmountBounds/maximumOperationMinorUnits`` minor units of its currency (100,000,000,000 KRW,
/// 1,000,000,000.00 USD). Account's use cases and Transfer's build one from what a person typed, so
/// every command, the interactive mode and a batch file refuse the same text with the same sentence.
public struct OperationAmount: Sendable, Hashable {
    /// The amount, positive and within the per-operation maximum.
    public let money: Money

    /// Parses what a person typed, in the account's currency (see `Money.parse`: digits, optional comma
    /// groups and decimal places, an optional code of the same currency).
    /// - Throws: ``AmountError``: malformed text, zero or less, above the per-operation maximum.
    public init(parsing text: String, currency: Currency) throws(AmountError) {
        let money: Money
        do throws(MoneyError) {
            money = try Money.parse(text, currency: currency)
        } catch {
            guard error != .overflow else {
                throw .aboveMaximum(AmountError.shown(text), maximum: AmountBounds.maximumOperation(in: currency))
            }
            throw .malformed(error)
        }
        try self.init(money)
    }

    /// Checks an amount already in `Money`.
    /// - Throws: ``AmountError/notPositive(_:)`` or ``AmountError/aboveMaximum(_:maximum:)``.
    public init(_ money: Money) throws(AmountError) {
        guard money.isPositive else { throw .notPositive(money) }
        guard money.minorUnits <= AmountBounds.maximumOperationMinorUnits else {
            throw .aboveMaximum(money.formatted(), maximum: AmountBounds.maximumOperation(in: money.currency))
        }
        self.money = money
    }

    public var currency: Currency { money.currency }
}

/// Why an amount a person gave cannot be moved. Always bad data: exit status 65.
public enum AmountError: Error, UserFacingError, Equatable {
    /// Not an amount of the account's currency at all (`1e6`, `NaN`, `5,000원`, `100.5` KRW, empty): Money's reason.
    case malformed(MoneyError)
    /// Zero or less (`0`, `-5`).
    case notPositive(Money)
    /// More than one operation may move (as shown: the amount, or the text when it is too large to represent).
    case aboveMaximum(String, maximum: Money)

    public var message: String {
        switch self {
        case .malformed(let error): error.description
        case .notPositive(let amount): "Amounts are positive: \(amount.formatted()) is not more than zero."
        case .aboveMaximum(let shown, let maximum):
            "\(shown) is more than one deposit, withdrawal or transfer may move, which is at most \(maximum.formatted())."
        }
    }

    public var hint: String? {
        switch self {
        case .malformed: "Write an amount like 10,000 or 12.50, in the account's currency."
        case .notPositive: "Give the amount without a sign: the command says which way the money goes."
        case .aboveMaximum: "Split it into several operations."
        }
    }

    public var exitStatus: ExitStatus { .dataError }

    /// The text as a message quotes it: trimmed, and cut to 40 characters.
    static func shown(_ text: String) -> String {
        let trimmed = text.trimmingWhitespace
        return "“" + (trimmed.count > 40 ? String(trimmed.prefix(40)) + "…" : trimmed) + "”"
    }
}

extension String {
    /// Without leading and trailing whitespace.
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
