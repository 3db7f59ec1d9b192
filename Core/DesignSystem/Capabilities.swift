#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// When to colour the output (the `colour` setting: auto, always, never).
public enum ColorMode: String, Sendable, CaseIterable, Codable {
    /// Colour only on a terminal that supports it, and only if `NO_COLOR` is not set.
    case auto
    /// Always colour (an explicit user request: it overrides `NO_COLOR`, not `--no-color`).
    case always
    /// Never colour.
    case never

    /// Whether colour is on for a stream, given everything the user and the environment said.
    ///
    /// The rule, in order (following https://no-color.org, where an explicit user choice
    /// overrides the `NO_COLOR` environment variable):
    /// 1. `--no-color` → off, always;
    /// 2. `never` → off; `always` → on (even with `NO_COLOR` set or when piped);
    /// 3. `auto` → on only if `NO_COLOR` is unset or empty, the stream is a terminal,
    ///    and `TERM` is not `dumb`.
    ///
    /// - Parameters:
    ///   - noColorFlag: whether `--no-color` was given.
    ///   - terminal: the environment variables and whether the stream is a TTY (injected, so tests
    ///     need no real terminal).
    public func isColorEnabled(noColorFlag: Bool = false, terminal: TerminalEnvironment) -> Bool {
        if noColorFlag { return false }
        switch self {
        case .never: return false
        case .always: return true
        case .auto:
            if let noColor = terminal.environment["NO_COLOR"], !noColor.isEmpty { return false }
            if terminal.environment["TERM"] == "dumb" { return false }
            return terminal.isTerminal
        }
    }
}

/// One of the process's standard streams.
public enum StandardStream: Sendable {
    case output
    case error

    /// The POSIX file descriptor (1 or 2).
    public var fileDescriptor: Int32 {
        switch self {
        case .output: return 1
        case .error: return 2
        }
    }

    /// Whether the stream is connected to a terminal (`isatty`).
    public var isTerminal: Bool { isatty(fileDescriptor) == 1 }
}

/// What the design system needs to know about where its text goes: the environment variables
/// (`NO_COLOR`, `TERM`) and whether the stream is a terminal. A plain value, so tests inject it.
public struct TerminalEnvironment: Sendable, Equatable {
    /// Environment variables; only `NO_COLOR` and `TERM` are read.
    public var environment: [String: String]
    /// Whether the output stream is a TTY.
    public var isTerminal: Bool

    public init(environment: [String: String] = [:], isTerminal: Bool) {
        self.environment = environment
        self.isTerminal = isTerminal
    }

    /// The real environment of this process, for `stream`.
    public static func current(for stream: StandardStream) -> TerminalEnvironment {
        TerminalEnvironment(environment: processEnvironment(), isTerminal: stream.isTerminal)
    }

    private static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["NO_COLOR", "TERM"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
