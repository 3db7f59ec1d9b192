import DesignSystem
import SharedKit

/// Where the interactive mode reads the person's answers: standard input, or a script in tests.
public protocol LineInput: Sendable {
    /// One line without its newline, or `nil` at the end of input.
    func readLine() -> String?
}

/// Standard input.
public struct StandardLineInput: LineInput {
    public init() {}
    public func readLine() -> String? { Swift.readLine(strippingNewline: true) }
}

/// Answers given in advance, for tests and demos.
public final class ScriptedLineInput: LineInput {
    private let lines: Locked<[String]>

    public init(_ lines: [String]) {
        self.lines = Locked(lines)
    }

    public func readLine() -> String? {
        lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

/// The interactive mode's terminal: prints screens with the design system and asks questions.
/// Every screen of every feature talks to the person through it.
public struct Screen: Sendable {
    public let context: CommandContext
    public let input: any LineInput
    /// The home's entries that have an id, by id: what ``open(_:)`` may lead to.
    public let links: [String: @Sendable (Screen) async -> Void]

    public init(context: CommandContext, input: any LineInput, links: [String: @Sendable (Screen) async -> Void] = [:]) {
        self.context = context
        self.input = input
        self.links = links
    }

    /// The same screen, able to open the entries among `entries` that have an id (the home passes its own).
    public func linking(_ entries: [HomeEntry]) -> Screen {
        var links = links
        for entry in entries { if let id = entry.id { links[id] = entry.open } }
        return Screen(context: context, input: input, links: links)
    }

    /// Whether the home has an entry called `id` (so a flow may offer to go there).
    public func canOpen(_ id: String) -> Bool { links[id] != nil }

    /// Opens the home's entry `id` on this screen, as if chosen from the home (its flow runs until
    /// its own "back"); `false` when there is none.
    @discardableResult
    public func open(_ id: String) async -> Bool {
        guard let open = links[id] else { return false }
        await open(self)
        return true
    }

    public var theme: Theme { context.theme }

    /// Where every screen writes: always through the terminal-safe filter — a screen is for a person
    /// even under `moa --json` (whose commands' output is JSON for scripts, but whose interactive
    /// mode is not): stored text on a screen never reaches the terminal raw.
    private var terminal: TerminalSafeOutput { TerminalSafeOutput(context.out, keepsStyle: theme.isColorEnabled) }

    /// Prints a block of text (a card, a table…) followed by a blank line.
    public func show(_ text: String) {
        terminal.write((text.hasSuffix("\n") ? text : text + "\n") + "\n")
    }

    /// Prints a one-line notice.
    public func say(_ text: String) {
        terminal.write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Prints an error the way commands do (in the user's language when it has one).
    public func showError(_ error: any UserFacingError) {
        terminal.write(ErrorText(message: error.message(in: context.language), hint: error.hint).render(theme: theme) + "\n\n")
    }

    /// Asks a question; `nil` at the end of input. The answer is trimmed.
    public func ask(_ question: String) -> String? {
        terminal.write(theme.paint(question, .accent) + " ")
        guard let line = input.readLine() else { return nil }
        return String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// Asks for a secret: without echo on a terminal, as a plain line from a script.
    public func askSecret(_ question: String) -> String? {
        if context.isInteractive, input is StandardLineInput {
            return try? SecretInput.read(question + " ", from: .prompt, context: context)
        }
        terminal.write(theme.paint(question, .accent) + " ")
        return input.readLine()
    }

    /// Shows numbered choices and returns the index chosen; `nil` for "back" (0, `b`, `q`, empty
    /// input or end of input). Asks again on anything else.
    public func choose(_ title: String, _ options: [String], back: String = "Back") -> Int? {
        var lines = [theme.paint(title, .heading)]
        for (index, option) in options.enumerated() { lines.append("  \(index + 1). \(option)") }
        lines.append(theme.paint("  0. \(back)", .muted))
        show(lines.joined(separator: "\n"))
        while true {
            guard let answer = ask(">") else { return nil }
            if answer.isEmpty || ["0", "b", "q", "back", "quit"].contains(answer.lowercased()) { return nil }
            if let number = Int(answer), (1...options.count).contains(number) { return number - 1 }
            say(theme.paint("Type a number from 1 to \(options.count), or 0 to go back.", .warning))
        }
    }

    /// A yes/no question, read as ``YesNo`` reads it; end of input is no.
    public func confirm(_ question: String) -> Bool {
        guard let answer = ask(question + " [y/N]") else { return false }
        return YesNo.isYes(answer)
    }
}

/// One entry of the interactive home menu, contributed by a feature.
public struct HomeEntry: Sendable {
    /// Who sees the entry.
    public enum Audience: Sendable {
        case anyone, signedIn, signedOut
    }

    public let title: LocalizedText
    public let audience: Audience
    /// A name other flows may open the entry by (``Screen/open(_:)``), e.g. `archive`; `nil` for none.
    public let id: String?
    public let open: @Sendable (Screen) async -> Void

    public init(
        title: LocalizedText, audience: Audience = .signedIn, id: String? = nil, open: @escaping @Sendable (Screen) async -> Void
    ) {
        self.title = title
        self.audience = audience
        self.id = id
        self.open = open
    }
}
