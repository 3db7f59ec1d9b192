// AuthExample: Auth alone, end to end, on an in-memory store — sign up, read the mailed code,
// verify, log in, let the access token expire and refresh it, reuse an old refresh token (which
// revokes the family), log in again, log out; then change the password, reset it with a mailed
// code, read the security notices Auth put in the inbox, and delete the account. It drives the same
// view models as `moa auth …`.
//
//     Scripts/run-example Auth
import AuthData
import AuthDomain
import AuthFeature
import AuthInterface
import DesignSystem
import Foundation
import InboxTesting
import Registry
import SharedKit
import Storage

/// Mail kept in memory, so the example can "read its inbox".
final class InMemoryMail: MailSender {
    let mails = Locked<[Mail]>([])
    func send(_ mail: Mail) async throws -> String {
        mails.withLock { $0.append(mail) }
        return "(in memory) mail #\(mails.withLock { $0.count }) to \(mail.to)"
    }
}

/// The session file, in memory.
final class InMemorySessionStore: SessionStore {
    let session = Locked<StoredSession?>(nil)
    func load() throws -> StoredSession? { session.withLock { $0 } }
    func save(_ session: StoredSession) throws { self.session.withLock { $0 = session } }
    func clear() throws { session.withLock { $0 = nil } }
}

enum AuthExampleRoot: ServiceKey {
    struct Service: Sendable {
        let registration: any RegistrationUseCases
        let sessions: SessionManager
        let repository: any AuthStore
        let secrets: any SecretGenerator
        let reset: any PasswordResetUseCases
        let deletion: any AccountDeletionUseCases
    }
}

