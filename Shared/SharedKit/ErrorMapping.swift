/// The one mapping from an error to what the person reads and the exit status, by the error's type
/// (never by the command that met it). View models (through `ReportingViewModel`), `CommandRunner`
/// and the tour all report errors through it.
///
/// An error type says what it is by conforming to ``UserFacingError``: its sentence and its status
/// come with the type (`ExitStatus` documents what each status means). `MoneyError` conforms in
/// ViewModelKit, where Money and SharedKit meet (bad data, 65); CommandKit makes ArgumentParser's
/// errors its own `CommandLineError` (a usage error, 64). Anything else is a bug nobody anticipated:
/// an ``UnexpectedError``, 70.
public enum ErrorMapping {
    /// `error` as a person reads it; `unexpectedSentence` starts the message of an unexpected one.
    public static func userFacing(_ error: any Error, unexpectedSentence: String) -> any UserFacingError {
        switch error {
        case let error as any UserFacingError: error
        default: UnexpectedError(sentence: unexpectedSentence, reason: String(describing: error))
        }
    }
}

/// An error no use case anticipated (a bug, or the database or file system failing under us), as the
/// one sentence a screen shows: "<the feature's sentence>: <what went wrong>." with exit status 70.
///
/// Every view model turns errors into state the same way (`ReportingViewModel`): the typed ones
/// pass through as they are, anything else becomes this. A feature supplies only its sentence.
public struct UnexpectedError: UserFacingError, Equatable {
    /// "<sentence>: <reason>."
    public let message: String
    public var exitStatus: ExitStatus { .software }

    /// `sentence`: the feature's, e.g. "The transfer failed unexpectedly"; `reason`: what went wrong,
    /// as the underlying error describes itself (on one line, without its own final full stop).
    public init(sentence: String, reason: String) {
        var reason = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        while reason.last == "." || reason.last?.isWhitespace == true { reason.removeLast() }
        message = "\(sentence): \(reason)."
    }

    /// `error` as ``ErrorMapping`` maps it; `sentence` starts the message of an unexpected one.
    public static func wrap(_ error: any Error, sentence: String) -> any UserFacingError {
        ErrorMapping.userFacing(error, unexpectedSentence: sentence)
    }
}
