#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads secrets (passwords, PINs) from the person at the terminal, without echo — or, for
/// scripts, the first line of standard input (`--password-stdin`).
public enum SecretInput {
    /// Where a secret comes from.
    public enum Source: Sendable, Equatable {
        /// The first line of standard input.
        case standardInput
        /// A prompt on the terminal, typed without echo.
        case prompt
    }

    /// Reads one secret. `.prompt` needs standard input to be a terminal.
    public static func read(_ prompt: String, from source: Source, context: CommandContext) throws(CommandError) -> String {
        switch source {
        case .standardInput:
            guard let line = Swift.readLine(strippingNewline: true) else {
                throw .usage("Nothing was read from standard input: pipe the password into --password-stdin.")
            }
            return line.hasSuffix("\r") ? String(line.dropLast()) : line
        case .prompt:
            guard context.isInteractive else {
                throw .usage("There is no terminal to ask for the password: pass it on standard input with --password-stdin.")
            }
            context.err.write(prompt)
            let line = withEchoOff { Swift.readLine(strippingNewline: true) }
            context.err.write("\n")
            guard let line else { throw .usage("No password was entered.") }
            return line
        }
    }

    /// The source implied by a `--password-stdin` flag.
    public static func source(passwordStdin: Bool) -> Source {
        passwordStdin ? .standardInput : .prompt
    }

    private static func withEchoOff<T>(_ body: () -> T) -> T {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return body() }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original) }
        return body()
    }
}
