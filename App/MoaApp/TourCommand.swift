import ArgumentParser
import CommandKit
import SharedKit

/// `moa tour`: a guided walk through every feature of the composed app, on a throwaway `$MOA_HOME`.
struct TourCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour",
        abstract: "A guided walk through every feature, in a temporary home (yours is never touched).",
        discussion: """
            The tour signs up \(Tour.email) (reading the verification code from the outbox), opens two \
            accounts, deposits, transfers to a favourite recipient, lowers the per-transfer limit to show a refused transfer, imports \
            the bundled Seoul sample, archives two tickets, shows the taste card and recommendations, searches \
            events, searches users when the search API answers, and shows the inbox. Each step runs the real command, in this \
            process, through the same composition as `moa`.

            The tour's clock starts on \(Tour.startDay), in the season of the bundled sample. Of your MOA_… \
            variables it reads only MOA_SEARCH_API_BASE_URL and MOA_SEARCH_API_TOKEN (to point its user search \
            at a server of yours). It makes its own home and removes it afterwards, unless --keep.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Keep the tour's home afterwards and print where it is (the demo user stays logged in there).")
    var keep = false

    func run(in environment: TourEnvironment, context: CommandContext) async throws {
        guard !context.json else {
            throw CommandError.usage("The tour is for people to read: it has no --json output.")
        }
        guard global.home == nil else {
            throw CommandError.usage("The tour never uses a home of yours: it makes a temporary one (keep it with --keep).")
        }
        try await Tour.run(keep: keep, environment: environment.variables, context: context)
    }
}

/// What the tour runs with: the process environment (filtered by the tour before Settings sees it).
struct TourEnvironment: Sendable {
    let variables: [String: String]
}
