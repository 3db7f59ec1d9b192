import ArgumentParser
import AuthFeature
import CommandKit
import DesignSystem
import Foundation
import Registry
import SettingsInterface
import SharedKit
import Storage

/// What the tour resolves: the app's root, and the interactive home's "Log in or sign up" entry
/// (by its typed key, so sign-up runs exactly as `moa` shows it).
struct TourRoot: Sendable {
    let app: AppRoot
    let signIn: HomeEntry
}

enum TourRootKey: ServiceKey {
    typealias Service = TourRoot
    static var expectedProvider: String { "App" }
}

/// One walk through the app: the composition on the tour's home, and the script.
struct TourWalk: Sendable {
    let home: MoaHome
    let root: TourRoot
    let clock: TourClock
    /// The tour's own output (headers, notes).
    let context: CommandContext
    /// What each command runs with: the same output for results and errors (a refusal shows in line,
    /// as the person would see it), never a prompt.
    let commands: CommandContext
    /// The environment Settings reads (see ``Tour/settingsEnvironment(_:)``).
    let variables: [String: String]

    /// Opens the tour's home and composes the app on it, exactly as `moa` does, plus the tour's root.
    static func open(home: MoaHome, variables: [String: String], context: CommandContext) throws -> TourWalk {
        let database = try Composition.openInfrastructure(home: home)
        let clock = TourClock(start: Tour.start)
        let modules =
            // The throwaway home keeps its secrets in its own files, never in the person's keyring.
            Composition.modules(
                home: home, database: database, credentials: FileCredentialStore(home: home), clock: clock, environment: variables) + [
                ModuleOf(
                    "Tour",
                    [
                        .singleton(TourRootKey.self, requires: AppRootKey.self, AuthSignInEntryKey.self) { TourRoot(app: $0, signIn: $1) }
                    ])
            ]
        let root = try RegistryBuilder(modules: modules).validate(root: TourRootKey.self).resolve()
        let commands = CommandContext(
            json: false, verbose: context.verbose, theme: context.theme, errorTheme: context.theme,
            out: context.out, err: context.out, environment: variables, isInteractive: false)
        return TourWalk(home: home, root: root, clock: clock, context: context, commands: commands, variables: variables)
    }

    private var theme: Theme { context.theme }

    // MARK: - The script

    func all() async throws {
        try await signUp()
        let (main, savings) = try await accounts()
        try await transfer(from: main, to: savings)
        try await settings()
        try await refusedTransfer(from: main, to: savings)
        let events = try await importEvents()
        try await archiveTickets(events)
        try await taste()
        try await recommendations()
        try await search()
        try await inbox()
    }

    func introduction() {
        context.print(
            Card(
                title: "moa tour",
                lines: [
                    "Every feature of moa in \(Tour.steps) steps, in a throwaway home.",
                    "",
                ]
                    + KeyValueRows([
                        "Home": home.root.path,
                        "Clock": "from \(Tour.startDay) 12:00 UTC, the bundled sample's season",
                        "User": Tour.email,
                    ]).render(theme: theme).components(separatedBy: "\n")
            ).render(theme: theme))
        blank()
    }

    /// 1. Sign up through the interactive home's entry; the code comes from the outbox.
    func signUp() async throws {
        let step = begin(1, "Sign up", "`moa`'s “Log in or sign up”, answered by the tour; the code is read from the outbox.")
        let answers = TourAnswers(
            [
                .text("2"),
                .text(Tour.email),
                .secret(Tour.passphrase),
                .secret(Tour.passphrase),
                .computed { Self.verificationCode(in: home) },
            ], output: context.out, theme: theme)
        await root.signIn.open(Screen(context: commands, input: answers))
        guard (try? await root.app.session.currentUser())?.email == Tour.email else {
            throw TourError.unexpected(step: step, what: "\(Tour.email) is not logged in after signing up")
        }
        blank()
    }

    /// 2. Two accounts and a deposit.
    func accounts() async throws -> (main: String, savings: String) {
        let step = begin(
            2, "Two accounts and a deposit", "Account numbers carry a check digit; money is integer minor units, never a float.")
        try await moa(["account", "open", "--type", "checking", "--name", "생활비 통장"], in: step)
        try await moa(["account", "open", "--type", "savings", "--name", "비상금"], in: step)
        let accounts = try await json([TourAccount].self, ["account", "list"], in: step)
        guard let main = accounts.first(where: { $0.name == "생활비 통장" })?.number,
            let savings = accounts.first(where: { $0.name == "비상금" })?.number
        else { throw TourError.unexpected(step: step, what: "the two new accounts are not listed") }
        try await moa(["account", "deposit", main, "2,500,000", "--memo", "월급"], in: step)
        return (main, savings)
    }

