import SharedKit

/// An error no use case anticipated (a bug, or the database or file system failing under us), as the
/// one sentence a screen shows: "<the feature's sentence>: <what went wrong>." with exit status 70.
///
/// Every view model turns errors into state the same way (``ReportingViewModel``): the typed ones
/// pass through as they are, anything else becomes this. A feature supplies only its sentence.
public struct UnexpectedError: UserFacingError, Equatable {
    /// "<sentence>: <reason>."
    public let message: String
    public var exitStatus: ExitStatus { .software }

    /// `sentence`: the feature's, e.g. "The transfer failed unexpectedly"; `reason`: what went wrong,
    /// as the underlying error describes itself.
    public init(sentence: String, reason: String) {
        var reason = reason
        while reason.last == "." || reason.last?.isWhitespace == true { reason.removeLast() }
        message = "\(sentence): \(reason)."
    }

    /// `error` as ``ErrorMapping`` maps it; `sentence` starts the message of an unexpected one.
    public static func wrap(_ error: any Error, sentence: String) -> any UserFacingError {
        ErrorMapping.userFacing(error, unexpectedSentence: sentence)
    }
}

/// A view model whose errors all reach its state through one path: ``AsyncViewModel/handleError(_:)``
/// is implemented once, here. The view model says how it shows an error (usually: clear the outcome,
/// set the error) and the sentence an unexpected one starts with.
@MainActor
public protocol ReportingViewModel: AsyncViewModel {
    /// The sentence an unexpected error starts with, e.g. "The transfer failed unexpectedly".
    static var unexpectedErrorSentence: String { get }

    /// Shows `error` in the state; every error arrives here already user-facing.
    func show(_ error: any UserFacingError)
}

extension ReportingViewModel {
    public func handleError(_ error: any Error) {
        show(UnexpectedError.wrap(error, sentence: Self.unexpectedErrorSentence))
    }

    /// `error` as this view model would show it (for screens that catch errors outside `send`).
    public static func userFacing(_ error: any Error) -> any UserFacingError {
        UnexpectedError.wrap(error, sentence: unexpectedErrorSentence)
    }
}
