import Money
import SharedKit

/// A ``MoneyError`` as a person reads it, so that SharedKit's one `ErrorMapping` maps it by its type
/// wherever it is met (a view model, a command, the tour): its own sentence, and 65 for what came from
/// outside (an amount, a currency code, a result too large); 70 for the two that only a bug can cause.
/// Money and SharedKit depend on nothing, so the conformance lives here, where the two meet.
extension MoneyError: UserFacingError {
    public var message: String { description }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownCurrency, .invalidAmount, .tooManyFractionDigits, .currencyMismatch, .overflow: .dataError
        case .divisionByZero, .invalidParts: .software
        }
    }
}
