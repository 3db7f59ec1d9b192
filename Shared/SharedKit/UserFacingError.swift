/// An error that a person at the terminal reads.
///
/// The contract for every error that can reach the user:
/// - `message` is one clear sentence, in the user's terms, and never contains a secret;
/// - `hint`, when present, says what to do next;
/// - `exitStatus` is stable: scripts depend on it.
public protocol UserFacingError: Error, Sendable {
    var message: String { get }
    var hint: String? { get }
    var exitStatus: ExitStatus { get }
}

extension UserFacingError {
    public var hint: String? { nil }
}

/// An error with facts a script needs as values, not inside a sentence: `moa … --json` writes them
/// as the error body's `fields` (e.g. the idempotency key of a send whose outcome is unknown).
public protocol UserFacingErrorWithFields: UserFacingError {
    /// Snake_case names and their values.
    var fields: [String: String] { get }
}
