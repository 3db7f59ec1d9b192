import DesignSystem
import Foundation
import SharedKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a command needs to talk to the person at the terminal (or to a script).
public struct CommandContext: Sendable {
    /// `--json`: print JSON on standard output, nothing decorative.
    public let json: Bool
    /// `--verbose`.
    public let verbose: Bool
    /// The look of standard output (colour only on a TTY, never with NO_COLOR / --no-color).
    public let theme: Theme
    /// The look of standard error.
    public let errorTheme: Theme
    /// Standard output; unless `json`, a ``TerminalSafeOutput`` (no control character from stored text
    /// reaches the terminal; the theme's colours do when colour is on).
    public let out: any TextOutput
    /// Standard error, likewise.
    public let err: any TextOutput
    public let environment: [String: String]
    /// Whether standard input is a terminal (prompts are allowed).
    public let isInteractive: Bool
    /// The language of user-facing strings (the `display.language` setting).
    public let language: AppLanguage
    /// Whether long listings may go through the pager (``printPaged(_:)``): not with `--no-pager`.
    public let paging: Bool

    public init(
        json: Bool = false,
        verbose: Bool = false,
        theme: Theme = .plain,
        errorTheme: Theme = .plain,
        out: any TextOutput,
        err: any TextOutput,
        environment: [String: String] = [:],
        isInteractive: Bool = false,
        language: AppLanguage = .en,
        paging: Bool = false
    ) {
        self.paging = paging
        self.json = json
        self.verbose = verbose
        self.theme = theme
        self.errorTheme = errorTheme
        // Every human-readable byte goes through the terminal-safe filter; JSON is written exactly
        // (JSONOutput escapes every control and formatting character itself).
        self.out = json ? out : TerminalSafeOutput(out, keepsStyle: theme.isColorEnabled)
        self.err = json ? err : TerminalSafeOutput(err, keepsStyle: errorTheme.isColorEnabled)
        self.environment = environment
        self.isInteractive = isInteractive
        self.language = language
    }

    /// The same context with another language and colour decision (once the user's settings are known).
    public func with(language: AppLanguage, colorMode: ColorMode?, noColorFlag: Bool) -> CommandContext {
        let theme: (Theme, StandardStream) -> Theme = { current, stream in
            guard let colorMode else { return current }
            return Theme.resolve(
                mode: colorMode, noColorFlag: noColorFlag,
                terminal: TerminalEnvironment(environment: self.environment, isTerminal: stream.isTerminal))
        }
        return CommandContext(
            json: json, verbose: verbose, theme: json ? .plain : theme(self.theme, .output),
            errorTheme: theme(errorTheme, .error), out: out, err: err, environment: environment,
            isInteractive: isInteractive, language: language, paging: paging)
    }

    /// `text` in the user's language.
    public func text(_ text: LocalizedText) -> String { text(language) }

    /// The context of this process: real streams, colour decided per stream.
    public static func live(options: GlobalOptions, colorMode: ColorMode = .auto) -> CommandContext {
        live(json: options.json, noColor: options.noColor, verbose: options.verbose, colorMode: colorMode, paging: !options.noPager)
    }

    /// The same, from the global options as flags (when the command line could not be parsed).
    static func live(json: Bool, noColor: Bool, verbose: Bool, colorMode: ColorMode = .auto, paging: Bool = false) -> CommandContext {
        let environment = ProcessInfo.processInfo.environment
        func theme(_ stream: StandardStream) -> Theme {
            Theme.resolve(
                mode: colorMode, noColorFlag: noColor,
                terminal: TerminalEnvironment(environment: environment, isTerminal: stream.isTerminal))
        }
        return CommandContext(
            json: json, verbose: verbose,
            theme: json ? .plain : theme(.output), errorTheme: theme(.error),
            out: StreamOutput.standardOutput, err: StreamOutput.standardError,
            environment: environment, isInteractive: isatty(STDIN_FILENO) == 1, paging: paging
        )
    }

