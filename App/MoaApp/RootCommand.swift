import ArgumentParser
import CommandKit

/// `moa`: the root command. Feature commands plug in here as each feature lands; their work is
/// dispatched through the command groups of the validated registry (see ``MoaMain``).
struct MoaCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "moa",
        abstract: "Moa (모아): your bank accounts, transfers, settings, user search and cultural-event archive.",
        discussion: """
            Run `moa` alone for the interactive mode (menus, from the home screen to every feature).
            Data lives in $MOA_HOME (default ~/.moa): one SQLite database and the session file.

            Exit statuses: 0 ok, 1 refused by a business rule, 64 usage, 65 bad data, 66 no input, \
            69 not found or unavailable, 70 internal error, 74 I/O error, 75 try again later, \
            77 not logged in, 78 configuration.
            """,
        version: MoaVersion.current,
        // The features' commands come from the one list of features (Composition.features).
        subcommands: Composition.features.map(\.command) + [DoctorCommand.self, TourCommand.self]
    )

    @OptionGroup var global: GlobalOptions

    /// `moa` alone: the interactive mode.
    func run(in environment: HomeEnvironment, context: CommandContext) async throws {
        await Home.run(environment, Screen(context: context, input: StandardLineInput()))
    }
}
