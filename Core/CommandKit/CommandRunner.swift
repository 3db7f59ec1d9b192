import ArgumentParser
import DesignSystem
import Foundation
import SharedKit

/// Parses a command line and runs it through command groups: the loop shared by `moa` and every
/// feature's Example, so both behave the same (help, usage errors, exit statuses, error reports).
public enum CommandRunner {
    /// What parsing produced: a command to run, or an exit status already reported (help, usage).
    enum Parsed {
        case command(any ParsableCommand, CommandContext)
        case exit(Int32)
    }

    /// Parses `arguments` for `root`; prints help and version as ArgumentParser does, and reports a
    /// command line it cannot read as one sentence (``CommandLineError``, 64), as JSON with `--json`.
    static func parse(_ root: any ParsableCommand.Type, arguments: [String]) async -> Parsed {
        do {
            let parsed = try root.parseAsRoot(arguments)
            if let command = parsed as? any GlobalOptionsCommand {
                return .command(command, CommandContext.live(options: command.global))
            }
            // Not a command of ours: `help <subcommand>`, `<subcommand> --help`, or a group without
            // its subcommand. Running it makes ArgumentParser say the right thing.
            if var command = parsed as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = parsed
                try command.run()
            }
            return .exit(ExitStatus.ok.rawValue)
        } catch {
            if root.exitCode(for: error) == .success {
                let text = root.fullMessage(for: error)
                if !text.isEmpty { TerminalSafeOutput(StreamOutput.standardOutput, keepsStyle: false).writeLine(text) }
                return .exit(ExitStatus.ok.rawValue)
            }
            // The global options were not parsed: `--json` and `--no-color` as they were typed.
            let context = CommandContext.live(
                json: arguments.contains("--json"), noColor: arguments.contains("--no-color"), verbose: arguments.contains("--verbose"))
            return .exit(context.report(usageError(error, root: root, arguments: arguments)).rawValue)
        }
    }

    /// What ArgumentParser could not read in `arguments`, as one sentence and a hint naming the help
    /// of the (sub)command it was parsing.
    public static func usageError(_ error: any Error, root: any ParsableCommand.Type, arguments: [String]) -> CommandLineError {
        var command = root
        var path = [root._commandName]
        for argument in arguments {
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { continue }
            command = sub
            path.append(argument)
        }
        return CommandLineError(
            argumentParserMessage: root.message(for: error), hint: "See `\(path.joined(separator: " ")) --help`.")
    }

    /// `error` as a person reads it: SharedKit's one ``ErrorMapping`` (what `moa`, the tour and every
    /// Example report). ArgumentParser's `ValidationError`, should a command throw one while it runs, is
    /// first made what it means: a ``CommandLineError`` (64).
    public static func userFacing(_ error: any Error) -> any UserFacingError {
        let typed: any Error = (error as? ValidationError).map { CommandLineError(argumentParserMessage: $0.message, hint: nil) } ?? error
        return ErrorMapping.userFacing(typed, unexpectedSentence: "The command failed unexpectedly")
    }

    /// Parses `arguments`, composes the command groups for the parsed command, runs it with the group
    /// that owns it, and reports any error. Returns the process exit status.
    ///
    /// `compose` is where the caller opens what the command needs and validates its registry; it
    /// sees the parsed command (for `--home`, or to special-case a command such as `moa doctor`).
    public static func run(
        _ root: any ParsableCommand.Type,
        arguments: [String],
        compose: @Sendable (any ParsableCommand, CommandContext) async throws -> [FeatureCommands]
    ) async -> Int32 {
        await run(root, arguments: arguments) { command, context in
            Composed(commands: try await compose(command, context), context: context)
        }
    }

    /// What a composition produced: the command groups, and the context to run them in (for example
    /// with the user's language and colour settings applied).
    public struct Composed: Sendable {
        public let commands: [FeatureCommands]
        public let context: CommandContext

        public init(commands: [FeatureCommands], context: CommandContext) {
            self.commands = commands
            self.context = context
        }
    }

    /// Like ``run(_:arguments:compose:)``, where composing may also adjust the context; errors are
    /// then reported in the adjusted context (its language, its colours).
    public static func run(
        _ root: any ParsableCommand.Type,
        arguments: [String],
        composing: @Sendable (any ParsableCommand, CommandContext) async throws -> Composed
    ) async -> Int32 {
        switch await parse(root, arguments: arguments) {
        case .exit(let status):
            return status
        case .command(let command, let context):
            let composed: Composed
            do {
                composed = try await composing(command, context)
            } catch {
                return report(error, context)
            }
            return await reportingErrors(composed.context) {
                for group in composed.commands where try await group.run(command, context: composed.context) {
                    return ExitStatus.ok.rawValue
                }
                throw CommandError.internalFailure(
                    "No feature runs `\(type(of: command)._commandName)`: its command group is not composed.")
            }
        }
    }

    /// Runs `work`, turning any error into its report and exit status.
    static func reportingErrors(_ context: CommandContext, _ work: () async throws -> Int32) async -> Int32 {
        do {
            return try await work()
        } catch {
            return report(error, context)
        }
    }

    static func report(_ error: any Error, _ context: CommandContext) -> Int32 {
        context.report(userFacing(error)).rawValue
    }
}

/// A command line ArgumentParser could not read — an unknown option, a missing argument, a value that
/// is not a number or not one of the choices, options that do not go together — as one sentence with
/// the help to read: a usage error, 64.
public struct CommandLineError: UserFacingError, Equatable {
    public let message: String
    public let hint: String?
    public var exitStatus: ExitStatus { .usage }

    public init(message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// ArgumentParser's message made one sentence: on one line, its list of choices joined to it
    /// ("…: use one of 'json' and 'csv'."), ending in one full stop (or its question mark).
    init(argumentParserMessage text: String, hint: String?) {
        var sentence = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) + "," : $0 }.joined(separator: " ")
        sentence = sentence.replacingOccurrences(of: ". Please provide one of the following: ", with: ": use one of ")
            .replacingOccurrences(of: ". Please provide one of ", with: ": use one of ")
            .replacingOccurrences(of: ". Did you mean ", with: ": did you mean ")
        while let last = sentence.last, last == "." || last == "," || last.isWhitespace { sentence.removeLast() }
        if sentence.isEmpty { sentence = "The command line cannot be read" }
        self.init(message: sentence.hasSuffix("?") ? sentence : sentence + ".", hint: hint)
    }
}
