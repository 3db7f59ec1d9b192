import ArgumentParser
import AuthDomain
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import SharedKit

/// The interactive mode's PIN prompt, shown before the home when the session's user has a PIN.
public enum PinUnlockScreen {
    /// Asks for the PIN when the session needs it (hidden on a terminal). Returns `false` when the
    /// person quit at the prompt (an empty line, or the end of input) or the unlock could not run:
    /// the interactive mode then ends. Returns `true` to go on to the home — unlocked, nothing to
    /// unlock, or the session ended after too many wrong PINs (the home then offers the sign-in).
    public static func run(_ screen: Screen, _ unlocker: any SessionUnlocker) async -> Bool {
        let viewModel = PinUnlockViewModel(unlocker: unlocker)
        await viewModel.send(.start)
        var greeted = false
        while true {
            let state = await viewModel.state
            if let error = state.error { screen.showError(error) }
            switch state.phase {
            case .open, .sessionEnded:
                return true
            case .starting, .failed:
                return false
            case .needsPin(let user, _):
                if !greeted {
                    screen.say(
                        screen.context.text(
                            LocalizedText(
                                en: "Welcome back, \(user.email). Enter your PIN to continue (an empty line quits).",
                                ko: "\(user.email)님, 다시 오셨네요. 계속하려면 PIN을 입력하세요(비우면 끝냅니다).")))
                    greeted = true
                }
                guard let pin = screen.askSecret(screen.context.text(LocalizedText(en: "Enter your PIN:", ko: "PIN 입력:"))),
                    !pin.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                else { return false }
                await viewModel.send(.enter(pin: pin))
            }
        }
    }
}
