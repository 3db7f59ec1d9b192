import ArgumentParser

/// A command whose work needs services. ArgumentParser creates commands, so they cannot be
/// constructed with their dependencies; instead the App hands each parsed command its feature's
/// `Environment` (built by the feature's provider from the validated registry) and a context.
///
/// Business rules never live here: `run` drives a view model or a use case and renders the result.
public protocol ServiceCommand<Environment>: AsyncParsableCommand, GlobalOptionsCommand {
    associatedtype Environment: Sendable
    func run(in environment: Environment, context: CommandContext) async throws
}

extension ServiceCommand {
    /// Not used: the App dispatches to ``run(in:context:)``.
    public mutating func run() async throws {
        throw CommandError.internalFailure("\(Self._commandName) was run without its services; run it through moa.")
    }
}

/// One feature's commands as the App composes them: the top-level command type and the environment
/// its commands run in. A feature's Feature target provides one under its own key.
public struct FeatureCommands: Sendable {
    /// The feature's top-level command (e.g. `account`), listed by the App's root command.
    public let command: any ParsableCommand.Type
    private let dispatch: @Sendable (any ParsableCommand, CommandContext) async throws -> Bool

    public init<Environment: Sendable>(_ command: any ParsableCommand.Type, environment: Environment) {
        self.command = command
        self.dispatch = { parsed, context in
            guard let parsed = parsed as? any ServiceCommand<Environment> else { return false }
            try await parsed.run(in: environment, context: context)
            return true
        }
    }

    /// Runs `parsed` if it is one of this group's commands; returns whether it was.
    public func run(_ parsed: any ParsableCommand, context: CommandContext) async throws -> Bool {
        try await dispatch(parsed, context)
    }
}
