import Foundation
import SharedKit

/// One reason a feature gives for not deleting the user yet (from `UserDataOwner.deletionBlockers`).
public struct DeletionBlocker: Sendable, Equatable {
    /// The feature, e.g. "Account".
    public let owner: String
    /// One sentence, e.g. "Account 110-1234-5678-9 holds ₩50,000."
    public let reason: String

    public init(owner: String, reason: String) {
        self.owner = owner
        self.reason = reason
    }
}

/// Refusals of `moa auth password …` and `moa auth delete`, each one sentence without any secret,
/// in English and Korean.
public enum AccountSecurityError: Error, LocalizedUserFacingError, Equatable {
    /// `password change`: the current password typed is not the account's (counts as a failed login).
    case wrongCurrentPassword
    /// `password change`: the new password is the current one.
    case samePassword
    /// `password reset --code`: wrong, expired or used up — and also what an unknown address gets.
    case resetCodeInvalid
    /// `password reset --code`: this client entered too many wrong codes for the address, known or
    /// not (only this client waits; wrong passwords never count here).
    case resetLocked(until: Date)
    /// `delete`: what was typed is not the logged-in user's e-mail address.
    case deletionNotConfirmed
    /// `delete`: at least one feature still holds something that must not vanish.
    case deletionBlocked([DeletionBlocker])

    public var message: String { localizedMessage.en }

    public var localizedMessage: LocalizedText {
        switch self {
        case .wrongCurrentPassword:
            LocalizedText(en: "The current password is wrong.", ko: "현재 비밀번호가 틀렸습니다.")
        case .samePassword:
            LocalizedText(en: "The new password must differ from the current one.", ko: "새 비밀번호는 현재 비밀번호와 달라야 합니다.")
        case .resetCodeInvalid:
            LocalizedText(en: "The reset code is wrong or has expired.", ko: "재설정 코드가 틀렸거나 만료되었습니다.")
        case .resetLocked(let until):
            LocalizedText(
                en: "Too many wrong codes for this address from here: no code is accepted from here before \(AuthError.time(until)).",
                ko: "이곳에서 이 주소로 틀린 코드가 너무 많았습니다: \(AuthError.time(until))까지 이곳의 코드를 받지 않습니다.")
        case .deletionNotConfirmed:
            LocalizedText(
                en: "The confirmation does not match your e-mail address, so nothing was deleted.",
                ko: "확인 입력이 이메일 주소와 일치하지 않아 아무것도 삭제하지 않았습니다.")
        case .deletionBlocked(let blockers):
            LocalizedText(
                en: "Your account cannot be deleted yet: \(Self.list(blockers))",
                ko: "아직 계정을 삭제할 수 없습니다: \(Self.list(blockers))")
        }
    }

    public var hint: String? {
        switch self {
        case .wrongCurrentPassword: "Forgot it? Log out and run `moa auth password reset --email …`."
        case .resetCodeInvalid: "Ask for a new code with `moa auth password reset --email …` and use the newest one."
        case .resetLocked: "Then ask for a new code with `moa auth password reset --email …` and use the newest one."
        case .deletionNotConfirmed: "Type the e-mail address you are logged in with (`moa auth whoami`), or pass it with --confirm."
        case .deletionBlocked: "Nothing was deleted. Resolve each point above, then run `moa auth delete` again."
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .wrongCurrentPassword, .resetCodeInvalid: .noPermission
        case .samePassword, .deletionNotConfirmed: .dataError
        case .deletionBlocked: .refused
        case .resetLocked: .temporaryFailure
        }
    }

    /// "Account 110-… holds ₩50,000. A transfer is pending.": every blocker's sentence, in owner order
    /// (each sentence names what it is about, so the owner's name would only repeat it).
    private static func list(_ blockers: [DeletionBlocker]) -> String {
        blockers.map { blocker in
            let reason = blocker.reason.trimmingCharacters(in: .whitespacesAndNewlines)
            return reason.hasSuffix(".") || reason.hasSuffix("!") || reason.hasSuffix("?") ? reason : reason + "."
        }.joined(separator: " ")
    }
}
