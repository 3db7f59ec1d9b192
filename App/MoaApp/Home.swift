import AuthFeature
import AuthInterface
import CommandKit
import DesignSystem
import SharedKit

/// What the interactive home runs with: every feature's entries, and who is logged in.
struct HomeEnvironment: Sendable {
    let entries: [HomeEntry]
    let session: any SessionProvider
    /// Asks for the PIN before the home when the session's user has one.
    let unlocker: any SessionUnlocker
}

/// The interactive mode's first screen: who is logged in, and the features' entries for them.
/// Each entry's flow belongs to its feature (and its coordinator); the home only lists them.
enum Home {
    static func run(_ environment: HomeEnvironment, _ screen: Screen) async {
        let context = screen.context
        // A live session whose user has a PIN is unlocked first; quitting at the prompt ends here.
        guard await PinUnlockScreen.run(screen, environment.unlocker) else {
            screen.say(context.text(LocalizedText(en: "Bye.", ko: "안녕히 가세요.")))
            return
        }
        while true {
            let user = try? await environment.session.currentUser()
            let visible = environment.entries.filter { entry in
                switch entry.audience {
                case .anyone: true
                case .signedIn: user != nil
                case .signedOut: user == nil
                }
            }
            let who =
                user.map { context.text(LocalizedText(en: "Logged in as \($0.email)", ko: "\($0.email)(으)로 로그인됨")) }
                ?? context.text(LocalizedText(en: "Not logged in", ko: "로그인하지 않음"))
            screen.show(Card(title: "moa \(MoaVersion.current) · 모아", lines: [who]).render(theme: screen.theme))
            guard
                let choice = screen.choose(
                    context.text(LocalizedText(en: "What would you like to do?", ko: "무엇을 할까요?")),
                    visible.map { context.text($0.title) },
                    back: context.text(LocalizedText(en: "Quit", ko: "끝내기")))
            else {
                screen.say(context.text(LocalizedText(en: "Bye.", ko: "안녕히 가세요.")))
                return
            }
            // A flow may lead into another feature's entry by its id ("archive this event" → the
            // archive), among those this user may open now.
            await visible[choice].open(screen.linking(visible))
        }
    }
}
