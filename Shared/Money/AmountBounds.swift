/// The largest amounts Moa moves and keeps, the same number of minor units in every currency.
///
/// | bound | minor units | in KRW (0 digits) | in USD (2 digits) | in BHD (3 digits) |
/// | --- | --- | --- | --- | --- |
/// | one operation (a deposit, a withdrawal, a transfer) | 100,000,000,000 (10^11) | 100,000,000,000 KRW | 1,000,000,000.00 USD | 100,000,000.000 BHD |
/// | one account's balance | 1,000,000,000,000,000 (10^15) | 1,000,000,000,000,000 KRW | 10,000,000,000,000.00 USD | 1,000,000,000,000.000 BHD |
///
/// Why these numbers: a balance at its maximum plus one operation at its maximum is far below
/// `Int64.max` (about 9.2 × 10^18), so no sum that a posting computes can overflow; and 10^15 is below
/// 2^53, so every amount and balance is exact in any JSON reader, even one that reads numbers as
/// doubles. An amount above the per-operation maximum is bad data (exit status 65); a movement that
/// would take a balance above its maximum is refused by a business rule (exit status 1), and an account
/// at its maximum can still send and withdraw. The hidden cash accounts on the other side of deposits
/// and withdrawals have their own, much wider bound (see Account's ledger).
public enum AmountBounds {
    /// The most one deposit, withdrawal or transfer may move: 100,000,000,000 minor units.
    public static let maximumOperationMinorUnits: Int64 = 100_000_000_000
    /// The most one account may hold: 1,000,000,000,000,000 minor units.
    public static let maximumBalanceMinorUnits: Int64 = 1_000_000_000_000_000

    /// The most one operation may move in `currency`, e.g. 100,000,000,000 KRW or 1,000,000,000.00 USD.
    public static func maximumOperation(in currency: Currency) -> Money {
        Money(minorUnits: maximumOperationMinorUnits, currency: currency)
    }

    /// The most one account may hold in `currency`, e.g. 1,000,000,000,000,000 KRW.
    public static func maximumBalance(in currency: Currency) -> Money {
        Money(minorUnits: maximumBalanceMinorUnits, currency: currency)
    }

    /// Whether `amount` is more than zero and at most the per-operation maximum.
    public static func isWithinOperationBounds(_ amount: Money) -> Bool {
        amount.minorUnits > 0 && amount.minorUnits <= maximumOperationMinorUnits
    }

    /// Whether `balance` is from zero to the per-balance maximum.
    public static func isWithinBalanceBounds(_ balance: Money) -> Bool {
        balance.minorUnits >= 0 && balance.minorUnits <= maximumBalanceMinorUnits
    }
}
