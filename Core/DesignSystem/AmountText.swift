import Money

/// An amount of money as the user sees it.
///
/// As a ``Kind/change`` (a transaction, the default): a credit (positive) is `+10,000 KRW` in the
/// ``ColorToken/credit`` colour (green); a debit (negative) is `-12.50 USD` in the default colour,
/// with the ASCII hyphen-minus `-` (not `−`), so the text copies and pastes back into `moa` and
/// matches `Money.formatted()`; zero is `0 KRW`, plain.
/// As a ``Kind/balance``: no `+` and no colour.
public struct AmountText: Sendable {
    /// What the amount is: a change to a balance, or a balance.
    public enum Kind: Sendable, Equatable {
        /// A transaction: signed and coloured.
        case change
        /// A balance or a total: plain.
        case balance
    }

    public var money: Money
    public var kind: Kind
    /// Whether the currency code follows the amount ("10,000 KRW" or "10,000").
    public var showsCurrency: Bool

    public init(_ money: Money, kind: Kind = .change, showsCurrency: Bool = true) {
        self.money = money
        self.kind = kind
        self.showsCurrency = showsCurrency
    }

    /// The text without colour: "+10,000 KRW", "-12.50 USD", "0 KRW".
    public var plainText: String {
        let amount = showsCurrency ? money.formatted() : money.formattedAmount()
        return kind == .change && money.isPositive ? "+" + amount : amount
    }

    /// The amount, coloured when the theme has colour on.
    public func render(theme: Theme = .plain) -> String {
        guard kind == .change else { return plainText }
        if money.isPositive { return theme.paint(plainText, .credit) }
        if money.isNegative { return theme.paint(plainText, .debit) }
        return plainText
    }
}
