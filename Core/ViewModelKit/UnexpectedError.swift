import SharedKit

/// A view model whose errors all reach its state through one path: ``AsyncViewModel/handleError(_:)``
/// is implemented once, here, through SharedKit's `ErrorMapping`: typed errors pass through as they
/// are, anything else becomes an `UnexpectedError` (exit status 70). The view model says how it shows
/// an error (usually: clear the outcome, set the error) and the sentence an unexpected one starts with.
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
