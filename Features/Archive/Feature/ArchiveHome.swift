import ArchiveDomain
import ArchiveInterface
import CommandKit
import DesignSystem
import Registry
import SharedKit

/// The archive's entry on the interactive home screen (signed-in users).
public enum ArchiveHomeEntryKey: ServiceKey { public typealias Service = HomeEntry }

/// The archive in the interactive mode — the archive tab of the app it comes from: tickets, the
/// taste card, recommendations and preferences, each through the same view model and screens as
/// `moa archive list | taste | recommend | preferences`, until "back".
enum ArchiveHome {
    static func entry(environment: ArchiveEnvironment) -> HomeEntry {
        HomeEntry(
            title: LocalizedText(en: "My archive (tickets, taste, what to see next)", ko: "내 보관함 (티켓, 취향, 추천)"), id: ArchiveHomeLink.id
        ) {
            screen in
            await run(screen, environment: environment)
        }
    }

    static func run(_ screen: Screen, environment: ArchiveEnvironment) async {
        let text = { (en: String, ko: String) in screen.context.text(LocalizedText(en: en, ko: ko)) }
        while true {
            let choice = screen.choose(
                text("My archive", "내 보관함"),
                [
                    text("Tickets", "티켓"), text("Taste card", "취향 카드"), text("What to see next", "추천"),
                    text("Preferences", "선호 설정"),
                ])
            switch choice {
            case 0?: await show(.list, screen, environment)
            case 1?: await show(.taste, screen, environment)
            case 2?: await show(.recommend(limit: 10), screen, environment)
            case 3?: await preferences(screen, environment)
            default: return
            }
        }
    }

    /// Preferences: shown, then set (districts and categories asked for, the choices listed first) or cleared.
    private static func preferences(_ screen: Screen, _ environment: ArchiveEnvironment) async {
        let text = { (en: String, ko: String) in screen.context.text(LocalizedText(en: en, ko: ko)) }
        guard await show(.showPreferences, screen, environment, wait: false) else { return }
        let choice = screen.choose(
            text("Preferences", "선호 설정"), [text("Set districts and categories", "지역과 분야 정하기"), text("Clear them", "지우기")])
        switch choice {
        case 0?:
            guard await show(.preferenceChoices, screen, environment, wait: false),
                let districts = screen.ask(text("Districts, separated by commas (empty: none):", "지역 (쉼표로 구분, 비우면 없음):")),
                let categories = screen.ask(text("Categories, separated by commas (empty: none):", "분야 (쉼표로 구분, 비우면 없음):"))
            else { return }
            await show(.setPreferences(districts: districts, categories: categories), screen, environment, wait: false)
        case 1?:
            await show(.clearPreferences, screen, environment, wait: false)
        default:
            return
        }
    }

    /// Runs `input` through the view model and shows the outcome as the command would (or its
    /// error); with `wait`, then waits for Enter. Whether it succeeded.
    @discardableResult
    private static func show(_ input: ArchiveViewModel.Input, _ screen: Screen, _ environment: ArchiveEnvironment, wait: Bool = true) async
        -> Bool
    {
        let viewModel = ArchiveViewModel(environment: environment)
        await viewModel.send(input)
        let state = await viewModel.state
        if let error = state.error {
            screen.showError(error)
            return false
        }
        guard let outcome = state.outcome else { return false }
        screen.show(ArchiveScreen.render(outcome, theme: screen.theme))
        if wait { _ = screen.ask(screen.context.text(LocalizedText(en: "Press Enter to go back.", ko: "돌아가려면 Enter를 누르세요."))) }
        return true
    }
}
