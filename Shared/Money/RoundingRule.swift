/// How `Money.scaled(by:over:rounding:)` rounds a result that falls between two minor units.
///
/// Named after the rounding modes of IEEE 754 / `java.math.RoundingMode`; "up" and "down"
/// are about magnitude, so negative amounts round symmetrically to positive ones.
public enum RoundingRule: Sendable, Hashable, CaseIterable {
    /// To the nearest minor unit; a tie goes to the even neighbour (banker's rounding). 2.5 → 2, 3.5 → 4, -2.5 → -2.
    case halfEven
    /// To the nearest minor unit; a tie goes away from zero. 2.5 → 3, -2.5 → -3.
    case halfUp
    /// Toward zero (truncation). 2.9 → 2, -2.9 → -2.
    case down
    /// Away from zero. 2.1 → 3, -2.1 → -3.
    case up
}
