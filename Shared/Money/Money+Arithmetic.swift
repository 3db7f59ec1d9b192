extension Money {
    /// The sum of two amounts in the same currency.
    /// - Throws: `.currencyMismatch`, or `.overflow` past the `Int64` range.
    public func adding(_ other: Money) throws(MoneyError) -> Money {
        try requireSameCurrency(other)
        let (result, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: result, currency: currency)
    }

    /// This amount minus `other` (same currency).
    /// - Throws: `.currencyMismatch`, or `.overflow` past the `Int64` range.
    public func subtracting(_ other: Money) throws(MoneyError) -> Money {
        try requireSameCurrency(other)
        let (result, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: result, currency: currency)
    }

    /// The amount with the opposite sign.
    /// - Throws: `.overflow` for `Int64.min` minor units.
    public func negated() throws(MoneyError) -> Money {
        let (result, overflow) = Int64(0).subtractingReportingOverflow(minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: result, currency: currency)
    }

    /// The amount times a whole factor.
    /// - Throws: `.overflow` past the `Int64` range.
    public func multiplied(by factor: Int64) throws(MoneyError) -> Money {
        let (result, overflow) = minorUnits.multipliedReportingOverflow(by: factor)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: result, currency: currency)
    }

    /// Multiplies by numerator/denominator with an explicit rounding rule (for fees, interest, shares).
    ///
    /// The product is computed exactly in 128 bits, then divided once and rounded to a whole minor unit.
    /// - Throws: `.divisionByZero` when `denominator` is 0, `.overflow` when the result leaves the `Int64` range.
    public func scaled(by numerator: Int64, over denominator: Int64, rounding: RoundingRule = .halfEven) throws(MoneyError) -> Money {
        guard denominator != 0 else { throw .divisionByZero }
        // |minorUnits × numerator| ≤ 2^126, so the product cannot overflow Int128.
        let product = Int128(minorUnits) * Int128(numerator)
        let divisor = Int128(denominator)
        let quotient = product / divisor // truncated toward zero
        let remainder = product % divisor
        var rounded = quotient
        if remainder != 0 {
            let awayFromZero: Int128 = (product < 0) != (divisor < 0) ? quotient - 1 : quotient + 1
            let twiceRemainder = remainder.magnitude * 2 // ≤ 2^64: fits
            let divisorMagnitude = divisor.magnitude
            switch rounding {
            case .down:
                break
            case .up:
                rounded = awayFromZero
            case .halfUp:
                if twiceRemainder >= divisorMagnitude { rounded = awayFromZero }
            case .halfEven:
                if twiceRemainder > divisorMagnitude || (twiceRemainder == divisorMagnitude && quotient % 2 != 0) {
                    rounded = awayFromZero
                }
            }
        }
        guard let result = Int64(exactly: rounded) else { throw .overflow }
        return Money(minorUnits: result, currency: currency)
    }

    /// Splits into `parts` amounts that sum exactly to self.
    ///
    /// Every part gets the truncated share; the remainder is spread one minor unit at a time over the
    /// first parts (for a negative amount, one minor unit more negative each):
    /// 100 into 3 → [34, 33, 33]; -100 into 3 → [-34, -33, -33].
    /// - Throws: `.invalidParts` when `parts` is less than 1.
    public func split(into parts: Int) throws(MoneyError) -> [Money] {
        guard parts >= 1 else { throw .invalidParts(parts) }
        let count = Int64(parts)
        let share = minorUnits / count
        let remainder = minorUnits % count // same sign as minorUnits, |remainder| < count
        let step: Int64 = remainder < 0 ? -1 : 1
        let extraParts = Int(remainder.magnitude)
        return (0..<parts).map { index in
            Money(minorUnits: index < extraParts ? share + step : share, currency: currency)
        }
    }

    /// The total of `amounts`, all of which must be in `currency` (zero for an empty list).
    /// - Throws: `.currencyMismatch(currency, offending)` or `.overflow`.
    public static func sum(_ amounts: [Money], currency: Currency) throws(MoneyError) -> Money {
        var total = Money.zero(currency)
        for amount in amounts {
            total = try total.adding(amount)
        }
        return total
    }
}
