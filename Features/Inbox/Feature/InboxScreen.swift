import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import InboxDomain
import InboxInterface
import Registry
import SharedKit

/// Sends one input and renders the outcome with the design system, or as JSON.
enum InboxScreen {
    static func show(_ input: InboxViewModel.Input, _ environment: InboxEnvironment, _ context: CommandContext) async throws {
        let viewModel = InboxViewModel(service: environment.service)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(
            state.outcome, error: state.error, json: InboxJSON.make,
            paged: { if case .notices = $0 { true } else { false } }
        ) { render($0, theme: context.theme) }
    }

    /// The mark of an unread notice.
    static let unreadMark = "●"

    static func render(_ outcome: InboxViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .notices(let page, let unreadOnly):
            return renderPage(page, unreadOnly: unreadOnly, theme: theme)
        case .read(let result):
            let title = "“\(result.notice.title)”"
            let status =
                result.wasUnread
                ? theme.paint("Marked notice \(result.notice.id) as read: \(title).", .success)
                : "Notice \(result.notice.id) (\(title)) was already read."
            // The list cuts long details to fit; reading one shows them whole.
            return status + "\n" + result.notice.body
        case .readAll(let count):
            switch count {
            case 0: return "Nothing to mark: you have no unread notices."
            case 1: return theme.paint("Marked 1 notice as read.", .success)
            default: return theme.paint("Marked \(count) notices as read.", .success)
            }
        }
    }

    /// `commandHints`: end with the commands for more and for marking read (not in the interactive mode,
    /// which offers them as choices).
    static func renderPage(_ page: InboxPage, unreadOnly: Bool, theme: Theme, commandHints: Bool = true) -> String {
        let empty =
            unreadOnly
            ? "No unread notices: you are all caught up."
            : "Your inbox is empty: notices about money you receive, large transfers you send and sign-ins to your account will appear here."
        var table = Table(
            columns: [
                .init(""), .init("ID", alignment: .right), .init("Date"), .init("Notice", maxWidth: 40),
                .init("Details", maxWidth: 60),
            ],
            emptyMessage: empty)
        for notice in page.notices {
            table.append([
                notice.isRead ? "" : theme.paint(unreadMark, .accent), String(notice.id), DateText.minute(notice.createdAt),
                notice.title, notice.body,
            ])
        }
        var lines = [theme.paint("Inbox", .heading) + " · " + unreadSummary(page.unreadCount), table.render(theme: theme)]
        if commandHints, let next = page.nextBefore {
            lines.append(theme.paint("More: moa inbox\(unreadOnly ? " --unread" : "") --before \(next)", .muted))
        }
        if commandHints, page.unreadCount > 0, !page.notices.isEmpty {
            lines.append(theme.paint("Read one in full (and mark it read): moa inbox read ID · mark all: moa inbox read --all", .muted))
        }
        return lines.joined(separator: "\n")
    }

    static func unreadSummary(_ count: Int) -> String {
        switch count {
        case 0: "nothing unread"
        default: "\(count) unread"
        }
    }
}
