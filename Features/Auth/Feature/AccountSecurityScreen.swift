import ArgumentParser
import AuthDomain
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import SharedKit
import ViewModelKit

/// Sends one input to the view model and renders the outcome, or JSON.
enum AccountSecurityScreen {
    static func show(_ input: AccountSecurityViewModel.Input, _ environment: AuthEnvironment, _ context: CommandContext) async throws {
        let viewModel = AccountSecurityViewModel(
            sessions: environment.sessions, reset: environment.passwordReset, deletion: environment.deletion)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(state.outcome, error: state.error, json: AccountSecurityOutput.init) {
            render($0, theme: context.theme, language: context.language)
        }
    }

    static func render(_ outcome: AccountSecurityViewModel.Outcome, theme: Theme, language: AppLanguage) -> String {
        switch outcome {
        case .passwordChanged(let user):
            return theme.paint(
                LocalizedText(en: "Password changed for \(user.email).", ko: "\(user.email)의 비밀번호를 바꿨습니다.")(language), .success)
                + "\n"
                + LocalizedText(
                    en: "Every other session is logged out; this one continues with new tokens.",
                    ko: "다른 세션은 모두 로그아웃되었고, 이 세션은 새 토큰으로 계속됩니다.")(language)
        case .resetRequested(let email):
            return LocalizedText(
                en: "If \(email) has a verified account, a reset code is on its way to it (see the outbox folder).",
                ko: "\(email)에 인증된 계정이 있다면 재설정 코드를 보냈습니다(outbox 폴더를 확인하세요).")(language)
                + "\n" + theme.paint("Next: moa auth password reset --email \(email) --code CODE", .muted)
        case .passwordReset(let user):
            return theme.paint(
                LocalizedText(en: "Password reset for \(user.email).", ko: "\(user.email)의 비밀번호를 재설정했습니다.")(language), .success)
                + "\n" + LocalizedText(en: "Every session is logged out.", ko: "모든 세션이 로그아웃되었습니다.")(language)
                + "\n" + theme.paint("Next: moa auth login --email \(user.email)", .muted)
        case .deleted(let report):
            return theme.paint(
                LocalizedText(
                    en: "Deleted the account \(report.user.email) and its data (\(report.erased.joined(separator: ", "))).",
                    ko: "\(report.user.email) 계정과 데이터를 삭제했습니다(\(report.erased.joined(separator: ", "))).")(language),
                .success)
                + "\n" + LocalizedText(en: "You are logged out.", ko: "로그아웃되었습니다.")(language)
        }
    }
}