@MainActor
func walkThrough() async throws {
    let theme = Theme.resolve(mode: .auto, terminal: .current(for: .output))
    let clock = ManualWallClock(Date())
    let mail = InMemoryMail()
    let store = InMemorySessionStore()
    let database = try AppDatabase.inMemory(migrations: [AuthMigrations.all])
    let home = MoaHome(root: FileManager.default.temporaryDirectory.appendingPathComponent("moa-auth-example"))
    let inbox = FakeInboxPublisher()
    let registry = try RegistryBuilder(modules: [
        ModuleOf.core(database: database, clock: clock, home: home),
        // Alone, Auth is the only feature keeping user data: no other owner takes part in a deletion.
        InboxFakes(publisher: inbox),
        ModuleOf("Other features", [.instance(UserDataOwnersKey.self, [])]),
        AuthDataModule(),
        AuthFeatureModule(),
        ModuleOf(
            "Example",
            [
                .singleton(
                    AuthExampleRoot.self, requires: RegistrationKey.self, SessionManagerKey.self, AuthStoreKey.self,
                    SecretGeneratorKey.self,
                    PasswordResetKey.self, AccountDeletionKey.self
                ) {
                    AuthExampleRoot.Service(registration: $0, sessions: $1, repository: $2, secrets: $3, reset: $4, deletion: $5)
                }
            ]),
    ]).validate(root: AuthExampleRoot.self)
        .overriding { overrides in
            overrides.replace(.instance(MailSenderKey.self, mail)) // no files: mail stays in memory
            overrides.replace(.instance(SessionStoreKey.self, store)) // no session file either
        }
    let app = registry.resolve()
    let viewModel = AuthViewModel(registration: app.registration, sessions: app.sessions)

    func step(_ title: String, _ input: AuthViewModel.Input) async {
        print(theme.paint("▸ " + title, .heading))
        await viewModel.send(input)
        if let error = viewModel.state.error {
            print(ErrorText(error).render(theme: theme))
        } else if let outcome = viewModel.state.outcome {
            print("  \(outcome)")
        }
    }

    let email = "ada@example.com"
    let password = "a long passphrase nobody guesses"
    await step("Sign up \(email)", .signUp(email: email, password: password, repeated: password))
    let code = mail.mails.withLock { $0.last?.subject.split(separator: " ").last.map(String.init) } ?? ""
    print("  inbox: “\(mail.mails.withLock { $0.last?.subject ?? "" })”")
    await step("Log in before verifying", .logIn(email: email, password: password))
    await step("Verify with the mailed code and the password", .verify(email: email, code: code, password: password, repeated: nil))
    await step("Log in with a wrong password", .logIn(email: email, password: "not my passphrase at all"))
    await step("Log in", .logIn(email: email, password: password))
    let firstGeneration = try store.load()
    clock.advance(by: 16 * 60)
    await step("16 minutes later: who am I? (the access token is refreshed)", .whoAmI)
    if let stolen = firstGeneration {
        print(theme.paint("▸ Someone replays the first refresh token", .heading))
        let thief = InMemorySessionStore()
        try thief.save(stolen)
        let thiefs = SessionManager(
            repository: app.repository, hasher: FakeFreeHasher(), secrets: app.secrets, store: thief, clock: clock,
            inbox: inbox)
        clock.advance(by: 16 * 60)
        print("  thief gets: \(String(describing: try await thiefs.currentUser())) — the whole session family is revoked")
    }
    await step("Who am I now?", .whoAmI)
    await step("Log in again", .logIn(email: email, password: password))
    await step("Log out everywhere", .logOut(everywhere: true))

    let security = AccountSecurityViewModel(sessions: app.sessions, reset: app.reset, deletion: app.deletion)
    func secure(_ title: String, _ input: AccountSecurityViewModel.Input) async {
        print(theme.paint("▸ " + title, .heading))
        await security.send(input)
        if let error = security.state.error {
            print(ErrorText(error).render(theme: theme))
        } else if let outcome = security.state.outcome {
            print("  \(outcome)")
        }
    }

    let changed = "another passphrase, just as long"
    let reset = "a third passphrase after the reset"
    await step("Log in", .logIn(email: email, password: password))
    await secure(
        "Change the password with a wrong current one",
        .changePassword(current: "not my passphrase at all", new: changed, repeated: changed))
    await secure("Change the password", .changePassword(current: password, new: changed, repeated: changed))
    await secure(
        "Forgot it: ask for a reset code for an address without an account (the same answer)",
        .requestReset(email: "nobody@example.com"))
    await secure("Ask for a reset code for \(email)", .requestReset(email: email))
    let resetCode = mail.mails.withLock { $0.last?.subject.split(separator: " ").last.map(String.init) } ?? ""
    print("  inbox: “\(mail.mails.withLock { $0.last?.subject ?? "" })”")
    await secure("Reset with a wrong code", .resetPassword(email: email, code: "000000", new: reset, repeated: reset))
    await secure(
        "Reset with the mailed code (every session ends)", .resetPassword(email: email, code: resetCode, new: reset, repeated: reset))
    await step("Who am I? (logged out by the reset)", .whoAmI)
    await step("Log in with the new password", .logIn(email: email, password: reset))
    print(theme.paint("▸ Security notices Auth put in the inbox", .heading))
    for notice in inbox.notices { print("  [\(notice.kind.rawValue)] \(notice.title)") }

    await secure("Delete the account, typing the wrong address", .deleteAccount(confirmation: "someone@example.com"))
    await secure("Delete the account", .deleteAccount(confirmation: email))
    await step("Who am I now?", .whoAmI)
    await step("The address can sign up again", .signUp(email: email, password: password, repeated: password))
}

/// The thief never checks a password, so any hasher will do for its session manager.
struct FakeFreeHasher: PasswordHasher {
    func hash(_ password: String) throws -> String { "" }
    func verify(_ password: String, against stored: String) -> Bool { false }
    func needsRehash(_ stored: String) -> Bool { false }
    func verifyAgainstNothing(_ password: String) {}
}

if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
    print("AuthExample: runs Auth's whole flow on an in-memory store (sign-up to account deletion). No arguments.")
    exit(0)
}
do {
    try await walkThrough()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