    /// 3. A transfer between them, its receipt, the balances after.
    func transfer(from main: String, to savings: String) async throws {
        let step = begin(
            3, "A transfer", "To a favourite recipient; one transfer record and exactly two ledger entries, in one SQLite transaction.")
        try await moa(["transfer", "recipients", "add", savings, "--alias", "savings"], in: step)
        try await moa(["transfer", "send", "--from", main, "--to", "@savings", "300,000", "--memo", "비상금"], in: step)
        try await moa(["account", "list"], in: step)
    }

    /// 4. Settings: a smaller page, a lower per-transfer limit.
    func settings() async throws {
        let step = begin(4, "Settings", "Typed and validated; other features read them through SettingsInterface.")
        try await moa(["settings", "set", "display.page-size", "5"], in: step)
        try await moa(["settings", "set", "transfer.per-transfer-limit", "1,000,000"], in: step)
    }

    /// 5. A transfer over the new limit: refused, as the person sees it; nothing moved.
    func refusedTransfer(from main: String, to savings: String) async throws {
        let step = begin(5, "A refused transfer", "Over the limit just set: a clear error, exit status 1, and no money moves.")
        try await moa(["transfer", "send", "--from", main, "--to", savings, "1,500,000", "--memo", "여행"], in: step, expect: .refusal)
        try await moa(["account", "list"], in: step)
    }

    /// 6. The bundled Seoul sample, imported; the catalogue, five per page.
    func importEvents() async throws -> [TourEvent] {
        let step = begin(6, "Events", "The bundled Seoul sample (culturalEventInfo format); bad rows skipped, with the reason. 5 per page.")
        try await moa(["archive", "import", "--sample"], in: step)
        try await moa(["archive", "events"], in: step)
        return try await json(TourEventPage.self, ["archive", "events", "--per-page", "200"], in: step).events
    }

    /// 7. Two tickets: an exhibition running now, a festival that is over.
    func archiveTickets(_ events: [TourEvent]) async throws {
        let step = begin(7, "Tickets", "Archive the events you attended, with a rating and a memo.")
        let today = Day(clock.now(), in: .current)
        guard let running = events.first(where: { !$0.free && $0.startsOn <= today && today <= $0.lastDay }),
            let over = events.first(where: { $0.free && $0.lastDay < today })
        else {
            throw TourError.unexpected(step: step, what: "the bundled sample has no paid event running on \(today) and no free one over")
        }
        try await moa(
            [
                "archive", "add", running.id, "--rating", "5", "--attended", today.adding(days: -2).description,
                "--memo", "다시 보고 싶다",
            ], in: step)
        try await moa(["archive", "add", over.id, "--rating", "4"], in: step)
        try await moa(["archive", "list"], in: step)
    }

    /// 8. The taste card.
    func taste() async throws {
        let step = begin(8, "Taste card", "Top categories, districts, weekdays, free vs paid; recent, well-rated tickets weigh more.")
        try await moa(["archive", "taste"], in: step)
    }

    /// 9. Recommendations, each with its reason.
    func recommendations() async throws {
        let step = begin(
            9, "Recommendations", "Running and upcoming events you have not archived, ranked by your taste, each with its reason.")
        try await moa(["archive", "recommend", "--limit", "3"], in: step)
    }

    /// 10. Search: events (always), users (only when the configured API answers).
    func search() async throws {
        let step = begin(10, "Search", "Events from the catalogue (through ArchiveInterface); users from a GitHub-compatible API.")
        try await moa(["search", "events", "--region", "종로구", "--paid"], in: step)
        let base = (try? await root.app.settings.snapshot())?.searchAPI.baseURL ?? SettingsSnapshot.defaultSearchBaseURL
        switch await TourProbe.check(base) {
        case .reachable:
            try await moa(["search", "users", "swift", "location:seoul", "--per-page", "3"], in: step, expect: .anyOutcome)
        case .unreachable(let reason):
            context.print(
                theme.paint(
                    "User search skipped: \(base.absoluteString) did not answer (\(reason)); "
                        + "set MOA_SEARCH_API_BASE_URL to a reachable GitHub-compatible server to include it.", .warning))
            blank()
        }
    }

    /// 11. The inbox: what Auth and Transfer published, in the transactions of their events.
    func inbox() async throws {
        let step = begin(11, "Inbox", "Notices Auth and Transfer publish through InboxInterface, each in its event's own transaction.")
        try await moa(["inbox"], in: step)
        try await moa(["inbox", "read", "--all"], in: step)
    }

