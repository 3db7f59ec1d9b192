import ArgumentParser
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

    /// Parses `arguments` for `root`; prints help/version/usage errors as ArgumentParser does.
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
            let code = root.exitCode(for: error)
            let text = root.fullMessage(for: error)
            let stream = code == .success ? FileHandle.standardOutput : FileHandle.standardError
            if !text.isEmpty { stream.write(Data((text + "\n").utf8)) }
            return .exit(code.rawValue)
        }
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
        switch error {
        case let error as any UserFacingError: context.report(error).rawValue
        case let error as ValidationError: context.report(CommandError.usage(error.message)).rawValue
        default: context.report(CommandError.internalFailure("Unexpected error: \(error)")).rawValue
        }
    }
}
