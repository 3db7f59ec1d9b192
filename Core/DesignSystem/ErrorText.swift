import SharedKit

/// An error as the user reads it:
///
/// ```
/// error: Insufficient funds: the balance is 5,000 KRW.
/// hint: Deposit money first, or send a smaller amount.
/// ```
/// The `error:` label is bold red (``ColorToken/danger``) and `hint:` is ``ColorToken/accent``
/// when colour is on; continuation lines of a multi-line message are indented under the text.
public struct ErrorText: Sendable {
    public var message: String
    public var hint: String?

    public init(message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// The message and hint of a ``UserFacingError``.
    public init(_ error: any UserFacingError) {
        self.init(message: error.message, hint: error.hint)
    }

    /// The error as lines joined by `\n` (no trailing newline).
    public func render(theme: Theme = .plain) -> String {
        var lines = Self.labelled("error:", message, theme.paint("error:", .danger, .bold))
        if let hint, !hint.isEmpty {
            lines += Self.labelled("hint:", hint, theme.paint("hint:", .accent))
        }
        return lines.joined(separator: "\n")
    }

    private static func labelled(_ label: String, _ text: String, _ paintedLabel: String) -> [String] {
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = TextWidth.spaces(label.count + 1)
        return parts.enumerated().map { index, part in
            index == 0 ? paintedLabel + " " + part : indent + part
        }
    }
}