    func conclusion(elapsed: Duration) async {
        for check in await Doctor.runChecks(root.app.checks) {
            if check.problems.isEmpty {
                context.print(theme.paint("\(check.name) OK", .success) + ": \(check.summary).")
            } else {
                context.print(theme.paint("\(check.name) broken", .danger) + " (\(check.summary)):")
                context.print(check.problems.map { "  • " + $0 }.joined(separator: "\n"))
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        context.print(
            theme.paint("Tour done", .success) + ": \(Tour.steps) steps in \(String(format: "%.1f", seconds)) s. "
                + "Next: `moa` for the interactive mode, `moa --help` for every command.")
    }

    // MARK: - Running commands

    /// What a command is expected to do.
    enum Expectation {
        case success
        /// Refused by a business rule (exit status 1).
        case refusal
        /// Whatever happens is shown (user search depends on a server out of the tour's hands).
        case anyOutcome
    }

    /// Prints the step's header and note; returns its label ("3/10 A transfer") for errors.
    private func begin(_ number: Int, _ title: String, _ note: String) -> String {
        let label = "\(number)/\(Tour.steps) \(title)"
        let rule = String(repeating: theme.glyphs.horizontal, count: max(3, 72 - label.displayWidth - 4))
        context.print(
            theme.paint(theme.glyphs.horizontal + theme.glyphs.horizontal, .accent) + " "
                + theme.paint(label, .heading) + " " + theme.paint(rule, .accent))
        context.print(theme.paint(note, .muted))
        blank()
        return label
    }

    /// Runs `moa ARGUMENTS` in this process, shows its command line and its real output.
    private func moa(_ arguments: [String], in step: String, expect: Expectation = .success) async throws {
        let line = Self.commandLine(arguments)
        context.print(theme.paint("$ " + line, .accent))
        let failure = await dispatch(arguments, context: commands)
        if let failure { commands.report(failure) }
        switch (expect, failure?.exitStatus) {
        case (.success, nil), (.anyOutcome, _):
            break
        case (.refusal, .refused?):
            context.print(theme.paint("(exit 1: refused by a business rule)", .muted))
        case (.refusal, nil):
            throw TourError.notRefused(step: step, command: line)
        case (_, let status?):
            throw TourError.stepFailed(step: step, command: line, status: status)
        }
        blank()
    }

    /// An empty line (`CommandContext.print` adds no newline to text that ends with one).
    private func blank() {
        context.out.write("\n")
    }

    /// Runs `moa ARGUMENTS --json` quietly and decodes its output (the scripts' contract).
    private func json<T: Decodable>(_ type: T.Type, _ arguments: [String], in step: String) async throws -> T {
        let captured = CapturingOutput()
        let quiet = CommandContext(json: true, out: captured, err: captured, environment: variables)
        let line = Self.commandLine(arguments + ["--json"])
        if let failure = await dispatch(arguments + ["--json"], context: quiet) {
            context.print(theme.paint("$ " + line, .accent))
            commands.report(failure)
            throw TourError.stepFailed(step: step, command: line, status: failure.exitStatus)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(T.self, from: Data(captured.text.utf8))
        } catch {
            throw TourError.unexpected(step: step, what: "`\(line)` printed JSON the tour cannot read (\(error))")
        }
    }

    /// Parses `arguments` as `moa` does and runs the command through the command group that owns it.
    /// Returns the error a person would see, if any.
    private func dispatch(_ arguments: [String], context: CommandContext) async -> (any UserFacingError)? {
        let parsed: any ParsableCommand
        do {
            parsed = try MoaCommand.parseAsRoot(arguments)
        } catch {
            return CommandRunner.usageError(error, root: MoaCommand.self, arguments: arguments)
        }
        do {
            for group in root.app.commandGroups where try await group.run(parsed, context: context) { return nil }
            return CommandError.internalFailure("No feature runs `moa \(arguments.joined(separator: " "))`.")
        } catch {
            return CommandRunner.userFacing(error)
        }
    }

    /// `moa …` as a person would type it (arguments quoted for a POSIX shell where needed).
    static func commandLine(_ arguments: [String]) -> String {
        let plain = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_.,:/=@%+"))
        return
            (["moa"]
            + arguments.map { argument in
                argument.unicodeScalars.allSatisfy(plain.contains) && !argument.isEmpty
                    ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
            }).joined(separator: " ")
    }

    /// The newest verification code in the outbox, as a person would read it.
    static func verificationCode(in home: MoaHome) -> (answer: String, note: String)? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: home.outboxURL.path)) ?? []
        guard let newest = names.filter({ $0.hasSuffix(".eml") }).sorted().last,
            let text = try? String(contentsOf: home.outboxURL.appendingPathComponent(newest), encoding: .utf8)
        else { return nil }
        for line in text.split(separator: "\n") where line.localizedCaseInsensitiveContains("code") {
            let digitRuns = line.split { !("0"..."9").contains($0) }
            if let code = digitRuns.first(where: { $0.count == 6 }) {
                return (String(code), "(read from outbox/\(newest))")
            }
        }
        return nil
    }
}
