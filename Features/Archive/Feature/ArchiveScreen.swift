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

/// Sends one input and renders the outcome with the design system, or as JSON.
enum ArchiveScreen {
    static func show(
        _ input: ArchiveViewModel.Input, _ environment: ArchiveEnvironment, _ context: CommandContext,
        progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    ) async throws {
        let viewModel = ArchiveViewModel(environment: environment, progress: progress)
        await viewModel.send(input)
        let state = await viewModel.state
        if let error = state.error { throw error }
        guard let outcome = state.outcome else { return }
        if case .exported(let document, nil) = outcome {
            context.writeDocument(document.text) // the document itself is the output, JSON or not
        } else if context.json {
            try context.printJSON(ArchiveJSON.make(outcome))
        } else if case .events = outcome {
            context.printPaged(render(outcome, theme: context.theme)) // a long listing: through the pager on a terminal
        } else {
            context.print(render(outcome, theme: context.theme))
        }
    }

    static func render(_ outcome: ArchiveViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .imported(let report): renderImport(report, theme: theme)
        case .events(let page, let count): renderEvents(page, catalogueCount: count, theme: theme)
        case .added(let ticket):
            theme.paint(
                "Archived “\(ticket.title)” (attended \(ticket.attendedOn)\(ticket.rating.map { ", rated \($0)/5" } ?? "")) as ticket \(shortID(ticket.id)).",
                .success)
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
            cleared
                ? "Cleared your preferences: recommendations come from your tickets alone."
                : theme.paint("You had no preferences to clear.", .muted)
        case .preferenceChoices(let districts, let categories): renderChoices(districts: districts, categories: categories, theme: theme)
        }
    }

    /// The one line said on standard error when the API key is given with `--api-key` (never the key).
    static func warnVisibleKey(_ context: CommandContext) {
        context.err.write(
            context.errorTheme.paint(
                "warning: --api-key puts your key where other users see it in `ps` and your shell keeps it in its history; "
                    + "store it with `moa settings set archive.api-key --value-stdin` and use --api.", .warning) + "\n")
    }

    static let setPreferencesHint =
        "`moa archive preferences set --districts Mapo-gu,Jongno-gu --categories 전시/미술` (choices: `moa archive preferences choices`)"

    static func renderPreferences(_ preferences: ArchivePreferences?, theme: Theme) -> String {
        guard let preferences else {
            return theme.paint("No preferences set: choose 1–3 districts and 1–3 categories with \(setPreferencesHint).", .muted)
        }
        var rows: [KeyValueRows.Row] = [
            .init("Districts", preferences.districts.map(SeoulDistricts.label).joined(separator: ", ")),
            .init("Categories", preferences.categories.joined(separator: ", ")),
        ]
        if let updated = preferences.updatedAt { rows.append(.init("Updated", Day(updated, in: .gmt).description)) }
        let note = theme.paint(
            "Recommendations come from these until you have \(Recommender.coldStartTickets) tickets, then events matching them get a boost.",
            .muted)
        return Card(title: "Your preferences", lines: KeyValueRows(rows).render(theme: theme).components(separatedBy: "\n")).render(
            theme: theme)
            + "\n" + note
    }

    static func renderChoices(districts: [String], categories: [String], theme: Theme) -> String {
        var lines = [theme.paint("Districts (--districts, Korean or romanised)", .heading)]
        lines += districts.map { "  " + SeoulDistricts.label($0) }
        lines += ["", theme.paint("Categories (--categories, the catalogue's CODENAME values)", .heading)]
        lines += categories.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    static let emptyCatalogue =
        "The catalogue is empty: import one with `moa archive import FILE.json` (culturalEventInfo format from data.seoul.go.kr) or `moa archive import --api`."
    static let noTickets =
        "No tickets yet: archive an event you attended with `moa archive add EVENT_ID` (find ids with `moa archive events`), or by hand with `moa archive add --title T --category C --region DISTRICT --date YYYY-MM-DD`."

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
        var table = Table(
            columns: [.init("ID"), .init("Dates"), .init("Title", maxWidth: 36), .init("Category"), .init("District"), .init("Fee")],
            emptyMessage: page.total == 0
                ? "No event matches these filters (\(catalogueCount) in the catalogue)."
                : "Page \(page.page) is past the last page (\(page.pageCount)).")
        for event in page.events {
            table.append([
                event.id.rawValue, dates(event), event.title, event.category, event.district.isEmpty ? "—" : event.district,
                event.isFree ? "free" : "paid",
            ])
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
        var table = Table(
            columns: [
                .init("ID"), .init("Attended"), .init("Title", maxWidth: 36), .init("Category"), .init("District"),
                .init("Fee"), .init("Rating", alignment: .right), .init("Event"),
            ],
            emptyMessage: noTickets)
        for ticket in tickets {
            table.append([
                shortID(ticket.id), ticket.attendedOn.description, ticket.title, ticket.category,
                ticket.district.isEmpty ? "—" : ticket.district,
                ticket.isFree ? "free" : "paid", ticket.rating.map { "\($0)/5" } ?? "—", ticket.eventID?.rawValue ?? "by hand",
            ])
        }
        return table.render(theme: theme)
    }

    static func renderRecommendations(_ list: RecommendationList, theme: Theme) -> String {
        switch list.status {
        case .noTickets:
            return theme.paint(
                "Nothing to recommend yet: recommendations come from your tickets. " + noTickets.dropFirst("No tickets yet: ".count), .muted
            )
                + "\n" + theme.paint("Or tell moa what you like: \(setPreferencesHint).", .muted)
        case .noCandidates where list.basis == .preferences:
            let chosen = (list.preferences.map { $0.districts.map(SeoulDistricts.romanisedName) + $0.categories } ?? []).joined(
                separator: ", ")
            return theme.paint(
                "No current or upcoming event you have not archived is in your chosen districts or categories (\(chosen)): "
                    + "choose others with `moa archive preferences set`, or import a fresh catalogue with `moa archive import`.", .muted)
        case .noCandidates:
            return theme.paint(
                "No current or upcoming event in the catalogue matches your taste (or you archived them all): import a fresh catalogue with `moa archive import`.",
                .muted)
        case .ok:
            let count = list.profile.ticketCount
            let tickets = "your \(count) ticket\(count == 1 ? "" : "s")"
            let source =
                switch list.basis {
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
                lines.append(
                    "\(rank) \(theme.paint(event.title, .heading))  " + theme.paint("score \(Int((item.score * 100).rounded()))", .accent))
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

/// The `--json` shapes (documented, stable snake_case field names).
enum ArchiveJSON {
    static func make(_ outcome: ArchiveViewModel.Outcome) -> any Encodable {
        switch outcome {
        case .imported(let report): Import(report)
        case .events(let page, let count):
            Events(
                events: page.events.map(Event.init), total: page.total, page: page.page, perPage: page.perPage, pageCount: page.pageCount,
                catalogueCount: count)
        case .added(let ticket): TicketRecord(ticket)
        case .tickets(let tickets): tickets.map(TicketRecord.init)
        case .removed(let ticket): Removed(removed: TicketRecord(ticket))
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
