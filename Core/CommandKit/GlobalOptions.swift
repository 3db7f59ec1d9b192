import ArgumentParser

/// The options every `moa` command accepts, before or after the subcommand name.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The folder that holds moa's data.", discussion: "Default: $MOA_HOME, else ~/.moa. An empty value is refused.",
            valueName: "dir"))
    public var home: String?

    @Flag(name: .long, help: "Print machine-readable JSON instead of tables and cards.")
    public var json = false

    @Flag(name: .customLong("no-color"), help: "Never colour the output (as does NO_COLOR).")
    public var noColor = false

    @Flag(name: .long, help: "Log what moa does to standard error (secrets are never logged).")
    public var verbose = false

    public init() {}
}

/// A command that carries the global options (every `moa` command does).
public protocol GlobalOptionsCommand: ParsableCommand {
    var global: GlobalOptions { get }
}
