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

    @Flag(
        name: .customLong("no-pager"),
        help: ArgumentHelp(
            "Print long listings straight to the terminal, without the pager.",
            discussion: "Listings (history, transfers, events, the inbox) page through $MOA_PAGER, else $PAGER, else `less -FRX`, "
                + "only when standard output is a terminal."))
    public var noPager = false

    public init() {}
}

/// A command that carries the global options (every `moa` command does).
public protocol GlobalOptionsCommand: ParsableCommand {
    var global: GlobalOptions { get }
}

/// The options of the commands that choose which bank a home uses (`moa auth signup`, `moa auth login`).
public struct ServerOptions: ParsableArguments, Sendable {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The moa-server to use, from now on (remembered in the home); `embedded` for this machine's own bank again.",
            discussion: "http://HOST:PORT or https://HOST. MOA_SERVER_URL chooses one for a single command.", valueName: "url"))
    public var server: String?

    @Flag(name: .customLong("allow-insecure-http"), help: "Allow plain http:// to another machine (passwords and tokens unencrypted).")
    public var allowInsecureHTTP = false

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "A PEM file of the CA that signed the server's certificate, trusted besides the system's (remembered with --server).",
            discussion: "MOA_CA_FILE gives one for a single command.", valueName: "file"))
    public var caFile: String?

    public init() {}
}

/// A command that may choose the server its home uses.
public protocol ServerChoosingCommand: ParsableCommand {
    var serverOptions: ServerOptions { get }
}
