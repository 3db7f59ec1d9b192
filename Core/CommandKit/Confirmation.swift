import Foundation

/// The one reading of a yes/no answer, for commands and the interactive mode alike: blanks around it
/// are ignored, case too; `y`, `yes`, `예`, `네` and `ㅇ` are yes, and anything else (or nothing) is no.
public enum YesNo {
    static let yes: Set<String> = ["y", "yes", "예", "네", "ㅇ"]

    public static func isYes(_ answer: String) -> Bool {
        yes.contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

/// Asks a yes/no question; `false` unless the answer is yes (``YesNo``).
public struct ConfirmationPrompt: Sendable {
    private let answer: @Sendable (String, CommandContext) -> Bool

    public init(_ answer: @escaping @Sendable (String, CommandContext) -> Bool) {
        self.answer = answer
    }

    public func ask(_ question: String, _ context: CommandContext) -> Bool { answer(question, context) }

    /// Writes the question to standard error and reads the answer from standard input; end of input
    /// declines.
    public static let terminal = ConfirmationPrompt { question, context in
        context.err.write(question + " ")
        guard let line = readLine(strippingNewline: true) else { return false }
        return YesNo.isYes(line)
    }

    /// Always answers `answer` (tests, scripts).
    public static func always(_ answer: Bool) -> ConfirmationPrompt {
        ConfirmationPrompt { _, _ in answer }
    }
}
