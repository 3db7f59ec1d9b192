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
    static func parse(_ root: any ParsableCommand.Type, arguments: [String]) -> Parsed {
        let parsed: any ParsableCommand
        do {
            parsed = try root.parseAsRoot(arguments)
        } catch {
            let code = root.exitCode(for: error)
            let text = root.fullMessage(for: error)
            let stream = code == .success ? FileHandle.standardOutput : FileHandle.standardError
            if !text.isEmpty { stream.write(Data((text + "\n").utf8)) }
            return .exit(code.rawValue)
        }
        guard let command = parsed as? any GlobalOptionsCommand else {
            // The root alone (no subcommand): show what there is to do.
            FileHandle.standardOutput.write(Data((root.helpMessage() + "\n").utf8))
            return .exit(ExitStatus.ok.rawValue)
        }
        return .command(parsed, CommandContext.live(options: command.global))
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
        switch parse(root, arguments: arguments) {
        case .exit(let status):
            return status
        case .command(let command, let context):
            return await reportingErrors(context) {
                for group in try await compose(command, context) where try await group.run(command, context: context) {
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
        } catch let error as any UserFacingError {
            return context.report(error).rawValue
        } catch let error as ValidationError {
            return context.report(CommandError.usage(error.message)).rawValue
        } catch {
            return context.report(CommandError.internalFailure("Unexpected error: \(error)")).rawValue
        }
    }
}
