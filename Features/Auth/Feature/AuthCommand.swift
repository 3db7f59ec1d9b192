import ArgumentParser
import AuthDomain
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Registry

/// Auth's command group, collected by the App's root.
public enum AuthCommandsKey: ServiceKey {
    public typealias Service = FeatureCommands
}

/// What Auth's commands run with.
public struct AuthEnvironment: Sendable {
    let registration: any RegistrationUseCases
    let sessions: SessionManager
    let pins: PinService
    let passwordReset: any PasswordResetUseCases
    let deletion: any AccountDeletionUseCases
}

/// `moa auth …`
public struct AuthCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Sign up, verify your e-mail, log in and out, change or reset your password, delete your account.",
        subcommands: [SignUp.self, Verify.self, LogIn.self, LogOut.self, WhoAmI.self, Pin.self, Password.self, Delete.self]
    )

    public init() {}

    struct SignUp: ServiceCommand, ServerChoosingCommand {
        static let configuration = CommandConfiguration(
            commandName: "signup",
            abstract: "Create an account; a verification code is mailed to you.",
            discussion:
                "On a terminal the password is asked twice, without echo. Passwords: 15 to 128 characters, not a common one, not containing your e-mail's name."
        )
        @OptionGroup var global: GlobalOptions
        @OptionGroup var serverOptions: ServerOptions
        @Option(help: "Your e-mail address.") var email: String
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            let source = SecretInput.source(passwordStdin: passwordStdin)
            let password = try SecretInput.read("Password: ", from: source, context: context)
            let repeated = source == .prompt ? try SecretInput.read("Repeat the password: ", from: source, context: context) : nil
            try await AuthScreen.show(.signUp(email: email, password: password, repeated: repeated), environment, context)
        }
    }

    struct Verify: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Enter the code from the verification e-mail with your password (or --resend for a new code).",
            discussion:
                "Whoever holds the mailed code chooses the account's password: it is asked here (twice, without echo, on a terminal), and is the one to log in with."
        )
        @OptionGroup var global: GlobalOptions
        @Option(help: "Your e-mail address.") var email: String
        @Option(help: "The 6-digit code from the e-mail.") var code: String?
        @Flag(help: "Mail a new code (the old one stops working).") var resend = false
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

        func validate() throws {
            guard (code != nil) != resend else {
                throw ValidationError("Give either --code CODE or --resend.")
            }
        }

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            if resend {
                try await AuthScreen.show(.resendCode(email: email), environment, context)
            } else {
                // The address and the code are checked before a password is asked for.
                _ = try EmailAddress(email)
                _ = try Registration.code(code ?? "")
                let source = SecretInput.source(passwordStdin: passwordStdin)
                let password = try SecretInput.read("Password for the account: ", from: source, context: context)
                let repeated = source == .prompt ? try SecretInput.read("Repeat the password: ", from: source, context: context) : nil
                try await AuthScreen.show(
                    .verify(email: email, code: code ?? "", password: password, repeated: repeated), environment, context)
            }
        }
    }

    struct LogIn: ServiceCommand, ServerChoosingCommand {
        static let configuration = CommandConfiguration(
            commandName: "login", abstract: "Log in; the session lasts 14 days unless you log out.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var serverOptions: ServerOptions
        @Option(help: "Your e-mail address.") var email: String
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            let password = try SecretInput.read("Password: ", from: SecretInput.source(passwordStdin: passwordStdin), context: context)
            try await AuthScreen.show(.logIn(email: email, password: password), environment, context)
        }
    }

    struct LogOut: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "logout", abstract: "Log out of this session, or of every session with --all.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Revoke every session of your account, on every device.") var all = false

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            try await AuthScreen.show(.logOut(everywhere: all), environment, context)
        }
    }

    struct WhoAmI: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who is logged in.")
        @OptionGroup var global: GlobalOptions

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            try await AuthScreen.show(.whoAmI, environment, context)
        }
    }
}

/// The `--json` shape of every auth command. Never carries a token, a code or a password.
struct AuthOutput: Encodable {
    var status: String
    var email: String?
    var userId: String?
    var verificationMail: String?
    var sessionUntil: Date?
    var everywhere: Bool?

    init(_ outcome: AuthViewModel.Outcome) {
        switch outcome {
        case .codeSent(let email, let location):
            self.init(status: "code-sent", email: email, verificationMail: location)
        case .verified(let email):
            self.init(status: "verified", email: email)
        case .loggedIn(let user):
            self.init(status: "logged-in", email: user.email, userId: user.id.rawValue)
        case .loggedOut(let user, let everywhere):
            self.init(
                status: user == nil ? "not-logged-in" : "logged-out", email: user?.email, userId: user?.id.rawValue, everywhere: everywhere)
        case .session(let user, let validUntil):
            self.init(status: "logged-in", email: user.email, userId: user.id.rawValue, sessionUntil: validUntil)
        }
    }

    private init(
        status: String, email: String? = nil, userId: String? = nil, verificationMail: String? = nil,
        sessionUntil: Date? = nil, everywhere: Bool? = nil
    ) {
        self.status = status
        self.email = email
        self.userId = userId
        self.verificationMail = verificationMail
        self.sessionUntil = sessionUntil
        self.everywhere = everywhere
    }
}
