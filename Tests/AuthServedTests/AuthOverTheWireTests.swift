import APIClient
import APIServing
import APITesting
import AuthData
import AuthDomain
import AuthInterface
import AuthRemote
import AuthServer
import Foundation
import InboxTesting
import Persistence
import Registry
import SharedKit
import Storage
import Testing

/// Auth's served half in its own closure: the server's Auth (its Data on SQLite, sessions per
/// request, mail to an outbox folder) behind its handlers (AuthServer) on an in-process transport,
/// each request run as its bearer token's user (``RequestUserMiddleware``); and the client's remote
/// use cases (AuthRemote) on the generated client.
@Suite("Auth · over the wire")
final class AuthOverTheWireTests {
    enum Root: ServiceKey {
        struct Service: Sendable {
            let tokens: SessionTokens
            let registration: any RegistrationUseCases
            let reset: any PasswordResetUseCases
            let deletion: any AccountDeletionUseCases
        }
    }

    static let password = "plum-orbit-lantern-42-quietly"
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_767_225_600))
    let home: MoaHome
    let api: InProcessAPI
    /// The server's token use cases (with its access cache).
    let tokens: SessionTokens

    init() throws {
        home = MoaHome(root: FileManager.default.temporaryDirectory.appendingPathComponent("moa-auth-served-\(UUID().uuidString)"))
        try home.prepare()
        let database = try AppDatabase.inMemory(migrations: [AuthMigrations.all])
        let root = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: clock, home: home),
            AuthDataModule(sessions: .perRequest, passwordCost: .testsOnly),
            InboxFakes(),
            ModuleOf(
                "Server",
                [
                    .instance(SessionProviderKey.self, RequestSession()), .instance(ClientOriginKey.self, RequestClientOrigin()),
                    .instance(UserDataOwnersKey.self, []),
                    .singleton(
                        Root.self, requires: SessionTokensKey.self, RegistrationKey.self, PasswordResetKey.self, AccountDeletionKey.self
                    ) {
                        Root.Service(tokens: $0, registration: $1, reset: $2, deletion: $3)
                    },
                ]),
        ]).validate(root: Root.self).resolve()
        tokens = root.tokens
        api = InProcessAPI(problems: ProblemCatalog([AuthProblems.classifier]))
        try AuthHandlers(
            tokens: root.tokens, registration: root.registration, passwordReset: root.reset, deletion: root.deletion,
            passwordWork: PasswordWork()
        ).registerHandlers(on: api, middlewares: [RequestUserMiddleware(tokens: root.tokens)])
    }

    deinit { try? FileManager.default.removeItem(at: home.root) }

    /// The newest code mailed to `email` for `kind` (`verify`, `reset`), from the server's outbox.
    func code(for email: String, kind: String = "verify") throws -> String {
        for file in try FileManager.default.contentsOfDirectory(atPath: home.outboxURL.path).sorted().reversed()
        where file.hasSuffix("-\(kind).eml") {
            let mail = try String(contentsOf: home.outboxURL.appendingPathComponent(file), encoding: .utf8)
            if mail.contains("To: \(email)"), let range = mail.range(of: #"code is \d{6}"#, options: .regularExpression) {
                return String(mail[range].suffix(6))
            }
        }
        throw CodeNotMailed()
    }

    struct CodeNotMailed: Error {}

    /// Signs `email` up and verifies it through the remote use cases; its first session.
    func person(_ email: String) async throws -> StoredSession {
        let registration = RemoteRegistration(api: try api.client(token: nil))
        _ = try await registration.signUp(email: email, password: Self.password)
        try await registration.verify(email: email, code: try code(for: email), password: Self.password)
        return try await RemoteSessionAuthority(api: try api.client(token: nil), clock: clock).logIn(email: email, password: Self.password)
    }

    @Test func signUpVerifyAndLogInGiveASessionForTheAddress() async throws {
        let session = try await person("ada@moa.example")
        #expect(session.email == "ada@moa.example")
        #expect(session.accessToken != session.refreshToken && !session.accessToken.isEmpty)
        // The session's token acts for its user, and only a live token does.
        let whoami = try api.client(token: session.accessToken)
        #expect(!ended(try await RemoteSessionAuthority(api: whoami, clock: clock).rotate(session)))
    }

    @Test func aWrongPasswordIsRefusedInTheEmbeddedSentenceAndStatus() async throws {
        _ = try await person("ada@moa.example")
        let refused = await #expect(throws: RemoteProblem.self) {
            try await RemoteSessionAuthority(api: try api.client(token: nil), clock: clock).logIn(
                email: "ada@moa.example", password: "not-the-password-at-all")
        }
        #expect(refused?.status == 403 && refused?.exitStatus == .noPermission)
    }

    @Test func signingUpAnAddressTwiceAnswersAlike() async throws {
        let registration = RemoteRegistration(api: try api.client(token: nil))
        let first = try await registration.signUp(email: "bo@moa.example", password: Self.password)
        let again = try await registration.signUp(email: "bo@moa.example", password: Self.password)
        #expect(first == again)
    }

    @Test func aRefreshTokenPresentedTwiceEndsTheWholeSession() async throws {
        let session = try await person("ada@moa.example")
        let authority = RemoteSessionAuthority(api: try api.client(token: nil), clock: clock)
        guard case .rotated(let next) = try await authority.rotate(session) else {
            Issue.record("the first refresh was refused")
            return
        }
        // The first refresh token again (a stolen copy): the server ends the family, the new one included.
        #expect(ended(try await authority.rotate(session)))
        #expect(ended(try await authority.rotate(next)))
    }

    @Test func loggingOutEndsTheSessionOnTheServer() async throws {
        let session = try await person("ada@moa.example")
        let authority = RemoteSessionAuthority(api: try api.client(token: nil), clock: clock)
        try await authority.logOut(session, everywhere: false)
        #expect(ended(try await authority.rotate(session)))
    }

    @Test func aPasswordResetByMailedCodeReplacesThePassword() async throws {
        let session = try await person("ada@moa.example")
        let reset = RemotePasswordReset(api: try api.client(token: nil))
        _ = try await reset.request(email: "ada@moa.example")
        let user = try await reset.complete(
            email: "ada@moa.example", code: try code(for: "ada@moa.example", kind: "reset"), newPassword: "a-new-long-passphrase-9")
        #expect(user.email == "ada@moa.example" && user.id == session.userID)
        let authority = RemoteSessionAuthority(api: try api.client(token: nil), clock: clock)
        _ = try await authority.logIn(email: "ada@moa.example", password: "a-new-long-passphrase-9")
        await #expect(throws: RemoteProblem.self) { try await authority.logIn(email: "ada@moa.example", password: Self.password) }
    }

    /// The server remembers live tokens (``AccessCache``); every way of ending a session through it
    /// stops the token at once all the same — a reset code redeemed by `verify` included.
    @Test(arguments: ["logout", "logout everywhere", "refresh", "password change", "reset", "reset by verify"])
    func everyWayOfEndingASessionStopsItsRememberedTokenAtOnce(_ way: String) async throws {
        let email = "ada@moa.example"
        let session = try await person(email)
        #expect(try await tokens.liveUser(accessToken: session.accessToken) != nil, "remembered")
        let authority = RemoteSessionAuthority(api: try api.client(token: session.accessToken), clock: clock)
        switch way {
        case "logout": try await authority.logOut(session, everywhere: false)
        case "logout everywhere": try await authority.logOut(session, everywhere: true)
        case "refresh": _ = try await authority.rotate(session)
        case "password change": _ = try await authority.changePassword(of: session, current: Self.password, new: "a-new-long-passphrase-9")
        case "reset":
            let reset = RemotePasswordReset(api: try api.client(token: nil))
            _ = try await reset.request(email: email)
            _ = try await reset.complete(email: email, code: try code(for: email, kind: "reset"), newPassword: "a-new-long-passphrase-9")
        default:
            _ = try await RemotePasswordReset(api: try api.client(token: nil)).request(email: email)
            try await RemoteRegistration(api: try api.client(token: nil)).verify(
                email: email, code: try code(for: email, kind: "reset"), password: "a-new-long-passphrase-9")
        }
        #expect(try await tokens.liveUser(accessToken: session.accessToken) == nil, "\(way): the old access token still passes")
    }

    @Test func withoutALiveTokenAUsersRouteIs401() async throws {
        let session = try await person("ada@moa.example")
        let authority = RemoteSessionAuthority(api: try api.client(token: "not-a-token"), clock: clock)
        let refused = await #expect(throws: RemoteProblem.self) {
            try await authority.changePassword(
                of: StoredSession(
                    userID: session.userID, email: session.email, accessToken: "not-a-token", refreshToken: session.refreshToken,
                    accessExpiresAt: session.accessExpiresAt, refreshExpiresAt: session.refreshExpiresAt), current: Self.password,
                new: "another-long-passphrase-7")
        }
        #expect(refused?.status == 401)
    }
}

/// Whether the server ended the session instead of rotating it.
private func ended(_ rotation: SessionTokens.Rotation) -> Bool {
    if case .ended = rotation { true } else { false }
}
