import ArchiveDomain
import ArchiveInterface
import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Registry
import SettingsInterface
import SharedKit
import Synchronization

/// Archive's command group, collected by the App's root.
public enum ArchiveCommandsKey: ServiceKey {
    public typealias Service = FeatureCommands
}

extension ExportFormat: ExpressibleByArgument {}

/// `moa archive …`
public struct ArchiveCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Import Seoul's cultural-event catalogue, archive the events you attended, see your taste and what to see next.",
        subcommands: [Import.self, Events.self, Add.self, List.self, Remove.self, Taste.self, Recommend.self, Preferences.self, Export.self]
    )

    public init() {}

    struct Import: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a culturalEventInfo catalogue from a JSON file or the live Seoul Open Data API.",
            usage: """
            moa archive import FILE.json
            moa archive import --api [--from N] [--to M]
            moa archive import --sample
            """,
            discussion: """
            All rows are written in one transaction: a failure imports nothing. Importing again updates \
            changed events and never duplicates one (an event's id is a hash of its title, place and start date).

            --api reads your Seoul Open Data API key from the archive.api-key setting (or MOA_ARCHIVE_API_KEY); \
            store it once with `moa settings set archive.api-key --value-stdin`. --api-key KEY still works for \
            old scripts, but other users see the key in `ps` and your shell keeps it in its history.
            """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A culturalEventInfo JSON file (as downloaded from data.seoul.go.kr).") var file: String?
        @Flag(help: "Import from the live Seoul Open Data API, with the key of the archive.api-key setting.") var api = false
        @Option(name: .customLong("api-key"),
                help: ArgumentHelp("Deprecated, visible to other users: import from the live API with this key (use --api).", valueName: "key"))
        var apiKey: String?
        @Option(help: "With --api: the first row to fetch (1-based).") var from: Int?
        @Option(help: "With --api: the last row to fetch (default: the last one).") var to: Int?
        @Flag(help: "Import the small sample catalogue that ships with moa (no file, no API key).") var sample = false

        func validate() throws {
            if sample {
                guard file == nil, !api, apiKey == nil, from == nil, to == nil else { throw ValidationError("--sample goes alone.") }
                return
            }
            if api, apiKey != nil { throw ValidationError("Give either --api (the key from the archive.api-key setting) or --api-key, not both.") }
            let live = api || apiKey != nil
            switch (file, live) {
            case (nil, false): throw ValidationError("Give a FILE to import, --api for the live API, or --sample.")
            case (.some, true): throw ValidationError("Give either a FILE or --api, not both.")
            case (.some, false) where from != nil || to != nil: throw ValidationError("--from and --to go with --api.")
            default: break
            }
        }

        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            let input: ArchiveViewModel.Input = if sample {
                .importSample
            } else if let file {
                .importFile(path: file)
            } else if let apiKey {
                .importAPI(key: apiKey, from: from ?? 1, to: to)
            } else {
                .importConfiguredAPI(from: from ?? 1, to: to)
            }
            if apiKey != nil { ArchiveScreen.warnVisibleKey(context) }
            let display = ImportProgressDisplay(context: context)
            defer { display.finish() }
            try await ArchiveScreen.show(input, environment, context, progress: display.update)
        }
    }

    struct Events: ServiceCommand {
        static let configuration = CommandConfiguration(abstract: "Search the imported catalogue, sorted by start date.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Words that must all appear in the title, place or organiser.") var text: String?
        @Option(help: "A district (GUNAME), e.g. 종로구.") var region: String?
        @Option(help: "A category (CODENAME), e.g. 뮤지컬/오페라.") var category: String?
        @Option(help: "Part of the audience text (USE_TRGT), e.g. 어린이.") var audience: String?
        @Flag(help: "Free events only.") var free = false
        @Flag(help: "Paid events only.") var paid = false
        @Option(help: "Events running on or after this day (YYYY-MM-DD).") var from: String?
        @Option(help: "Events running on or before this day (YYYY-MM-DD).") var to: String?
        @Option(help: "Events running on this day (YYYY-MM-DD): started on or before it and ending on or after it.") var on: String?
        @Option(help: "The page to show (1-based).") var page = 1
        @Option(name: .customLong("per-page"), help: "Events per page, 1–200 (default: the display.page-size setting).") var perPage: Int?

        func validate() throws {
            if free && paid { throw ValidationError("Give --free or --paid, not both.") }
        }

        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            let filters = EventFilters(text: text, region: region, category: category, audience: audience, free: free ? true : paid ? false : nil,
                                       from: from, to: to, on: on, page: page, perPage: perPage)
            try await ArchiveScreen.show(.events(filters), environment, context)
        }
    }

    struct Add: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive an event you attended: from the catalogue by id, or by hand.",
            usage: """
            moa archive add EVENT_ID [--rating 1-5] [--memo M] [--attended DATE]
            moa archive add --title T --category C --region DISTRICT --date DATE [--free] [--rating 1-5] [--memo M]
            """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "An event id from `moa archive events`.") var eventID: String?
        @Option(help: "Manual ticket: the title.") var title: String?
        @Option(help: "Manual ticket: the category, e.g. 연극.") var category: String?
        @Option(help: "Manual ticket: the district, e.g. 종로구.") var region: String?
        @Flag(help: "Manual ticket: it was free.") var free = false
        @Option(name: [.customLong("attended"), .customLong("date")],
                help: "The day you went, YYYY-MM-DD (from the catalogue, default: today, or the last day of an event that is over).")
        var attended: String?
        @Option(help: "Your rating, 1 to 5.") var rating: Int?
        @Option(help: "A note, up to 500 characters.") var memo: String?

        func validate() throws {
            let manual = title != nil || category != nil || region != nil || free
            if eventID != nil, manual {
                throw ValidationError("Give either an EVENT_ID from the catalogue, or --title, --category, --region and --date for a ticket by hand, not both.")
            }
            if eventID == nil {
                let missing = [("--title", title), ("--category", category), ("--region", region), ("--date", attended)].filter { $0.1 == nil }.map(\.0)
                if !manual { throw ValidationError("Give an EVENT_ID (see `moa archive events`), or --title, --category, --region and --date.") }
                if !missing.isEmpty { throw ValidationError("A ticket by hand also needs \(missing.joined(separator: ", ")).") }
            }
        }

        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            let input: ArchiveViewModel.Input = if let eventID {
                .addFromCatalogue(eventID: eventID, rating: rating, memo: memo, attended: attended)
            } else {
                .addManual(title: title ?? "", category: category ?? "", region: region ?? "", date: attended ?? "", free: free, rating: rating, memo: memo)
            }
            try await ArchiveScreen.show(input, environment, context)
        }
    }

    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(abstract: "List your tickets, most recent first.")
        @OptionGroup var global: GlobalOptions
        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.list, environment, context)
        }
    }

    struct Remove: ServiceCommand {
        static let configuration = CommandConfiguration(abstract: "Remove one of your tickets.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The ticket id (or its first characters, at least 4) from `moa archive list`.") var ticket: String
        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.remove(ticket), environment, context)
        }
    }

    struct Taste: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Your taste card: top categories, districts, weekdays and free vs paid.",
            discussion: "Each ticket weighs its rating / 5 (unrated: 0.6), halved for every 180 days since you went.")
        @OptionGroup var global: GlobalOptions
        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.taste, environment, context)
        }
    }

    struct Recommend: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Current and upcoming events you have not archived, ranked by your taste, each with its reason.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "How many, 1–100.") var limit = 10
        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.recommend(limit: limit), environment, context)
        }
    }

    /// `moa archive preferences [show|set|clear|choices]`: the onboarding choices behind cold-start recommendations.
    struct Preferences: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Your favourite districts and categories: recommendations use them until you have 3 tickets, then boost what matches them.",
            subcommands: [Show.self, SetPreferences.self, Clear.self, Choices.self],
            defaultSubcommand: Show.self)

        struct Show: ServiceCommand {
            static let configuration = CommandConfiguration(abstract: "Show your preferences (the default of `moa archive preferences`).")
            @OptionGroup var global: GlobalOptions
            func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
                try await ArchiveScreen.show(.showPreferences, environment, context)
            }
        }

        struct SetPreferences: ServiceCommand {
            static let configuration = CommandConfiguration(
                commandName: "set",
                abstract: "Choose 1–3 districts and 1–3 categories (comma-separated); replaces what you chose before.",
                usage: "moa archive preferences set --districts Mapo-gu,Jongno-gu --categories 전시/미술,콘서트",
                discussion: "Districts are Seoul's 25 자치구, in Korean (마포구, 마포) or romanised (Mapo-gu, mapo). "
                    + "Categories are those of the imported events (see `moa archive preferences choices`).")
            @OptionGroup var global: GlobalOptions
            @Option(help: ArgumentHelp("1–3 of Seoul's districts, comma-separated.", valueName: "districts")) var districts: String
            @Option(help: ArgumentHelp("1–3 categories of the imported events, comma-separated.", valueName: "categories")) var categories: String
            func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
                try await ArchiveScreen.show(.setPreferences(districts: districts, categories: categories), environment, context)
            }
        }

        struct Clear: ServiceCommand {
            static let configuration = CommandConfiguration(abstract: "Forget your preferences.")
            @OptionGroup var global: GlobalOptions
            func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
                try await ArchiveScreen.show(.clearPreferences, environment, context)
            }
        }

        struct Choices: ServiceCommand {
            static let configuration = CommandConfiguration(abstract: "List what you can choose: Seoul's 25 districts and the categories of the imported events.")
            @OptionGroup var global: GlobalOptions
            func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
                try await ArchiveScreen.show(.preferenceChoices, environment, context)
            }
        }
    }

    struct Export: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export your tickets as JSON or CSV (RFC 4180).",
            discussion: """
            CSV is UTF-8 without a byte-order mark. Excel (notably on Korean Windows) reads such a file in \
            the local code page and garbles Hangul: add --bom for a file Excel opens as UTF-8.
            """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "json or csv.") var format: ExportFormat
        @Option(help: "Write to this file (atomically, readable only by you) instead of standard output.") var output: String?
        @Flag(help: "With --format csv: start with a UTF-8 byte-order mark (EF BB BF), so Excel reads Hangul correctly.") var bom = false

        func validate() throws {
            if bom, format != .csv { throw ValidationError("--bom goes with --format csv: JSON never starts with a byte-order mark.") }
        }

        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.export(format, output: output, byteOrderMark: bom), environment, context)
        }
    }
}

