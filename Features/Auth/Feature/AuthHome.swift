import AuthDomain
import AuthInterface
import CommandKit
import Registry
import SharedKit

/// Auth's entries in the interactive home: log in or sign up when nobody is, log out when someone is.
public enum AuthSignInEntryKey: ServiceKey { public typealias Service = HomeEntry }
public enum AuthSignOutEntryKey: ServiceKey { public typealias Service = HomeEntry }

enum AuthHome {
    static func signIn(_ environment: AuthEnvironment) -> HomeEntry {
        HomeEntry(title: LocalizedText(en: "Log in or sign up", ko: "로그인 또는 회원가입"), audience: .signedOut) { screen in
            let choice = screen.choose(
                screen.context.text(LocalizedText(en: "Welcome to Moa", ko: "모아에 오신 것을 환영합니다")),
                [
                    screen.context.text(LocalizedText(en: "Log in", ko: "로그인")),
                    screen.context.text(LocalizedText(en: "Sign up", ko: "회원가입")),
                ])
            switch choice {
            case 0?: await logIn(screen, environment)
            case 1?: await signUp(screen, environment)
            default: return
            }
        }
    }

    static func signOut(_ environment: AuthEnvironment) -> HomeEntry {
        HomeEntry(title: LocalizedText(en: "Log out", ko: "로그아웃"), audience: .signedIn) { screen in
            await run(.logOut(everywhere: false), screen, environment)
        }
    }

    static func logIn(_ screen: Screen, _ environment: AuthEnvironment) async {
        guard let email = screen.ask(screen.context.text(LocalizedText(en: "E-mail:", ko: "이메일:"))),
            let password = screen.askSecret(screen.context.text(LocalizedText(en: "Password:", ko: "비밀번호:")))
        else { return }
        await run(.logIn(email: email, password: password), screen, environment)
    }

    static func signUp(_ screen: Screen, _ environment: AuthEnvironment) async {
        guard let email = screen.ask(screen.context.text(LocalizedText(en: "E-mail:", ko: "이메일:"))),
            let password = screen.askSecret(
                screen.context.text(LocalizedText(en: "Password (15 characters or more):", ko: "비밀번호(15자 이상):"))),
            let repeated = screen.askSecret(screen.context.text(LocalizedText(en: "Repeat the password:", ko: "비밀번호 확인:")))
        else { return }
        guard await run(.signUp(email: email, password: password, repeated: repeated), screen, environment) else { return }
        while let code = screen.ask(
            screen.context.text(LocalizedText(en: "Code from the e-mail (empty to stop):", ko: "이메일의 인증 코드(비우면 중단):"))),
            !code.isEmpty
        {
            if await run(.verify(email: email, code: code, password: password, repeated: nil), screen, environment) {
                await run(.logIn(email: email, password: password), screen, environment)
                return
            }
        }
    }

    /// Sends one input to the same view model the commands use; shows the outcome or the error.
    @discardableResult
    static func run(_ input: AuthViewModel.Input, _ screen: Screen, _ environment: AuthEnvironment) async -> Bool {
        let viewModel = AuthViewModel(registration: environment.registration, sessions: environment.sessions)
        await viewModel.send(input)
        let state = await viewModel.state
        if let error = state.error {
            screen.showError(error)
            return false
        }
        if let outcome = state.outcome { screen.show(AuthScreen.render(outcome, theme: screen.theme)) }
        return true
    }
}
