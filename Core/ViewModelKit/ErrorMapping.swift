import Money
import SharedKit

/// The one mapping from an error to what the person reads and the exit status, by the error's type
/// (never by the command that met it): a ``UserFacingError`` as it is; a ``MoneyError`` (an amount or a
/// currency someone typed or a file held) as bad data, 65; anything else as an ``UnexpectedError``, 70.
public enum ErrorMapping {
    public static func userFacing(_ error: any Error, unexpectedSentence: String) -> any UserFacingError {
        switch error {
        case let error as any UserFacingError: error
        case let error as MoneyError: MoneyInputError(error)
        default: UnexpectedError(sentence: unexpectedSentence, reason: String(describing: error))
        }
    }
}

/// A ``MoneyError`` as a person reads it: its own sentence, and 65 for what came from outside (an
/// amount, a currency code, a result too large); 70 for the two that only a bug can cause.
struct MoneyInputError: UserFacingError {
    let error: MoneyError

    init(_ error: MoneyError) { self.error = error }

    var message: String { error.description }

    var exitStatus: ExitStatus {
        switch error {
        case .unknownCurrency, .invalidAmount, .tooManyFractionDigits, .currencyMismatch, .overflow: .dataError
        case .divisionByZero, .invalidParts: .software
        }
    }
}
