import CommandKit
import DesignSystem
import InboxDomain
import Registry
import SharedKit

/// The inbox's entry on the interactive home screen (signed-in users).
public enum InboxHomeEntryKey: ServiceKey { public typealias Service = HomeEntry }

/// The inbox in the interactive mode: the newest notices as `moa inbox` shows them, then "mark all
/// as read" (when some are unread) and "older notices" (when there are more), until "back".
enum InboxHome {
    static func entry(service: any InboxUseCases) -> HomeEntry {
        HomeEntry(title: LocalizedText(en: "Inbox", ko: "알림함")) { screen in
            await run(screen, service: service)
        }
    }

    static func run(_ screen: Screen, service: any InboxUseCases) async {
        var before: String?
        while true {
            guard let page = await load(.list(unreadOnly: false, limit: InboxService.defaultLimit, before: before), screen, service),
                case .notices(let notices, _) = page
            else { return }
            screen.show(InboxScreen.renderPage(notices, unreadOnly: false, theme: screen.theme, commandHints: false))
            var options: [(title: String, choice: Choice)] = []
            if notices.unreadCount > 0 { options.append(("Mark all as read", .markAllRead)) }
            if let next = notices.nextBefore { options.append(("Older notices", .older(String(next)))) }
            if before != nil { options.append(("Newest notices", .newest)) }
            guard !options.isEmpty else {
                _ = screen.ask("Press Enter to go back.")
                return
            }
            guard let index = screen.choose("Inbox", options.map(\.title)) else { return }
            switch options[index].choice {
            case .markAllRead:
                guard let outcome = await load(.readAll, screen, service) else { return }
                screen.say(InboxScreen.render(outcome, theme: screen.theme))
                before = nil
            case .older(let next):
                before = next
            case .newest:
                before = nil
            }
        }
    }

    private enum Choice {
        case markAllRead
        case older(String)
        case newest
    }

    /// Runs one input through the view model; shows its error and returns `nil` if it failed.
    private static func load(_ input: InboxViewModel.Input, _ screen: Screen, _ service: any InboxUseCases) async -> InboxViewModel.Outcome?
    {
        let viewModel = InboxViewModel(service: service)
        await viewModel.send(input)
        let state = await viewModel.state
        if let error = state.error {
            screen.showError(error)
            return nil
        }
        return state.outcome
    }
}