    /// Writes a document (an export, CSV or JSON) to standard output byte for byte: it is data for a
    /// file or a pipe. On a terminal it goes through the terminal-safe filter like any other text.
    public func writeDocument(_ text: String) {
        let raw = (out as? TerminalSafeOutput)?.base ?? out
        if let stream = raw as? StreamOutput, stream.stream.isTerminal {
            out.write(text)
        } else {
            raw.write(text)
        }
    }

    /// Writes a line to standard output.
    public func print(_ text: String = "") {
        out.write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Writes `value` as JSON to standard output (the `--json` contract: snake_case keys, sorted,
    /// ISO 8601 dates, money as `{"minor_units": …, "currency": …}`).
    public func printJSON<T: Encodable>(_ value: T) throws(CommandError) {
        out.write(try JSONOutput.encode(value) + "\n")
    }

    /// Reports an error on standard error, human or JSON, and returns its exit status.
    @discardableResult
    public func report(_ error: any UserFacingError) -> ExitStatus {
        if json {
            let body = JSONOutput.ErrorBody(
                error: .init(
                    message: error.message(in: language), hint: error.hint, exitStatus: error.exitStatus.rawValue,
                    fields: (error as? any UserFacingErrorWithFields)?.fields))
            err.write(((try? JSONOutput.encode(body)) ?? #"{"error":{"message":"unreportable error"}}"#) + "\n")
        } else {
            err.write(ErrorText(message: error.message(in: language), hint: error.hint).render(theme: errorTheme) + "\n")
        }
        return error.exitStatus
    }
}

/// The one JSON encoder of `--json` output.
public enum JSONOutput {
    public static func encode<T: Encodable>(_ value: T) throws(CommandError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        do {
            return escapingInvisible(String(decoding: try encoder.encode(value), as: UTF8.self))
        } catch {
            throw .internalFailure("Could not encode the JSON output: \(error)")
        }
    }

    /// `json` with every character a terminal would act on or hide written as `\uXXXX`: JSONEncoder
    /// escapes only U+0000–U+001F, so DEL, the C1 controls (U+009B is a CSI) and the bidirectional
    /// formatting characters of stored or network text would reach a terminal raw. Such characters
    /// stand only inside strings, where the escape means the same character: the JSON is the same value.
    static func escapingInvisible(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isInvisible) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if isInvisible(scalar) {
                out.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    struct ErrorBody: Encodable {
        struct Detail: Encodable {
            let message: String
            let hint: String?
            let exitStatus: Int32
            /// The error's facts as values (``UserFacingErrorWithFields``), absent when it has none.
            let fields: [String: String]?
        }
        let error: Detail
    }
}

/// Failures of the command layer itself.
public enum CommandError: Error, UserFacingError, Equatable {
    /// The input from the user was not acceptable (a usage mistake).
    case usage(String)
    /// A bug: should never happen.
    case internalFailure(String)

    public var message: String {
        switch self {
        case .usage(let message), .internalFailure(let message): message
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .usage: .usage
        case .internalFailure: .software
        }
    }
}

extension CommandContext {
    /// The last step of every command: the view model's error is thrown (the runner reports it),
    /// otherwise its outcome is printed — as JSON with `--json`, else rendered for a person; a long
    /// listing (`paged`) through the pager when standard output is a terminal (``printPaged(_:)``).
    public func present<Outcome>(
        _ outcome: Outcome?, error: (any UserFacingError)?,
        json: (Outcome) -> any Encodable, paged: (Outcome) -> Bool = { _ in false }, render: (Outcome) -> String
    ) throws {
        if let error { throw error }
        guard let outcome else { return }
        if self.json {
            try printJSON(json(outcome))
        } else if paged(outcome) {
            printPaged(render(outcome))
        } else {
            self.print(render(outcome))
        }
    }
}
