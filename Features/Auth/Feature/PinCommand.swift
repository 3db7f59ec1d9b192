import ArgumentParser
import AuthDomain
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import SharedKit

extension AuthCommand {
    /// `moa auth pin …`
    struct Pin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pin",
            abstract: "Set or remove the PIN that unlocks the interactive mode.",
            discussion: """
                With a PIN, `moa` (the interactive mode) asks for it instead of nothing when your session is \
                still valid. Five wrong PINs in a row end the session: then you log in with your password.
                """,
            subcommands: [SetPin.self, RemovePin.self, PinStatusCommand.self]
        )
    }

    struct SetPin: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set (or change) your PIN; you must be logged in.",
            discussion: """
                On a terminal the PIN is asked twice, without echo. A PIN is exactly 6 digits; refused are one \
                digit repeated (000000, 111111, …) and runs of consecutive digits up or down, where 9 wraps \
                round to 0 (123456, 987654, 890123, 109876, …).
                """
        )
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Read the PIN from standard input: two lines, the PIN and the PIN again.") var pinStdin = false

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            _ = try await environment.sessions.requireUser() // before asking for anything
            let (pin, repeated) = try PinEntry.readTwice(fromStandardInput: pinStdin, context: context)
            try await PinScreen.show(.set(pin: pin, repeated: repeated), environment, context)
        }
    }

    struct RemovePin: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove your PIN, confirming with the PIN or your password.",
            discussion: """
                On a terminal your current PIN is asked, without echo; an empty line asks for your password \
                instead. For scripts, --pin-stdin reads the PIN from the first line of standard input, or \
                --password-stdin the password. A wrong PIN counts like one at the unlock prompt (the fifth in a \
                row ends the session); a wrong password counts as a failed login. Without a PIN nothing is asked. \
                The removal is noted in your inbox.
                """
        )
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Read your current PIN from the first line of standard input.") var pinStdin = false
        @Flag(help: "Confirm with your password instead, read from the first line of standard input.") var passwordStdin = false

        func validate() throws {
            if pinStdin, passwordStdin { throw ValidationError("Give either --pin-stdin or --password-stdin, not both.") }
        }

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            // Logged in, and a PIN to remove? Before asking for anything.
            guard try await environment.pins.status().isSet else {
                try await PinScreen.show(.remove(nil), environment, context)
                return
            }
            let proof = try PinProofEntry.read(pinStdin: pinStdin, passwordStdin: passwordStdin, context: context)
            try await PinScreen.show(.remove(proof), environment, context)
        }
    }

    struct PinStatusCommand: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Show whether you have a PIN, and how many wrong ones are left.")
        @OptionGroup var global: GlobalOptions

        func run(in environment: AuthEnvironment, context: CommandContext) async throws {
            try await PinScreen.show(.status, environment, context)
        }
    }
}

/// Reads a new PIN twice, the way passwords are read (``SecretInput``).
enum PinEntry {
    static func readTwice(fromStandardInput: Bool, context: CommandContext) throws(CommandError) -> (String, String) {
        if fromStandardInput {
            do {
                return (
                    try SecretInput.read("", from: .standardInput, context: context),
                    try SecretInput.read("", from: .standardInput, context: context)
                )
            } catch {
                throw .usage("--pin-stdin reads two lines from standard input: the PIN, then the PIN again.")
            }
        }
        guard context.isInteractive else {
            throw .usage("There is no terminal to ask for the PIN: pipe it into --pin-stdin, twice (one line each).")
        }
        do {
            return (
                try SecretInput.read("New PIN (6 digits): ", from: .prompt, context: context),
                try SecretInput.read("Repeat the PIN: ", from: .prompt, context: context)
            )
        } catch {
            throw .usage("No PIN was entered.")
        }
    }
}

/// Reads what proves the PIN is the person's before it is removed: the PIN, or the password.
enum PinProofEntry {
    static func read(pinStdin: Bool, passwordStdin: Bool, context: CommandContext) throws(CommandError) -> PinProof {
        if pinStdin {
            do {
                return .pin(try SecretInput.read("", from: .standardInput, context: context))
            } catch {
                throw .usage("--pin-stdin reads your current PIN from the first line of standard input.")
            }
        }
        if passwordStdin {
            do {
                return .password(try SecretInput.read("", from: .standardInput, context: context))
            } catch {
                throw .usage("--password-stdin reads your password from the first line of standard input.")
            }
        }
        guard context.isInteractive else {
            throw .usage("There is no terminal to ask for your PIN: pipe it into --pin-stdin, or your password into --password-stdin.")
        }
        let pin: String
        do {
            pin = try SecretInput.read("Current PIN (an empty line to use your password instead): ", from: .prompt, context: context)
        } catch {
            throw .usage("No PIN was entered.")
        }
        guard pin.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return .pin(pin) }
        return .password(try SecretInput.read("Password: ", from: .prompt, context: context))
    }
}

/// The `--json` shape of `moa auth pin …`. Never carries the PIN or its hash.
struct PinOutput: Encodable {
    var status: String
    var email: String
    var userId: String
    var pinSet: Bool
    var wrongAttempts: Int?
    var triesLeft: Int?

    init(_ outcome: PinViewModel.Outcome) {
        switch outcome {
        case .pinSet(let user):
            self.init(status: "pin-set", user: user, pinSet: true)
        case .pinRemoved(let user, let hadPin):
            self.init(status: hadPin ? "pin-removed" : "no-pin", user: user, pinSet: false)
        case .status(let status):
            self.init(
                status: status.isSet ? "pin-set" : "no-pin", user: status.user, pinSet: status.isSet,
                wrongAttempts: status.wrongAttempts, triesLeft: status.triesLeft)
        }
    }

    private init(status: String, user: AuthenticatedUser, pinSet: Bool, wrongAttempts: Int? = nil, triesLeft: Int? = nil) {
        self.status = status
        self.email = user.email
        self.userId = user.id.rawValue
        self.pinSet = pinSet
        self.wrongAttempts = wrongAttempts
        self.triesLeft = triesLeft
    }
}
