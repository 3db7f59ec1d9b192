import ArgumentParser
import AuthDomain
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import SharedKit
import ViewModelKit

extension AuthCommand {
    /// `moa auth password …`
    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "password",
            abstract: "Change your password, or reset a forgotten one with a mailed code.",
            subcommands: [ChangePassword.self, ResetPassword.self]
        )
    }

    /// `moa auth password change`
    struct ChangePassword: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "change",
            abstract: "Change your password; every other session is logged out.",
            discussion: """
                On a terminal you are asked for the current password, then the new one twice, without echo. \
                With --password-stdin, standard input holds two lines: the current password, then the new one. \
                The new password follows the sign-up rules (15 to 128 characters, not a common one, not containing \
                your e-mail's name) and must differ from the current one. A wrong current password counts as a \
                failed login. On success every session of your account ends; this terminal's session continues \
                with new tokens (copies of the old session file stop working).
                """
        )
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Read two lines from standard input: the current password, then the new one.") var passwordStdin = false

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            _ = try await environment.sessions.requireUser() // before asking for anything
            let source = SecretInput.source(passwordStdin: passwordStdin)
            let current = try SecretInput.read("Current password: ", from: source, context: context)
            let new: String
            do {
                new = try SecretInput.read("New password: ", from: source, context: context)
            } catch CommandError.usage where source == .standardInput {
                throw CommandError.usage("--password-stdin needs two lines: the current password, then the new one.")
            }
            let repeated = source == .prompt ? try SecretInput.read("Repeat the new password: ", from: source, context: context) : nil
            try await AccountSecurityScreen.show(.changePassword(current: current, new: new, repeated: repeated), environment, context)
        }
    }

    /// `moa auth password reset`
    struct ResetPassword: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Reset a forgotten password: first mail a code, then set a new password with it.",
            discussion: """
                Step 1: `moa auth password reset --email E` mails a code (to $MOA_HOME/outbox/) if E has a verified \
                account; the answer is the same whether or not it has one. Step 2: `moa auth password reset --email E \
                --code CODE` asks for the new password twice without echo (or reads one line with --password-stdin). \
                The code works for 10 minutes and 5 tries; a new request replaces it. Afterwards every session of the \
                account is logged out: log in with the new password.
                """
        )
        @OptionGroup var global: GlobalOptions
        @Option(help: "The e-mail address of the account.") var email: String
        @Option(help: "The 6-digit code from the reset e-mail.") var code: String?
        @Flag(help: "With --code: read the new password from the first line of standard input.") var passwordStdin = false

        func validate() throws {
            if passwordStdin, code == nil {
                throw ValidationError("--password-stdin goes with --code: the new password is set with the mailed code.")
            }
        }

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            guard let code else {
                try await AccountSecurityScreen.show(.requestReset(email: email), environment, context)
                return
            }
            let source = SecretInput.source(passwordStdin: passwordStdin)
            let new = try SecretInput.read("New password: ", from: source, context: context)
            let repeated = source == .prompt ? try SecretInput.read("Repeat the new password: ", from: source, context: context) : nil
            try await AccountSecurityScreen.show(
                .resetPassword(email: email, code: code, new: new, repeated: repeated), environment, context)
        }
    }

    /// `moa auth delete`
    struct Delete: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete your account and everything Moa keeps about it.",
            discussion: """
                You confirm by typing the e-mail address you are logged in with (or pass it with --confirm for \
                scripts); anything else changes nothing. If a feature still holds something that must not vanish \
                (for example an account with money in it) nothing is deleted and every reason is listed. \
                Afterwards the address can sign up again.
                """
        )
        @OptionGroup var global: GlobalOptions
        @Option(help: "Your e-mail address, to confirm without a prompt.") var confirm: String?

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            let confirmation: String
            if let confirm {
                confirmation = confirm
            } else {
                let user = try await environment.deletion.userToDelete()
                guard context.isInteractive else {
                    throw CommandError.usage("There is no terminal to confirm on: pass your e-mail address with --confirm EMAIL.")
                }
                context.err.write(
                    context.text(
                        LocalizedText(
                            en:
                                "This deletes the account \(user.email) and all its data; it cannot be undone.\nType your e-mail address to confirm: ",
                            ko: "\(user.email) 계정과 모든 데이터를 삭제합니다. 되돌릴 수 없습니다.\n확인하려면 이메일 주소를 입력하세요: ")))
                confirmation = Swift.readLine(strippingNewline: true) ?? ""
            }
            try await AccountSecurityScreen.show(.deleteAccount(confirmation: confirmation), environment, context)
        }
    }
}

/// The `--json` shape of `moa auth password …` and `moa auth delete`. Never carries a password,
/// a code or a token.
struct AccountSecurityOutput: Encodable {
    /// `password-changed`, `reset-code-requested`, `password-reset` or `deleted`.
    var status: String
    var email: String
    var userId: String?
    /// `password-changed`: `others-revoked-this-reissued`; `password-reset`: `all-revoked`.
    var sessions: String?
    /// `deleted`: the features whose data was erased, Auth last.
    var erased: [String]?

    init(_ outcome: AccountSecurityViewModel.Outcome) {
        switch outcome {
        case .passwordChanged(let user):
            self.init(status: "password-changed", email: user.email, userId: user.id.rawValue, sessions: "others-revoked-this-reissued")
        case .resetRequested(let email):
            self.init(status: "reset-code-requested", email: email)
        case .passwordReset(let user):
            self.init(status: "password-reset", email: user.email, userId: user.id.rawValue, sessions: "all-revoked")
        case .deleted(let report):
            self.init(status: "deleted", email: report.user.email, userId: report.user.id.rawValue, erased: report.erased)
        }
    }

    private init(status: String, email: String, userId: String? = nil, sessions: String? = nil, erased: [String]? = nil) {
        self.status = status
        self.email = email
        self.userId = userId
        self.sessions = sessions
        self.erased = erased
    }
}