/// Sends one input and renders the outcome with the design system, or as JSON.
enum ArchiveScreen {
    static func show(_ input: ArchiveViewModel.Input, _ environment: ArchiveEnvironment, _ context: CommandContext,
                     progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }) async throws {
        let viewModel = ArchiveViewModel(environment: environment, progress: progress)
        await viewModel.send(input)
        let state = await viewModel.state
        if let error = state.error { throw error }
        guard let outcome = state.outcome else { return }
        if case .exported(let document, nil) = outcome {
            context.out.write(document.text) // the document itself is the output, JSON or not
        } else if context.json {
            try context.printJSON(ArchiveJSON.make(outcome))
        } else {
            context.print(render(outcome, theme: context.theme))
        }
    }

    static func render(_ outcome: ArchiveViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .imported(let report): renderImport(report, theme: theme)
        case .events(let page, let count): renderEvents(page, catalogueCount: count, theme: theme)
        case .added(let ticket):
            theme.paint("Archived “\(ticket.title)” (attended \(ticket.attendedOn)\(ticket.rating.map { ", rated \($0)/5" } ?? "")) as ticket \(shortID(ticket.id)).", .success)
        case .tickets(let tickets): renderTickets(tickets, theme: theme)
        case .removed(let ticket): "Removed ticket \(shortID(ticket.id)) “\(ticket.title)” (attended \(ticket.attendedOn))."
        case .taste(let profile): TasteCardView.render(profile, theme: theme)
        case .recommendations(let list): renderRecommendations(list, theme: theme)
        case .exported(let document, let path):
            "Exported \(document.ticketCount) ticket\(document.ticketCount == 1 ? "" : "s") as \(document.format.rawValue.uppercased()) to \(path ?? "standard output")."
        case .preferences(let preferences): renderPreferences(preferences, theme: theme)
        case .preferencesSaved(let preferences):
            theme.paint("Saved your preferences.", .success) + "\n" + renderPreferences(preferences, theme: theme)
        case .preferencesCleared(let cleared):
            cleared ? "Cleared your preferences: recommendations come from your tickets alone." : theme.paint("You had no preferences to clear.", .muted)
        case .preferenceChoices(let districts, let categories): renderChoices(districts: districts, categories: categories, theme: theme)
        }
    }

    /// The one line said on standard error when the API key is given with `--api-key` (never the key).
    static func warnVisibleKey(_ context: CommandContext) {
        context.err.write(context.errorTheme.paint(
            "warning: --api-key puts your key where other users see it in `ps` and your shell keeps it in its history; "
                + "store it with `moa settings set archive.api-key --value-stdin` and use --api.", .warning) + "\n")
    }

    static let setPreferencesHint = "`moa archive preferences set --districts Mapo-gu,Jongno-gu --categories 전시/미술` (choices: `moa archive preferences choices`)"

    static func renderPreferences(_ preferences: ArchivePreferences?, theme: Theme) -> String {
        guard let preferences else {
            return theme.paint("No preferences set: choose 1–3 districts and 1–3 categories with \(setPreferencesHint).", .muted)
        }
        var rows: [KeyValueRows.Row] = [
            .init("Districts", preferences.districts.map(SeoulDistricts.label).joined(separator: ", ")),
            .init("Categories", preferences.categories.joined(separator: ", ")),
        ]
        if let updated = preferences.updatedAt { rows.append(.init("Updated", Day(updated, in: .gmt).description)) }
        let note = theme.paint("Recommendations come from these until you have \(Recommender.coldStartTickets) tickets, then events matching them get a boost.", .muted)
        return Card(title: "Your preferences", lines: KeyValueRows(rows).render(theme: theme).components(separatedBy: "\n")).render(theme: theme)
            + "\n" + note
    }

    static func renderChoices(districts: [String], categories: [String], theme: Theme) -> String {
        var lines = [theme.paint("Districts (--districts, Korean or romanised)", .heading)]
        lines += districts.map { "  " + SeoulDistricts.label($0) }
        lines += ["", theme.paint("Categories (--categories, from the imported events)", .heading)]
        if categories.isEmpty {
            lines.append("  " + theme.paint(ArchiveError.noCategoriesImported.message + " " + (ArchiveError.noCategoriesImported.hint ?? ""), .muted))
        } else {
            lines += categories.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    static let emptyCatalogue = "The catalogue is empty: import one with `moa archive import FILE.json` (culturalEventInfo format from data.seoul.go.kr) or `moa archive import --api`."
    static let noTickets = "No tickets yet: archive an event you attended with `moa archive add EVENT_ID` (find ids with `moa archive events`), or by hand with `moa archive add --title T --category C --region DISTRICT --date YYYY-MM-DD`."

    static func renderImport(_ report: ImportReport, theme: Theme) -> String {
        let rows = KeyValueRows([
            "Rows": "\(report.rows)",
            "New": "\(report.new)",
            "Updated": "\(report.updated)",
            "Unchanged": "\(report.unchanged)",
            "Skipped": "\(report.skipped.count)",
            "Catalogue": "\(report.catalogueCount) event\(report.catalogueCount == 1 ? "" : "s")",
        ]).render(theme: theme)
        var lines = [Card(title: "Import · \(report.source)", lines: [rows]).render(theme: theme)]
        if !report.skipped.isEmpty {
            var table = Table(columns: [.init("Row", alignment: .right), .init("Title", maxWidth: 40), .init("Skipped because")])
            for skipped in report.skipped.prefix(20) {
                table.append([String(skipped.row), skipped.title ?? "—", skipped.reason.description])
            }
            lines += ["", table.render(theme: theme)]
            if report.skipped.count > 20 {
                lines.append(theme.paint("… and \(report.skipped.count - 20) more (--json lists every one).", .muted))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func renderEvents(_ page: EventPage, catalogueCount: Int, theme: Theme) -> String {
        guard catalogueCount > 0 else { return theme.paint(emptyCatalogue, .muted) }
        var table = Table(columns: [.init("ID"), .init("Dates"), .init("Title", maxWidth: 36), .init("Category"), .init("District"), .init("Fee")],
                          emptyMessage: page.total == 0 ? "No event matches these filters (\(catalogueCount) in the catalogue)."
                              : "Page \(page.page) is past the last page (\(page.pageCount)).")
        for event in page.events {
            table.append([event.id.rawValue, dates(event), event.title, event.category, event.district.isEmpty ? "—" : event.district,
                          event.isFree ? "free" : "paid"])
        }
        var text = table.render(theme: theme)
        if page.total > 0 {
            var footer = "Page \(page.page) of \(page.pageCount) · \(page.total) event\(page.total == 1 ? "" : "s")"
            if page.page < page.pageCount { footer += " · next: --page \(page.page + 1)" }
            text += "\n" + theme.paint(footer, .muted)
        }
        return text
    }

    static func renderTickets(_ tickets: [Ticket], theme: Theme) -> String {
        var table = Table(columns: [.init("ID"), .init("Attended"), .init("Title", maxWidth: 36), .init("Category"), .init("District"),
                                    .init("Fee"), .init("Rating", alignment: .right), .init("Event")],
                          emptyMessage: noTickets)
        for ticket in tickets {
            table.append([shortID(ticket.id), ticket.attendedOn.description, ticket.title, ticket.category, ticket.district.isEmpty ? "—" : ticket.district,
                          ticket.isFree ? "free" : "paid", ticket.rating.map { "\($0)/5" } ?? "—", ticket.eventID?.rawValue ?? "by hand"])
        }
        return table.render(theme: theme)
    }

    static func renderRecommendations(_ list: RecommendationList, theme: Theme) -> String {
        switch list.status {
        case .noTickets:
            return theme.paint("Nothing to recommend yet: recommendations come from your tickets. " + noTickets.dropFirst("No tickets yet: ".count), .muted)
                + "\n" + theme.paint("Or tell moa what you like: \(setPreferencesHint).", .muted)
        case .noCandidates where list.basis == .preferences:
            let chosen = (list.preferences.map { $0.districts.map(SeoulDistricts.romanisedName) + $0.categories } ?? []).joined(separator: ", ")
            return theme.paint("No current or upcoming event you have not archived is in your chosen districts or categories (\(chosen)): "
                + "choose others with `moa archive preferences set`, or import a fresh catalogue with `moa archive import`.", .muted)
        case .noCandidates:
            return theme.paint("No current or upcoming event in the catalogue matches your taste (or you archived them all): import a fresh catalogue with `moa archive import`.", .muted)
        case .ok:
            let count = list.profile.ticketCount
            let tickets = "your \(count) ticket\(count == 1 ? "" : "s")"
            let source = switch list.basis {
            case .taste: "from \(tickets)"
            case .preferences: "from your preferences"
            case .blended: "from \(tickets) and your preferences"
            }
            var lines = [theme.paint("Recommended for you · \(source) · as of \(list.profile.asOf)", .heading)]
            let rankWidth = String(list.items.count).count + 1
            for (index, item) in list.items.enumerated() {
                let rank = "\(index + 1).".padded(toDisplayWidth: rankWidth, alignment: .right)
                let indent = String(repeating: " ", count: rankWidth + 1)
                let event = item.event
                lines.append("")
                lines.append("\(rank) \(theme.paint(event.title, .heading))  " + theme.paint("score \(Int((item.score * 100).rounded()))", .accent))
                let place = [event.category, event.district, event.isFree ? "free" : "paid", dates(event)].filter { !$0.isEmpty }
                lines.append(indent + place.joined(separator: " · ") + theme.paint("  id \(event.id)", .muted))
                lines.append(indent + item.reason)
            }
            return lines.joined(separator: "\n")
        }
    }

    static func dates(_ event: CulturalEvent) -> String {
        event.startsOn == event.endsOn ? event.startsOn.description : "\(event.startsOn) → \(event.endsOn)"
    }

    static func shortID(_ id: TicketID) -> String { String(id.rawValue.prefix(8)) }
}

/// The taste card: a `Card` of bars (what `moa archive taste` prints; the interactive mode shows the same).
public enum TasteCardView {
    public static func render(_ profile: TasteProfile, theme: Theme = .plain) -> String {
        guard !profile.isEmpty else { return theme.paint(ArchiveScreen.noTickets, .muted) }
        let sections: [(String, [TasteShare])] = [
            ("Top categories", Array(profile.categories.prefix(3))),
            ("Top districts", Array(profile.districts.prefix(3))),
            ("Weekdays", profile.weekdays),
            ("Free vs paid", [profile.free, profile.paid]),
        ]
        let labelWidth = sections.flatMap(\.1).reduce(0) { max($0, $1.name.displayWidth) }
        var lines: [String] = []
        for (title, shares) in sections {
            if !lines.isEmpty { lines.append("") }
            lines.append(theme.paint(title, .heading))
            if shares.isEmpty { lines.append("  " + theme.paint("—", .muted)) }
            for share in shares {
                lines.append("  " + share.name.padded(toDisplayWidth: labelWidth) + "  " + bar(share.share, theme: theme) + "  "
                    + "\(Int((share.share * 100).rounded()))%".padded(toDisplayWidth: 4, alignment: .right)
                    + theme.paint("  \(share.count) ticket\(share.count == 1 ? "" : "s")", .muted))
            }
        }
        lines.append("")
        let average = profile.averageRating.map { String(format: "%.1f", $0) } ?? "—"
        lines.append(theme.paint("Average rating \(average) (\(profile.ratedCount) rated). Each ticket weighs rating/5 (unrated 0.6), halved every 180 days.", .muted))
        let title = "Your taste · \(profile.ticketCount) ticket\(profile.ticketCount == 1 ? "" : "s") · as of \(profile.asOf)"
        return Card(title: title, lines: lines).render(theme: theme)
    }

    /// A ProgressBar-style bar of `width` cells for a share in 0…1.
    static func bar(_ share: Double, width: Int = 20, theme: Theme) -> String {
        let filled = min(width, max(0, Int((share * Double(width)).rounded())))
        return theme.paint(String(repeating: theme.glyphs.barFilled, count: filled), .accent)
            + theme.paint(String(repeating: theme.glyphs.barEmpty, count: width - filled), .muted)
    }
}

/// The import's progress bars on standard error: one while pages are fetched, one while rows are
/// written. Drawn in place on a terminal; in a pipe, only for large imports, a line every 25%.
public final class ImportProgressDisplay: Sendable {
    private struct Current {
        var label: String
        var reporter: ProgressReporter
    }

    private let output: any TextOutput
    private let theme: Theme
    private let isTerminal: Bool
    private let enabled: Bool
    private let current = Mutex<Current?>(nil)

    /// - Parameters:
    ///   - isTerminal: whether `output` is a terminal (bars redraw in place; elsewhere only large imports log).
    ///   - enabled: `false` with `--json` (nothing decorative).
    public init(output: any TextOutput, theme: Theme, isTerminal: Bool, enabled: Bool) {
        self.output = output
        self.theme = theme
        self.isTerminal = isTerminal
        self.enabled = enabled
    }

    convenience init(context: CommandContext) {
        self.init(output: context.err, theme: context.errorTheme, isTerminal: StandardStream.error.isTerminal, enabled: !context.json)
    }

    /// Large enough to show progress in a pipe or a log.
    static let largeImport = 10_000

    public func update(_ progress: ImportProgress) {
        guard enabled else { return }
        switch progress {
        case .read: return
        case .fetched(let rows, let total): show("Fetching", done: rows, total: total)
        case .writing(let done, let total): show("Importing", done: done, total: total)
        }
    }

    public func finish() {
        current.withLock { $0?.reporter.finish() }
    }

    private func show(_ label: String, done: Int, total: Int) {
        guard isTerminal || total >= Self.largeImport else { return }
        current.withLock { current in
            if current?.label != label {
                current?.reporter.finish()
                current = Current(label: label, reporter: ProgressReporter(total: total, output: output, theme: theme, isInteractive: isTerminal,
                                                                           label: label, logEvery: isTerminal ? nil : 25))
            }
            current?.reporter.update(done: done)
        }
    }
}

/// The `--json` shapes (documented, stable snake_case field names).
enum ArchiveJSON {
    struct Event: Encodable {
        let id: String, title: String, category: String, district: String, place: String, audience: String, fee: String, free: Bool
        let startsOn: String, endsOn: String, organization: String, link: String?, imageUrl: String?
        init(_ e: CulturalEvent) {
            (id, title, category, district, place, audience, fee, free) = (e.id.rawValue, e.title, e.category, e.district, e.place, e.audience, e.fee, e.isFree)
            (startsOn, endsOn, organization, link, imageUrl) = (e.startsOn.description, e.endsOn.description, e.organization, e.link?.absoluteString, e.imageURL?.absoluteString)
        }
    }

    struct Events: Encodable {
        let events: [Event], total: Int, page: Int, perPage: Int, pageCount: Int, catalogueCount: Int
    }

    struct Skipped: Encodable { let row: Int, title: String?, reason: String, detail: String }

    struct Import: Encodable {
        let source: String, rows: Int, new: Int, updated: Int, unchanged: Int, skipped: [Skipped], catalogueCount: Int
        init(_ r: ImportReport) {
            (source, rows, new, updated, unchanged, catalogueCount) = (r.source, r.rows, r.new, r.updated, r.unchanged, r.catalogueCount)
            skipped = r.skipped.map { Skipped(row: $0.row, title: $0.title, reason: $0.reason.code, detail: $0.reason.description) }
        }
    }

    struct Ticket: Encodable {
        let id: String, eventId: String?, title: String, category: String, district: String, place: String, audience: String, free: Bool
        let attendedOn: String, rating: Int?, memo: String?, createdAt: Date
        init(_ t: ArchiveDomain.Ticket) {
            (id, eventId, title, category, district, place, audience, free) = (t.id.rawValue, t.eventID?.rawValue, t.title, t.category, t.district, t.place, t.audience, t.isFree)
            (attendedOn, rating, memo, createdAt) = (t.attendedOn.description, t.rating, t.memo, t.createdAt)
        }
    }

    struct Share: Encodable {
        let name: String, count: Int, weight: Double, share: Double
        init(_ s: TasteShare) { (name, count, weight, share) = (s.name, s.count, round(s.weight), round(s.share)) }
    }

    struct Taste: Encodable {
        struct Weighting: Encodable { let unratedFactor: Double, halfLifeDays: Double }
        let asOf: String, tickets: Int, rated: Int, averageRating: Double?, categories: [Share], districts: [Share], weekdays: [Share]
        let audiences: [Share], freeShare: Double, paidShare: Double, weighting: Weighting
        init(_ p: TasteProfile) {
            (asOf, tickets, rated, averageRating) = (p.asOf.description, p.ticketCount, p.ratedCount, p.averageRating.map(round))
            (categories, districts, weekdays, audiences) = (p.categories.map(Share.init), p.districts.map(Share.init), p.weekdays.map(Share.init), p.audiences.map(Share.init))
            (freeShare, paidShare) = (round(p.free.share), round(p.paid.share))
            weighting = Weighting(unratedFactor: TasteProfile.unratedFactor, halfLifeDays: TasteProfile.halfLifeDays)
        }
    }

    struct Matched: Encodable {
        let district: String?, category: String?
    }

    struct Recommendation: Encodable {
        let rank: Int, event: Event, score: Double, strongestSignal: String, reason: String, contributions: [String: Double]
        /// The chosen district/category the event is in (`null`: none).
        let preference: Matched?
        let preferenceBoost: Double
    }

    struct Recommendations: Encodable {
        /// `basis`: `taste`, `preferences` (cold start) or `blended`.
        let status: String, basis: String, asOf: String, tickets: Int, preferences: PreferenceSet?, recommendations: [Recommendation]
        init(_ list: RecommendationList) {
            (status, basis, asOf, tickets) = (list.status.rawValue, list.basis.rawValue, list.profile.asOf.description, list.profile.ticketCount)
            preferences = list.preferences.map(PreferenceSet.init)
            recommendations = list.items.enumerated().map { index, item in
                Recommendation(rank: index + 1, event: Event(item.event), score: item.score, strongestSignal: item.strongest.rawValue, reason: item.reason,
                               contributions: Dictionary(uniqueKeysWithValues: item.contributions.map { ($0.key.rawValue, round($0.value)) }),
                               preference: item.preference.map { Matched(district: $0.district, category: $0.category) },
                               preferenceBoost: round(item.preferenceBoost))
            }
        }
    }

    struct District: Encodable {
        /// GUNAME, as events store it ("마포구").
        let name: String
        /// "Mapo-gu".
        let romanized: String
        init(_ name: String) { (self.name, romanized) = (name, SeoulDistricts.romanisedName(name)) }
    }

    struct PreferenceSet: Encodable {
        let districts: [District], categories: [String], updatedAt: Date?
        init(_ p: ArchivePreferences) { (districts, categories, updatedAt) = (p.districts.map(District.init), p.categories, p.updatedAt) }
    }

    /// `moa archive preferences --json`: `set` false and empty lists when none are set.
    struct PreferencesShown: Encodable {
        let set: Bool, districts: [District], categories: [String], updatedAt: Date?
        init(_ p: ArchivePreferences?) {
            (set, districts, categories, updatedAt) = (p != nil, p?.districts.map(District.init) ?? [], p?.categories ?? [], p?.updatedAt)
        }
    }

    struct Cleared: Encodable { let cleared: Bool }
    struct Choices: Encodable { let districts: [District], categories: [String] }

    struct Removed: Encodable { let removed: Ticket }
    struct Exported: Encodable { let format: String, tickets: Int, path: String }

    static func make(_ outcome: ArchiveViewModel.Outcome) -> any Encodable {
        switch outcome {
        case .imported(let report): Import(report)
        case .events(let page, let count):
            Events(events: page.events.map(Event.init), total: page.total, page: page.page, perPage: page.perPage, pageCount: page.pageCount,
                   catalogueCount: count)
        case .added(let ticket): Ticket(ticket)
        case .tickets(let tickets): tickets.map(Ticket.init)
        case .removed(let ticket): Removed(removed: Ticket(ticket))
        case .taste(let profile): Taste(profile)
        case .recommendations(let list): Recommendations(list)
        case .exported(let document, let path): Exported(format: document.format.rawValue, tickets: document.ticketCount, path: path ?? "-")
        case .preferences(let preferences): PreferencesShown(preferences)
        case .preferencesSaved(let preferences): PreferencesShown(preferences)
        case .preferencesCleared(let cleared): Cleared(cleared: cleared)
        case .preferenceChoices(let districts, let categories): Choices(districts: districts.map(District.init), categories: categories)
        }
    }

    /// 4 decimals: stable output for scripts.
    static func round(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}

/// What Archive's Feature layer provides: the ticket use cases (bound to the session), "archive
/// this event" for other features, Archive's share of deleting a user (`ArchiveUserDataKey`, for the
/// App's `UserDataOwnersKey`), and the commands.
public struct ArchiveFeatureModule: FeatureModule {
    public let name = "Archive"
    private let timeZone: TimeZone

    /// - Parameter timeZone: where "today" is decided (the user's, by default).
    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    public var providers: [Provider] {
        let timeZone = timeZone
        return [
            .singleton(ArchiveServiceKey.self, requires: TicketStoreKey.self, CatalogueStoreKey.self, PreferenceStoreKey.self, SessionProviderKey.self,
                       WallClockKey.self) {
                ArchiveService(tickets: $0, catalogue: $1, preferences: $2, session: $3, clock: $4, timeZone: timeZone)
            },
            .singleton(EventArchivingKey.self, requires: ArchiveServiceKey.self) { $0 },
            .singleton(ArchiveUserDataKey.self, requires: ArchiveUserDataStoreKey.self) { ArchiveUserData.owner(store: $0) },
            .singleton(ArchiveCommandsKey.self, requires: ArchiveServiceKey.self, CatalogueImporterKey.self, CatalogueSourcesKey.self,
                       EventCatalogueKey.self, SettingsReaderKey.self, ExportWriterKey.self) { service, importer, sources, catalogue, settings, writer in
                FeatureCommands(ArchiveCommand.self, environment: ArchiveEnvironment(service: service, importer: importer, sources: sources,
                                                                                     catalogue: catalogue, settings: settings, writer: writer))
            },
        ]
    }
}
