import APIClient
import AuthAPI
import AuthDomain
import AuthInterface
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKit

/// The session's rules when `moa` is a client: `moa-server` decides (its throttle, its rotation, its
/// reuse detection); ``SessionManager`` keeps the tokens in the session file as it always does.
public struct RemoteSessionAuthority: SessionAuthority {
    /// Calls that carry no session (login, refresh), or carry the one they are given.
    let api: RemoteAPI
    let clock: any WallClock
    let onLoggedIn: @Sendable () throws -> Void

    public init(api: RemoteAPI, clock: any WallClock, onLoggedIn: @escaping @Sendable () throws -> Void = {}) {
        self.api = api
        self.clock = clock
        self.onLoggedIn = onLoggedIn
    }

    public func logIn(email: String, password: String) async throws -> StoredSession {
        let session = try await api.call { client in
            guard case .ok(let ok) = try await client.logIn(body: .json(.init(email: email, password: password))) else {
                throw RemoteAPI.unexpected("the login")
            }
            return RemoteAPI.session(try ok.body.json)
        }
        try onLoggedIn()
        return session
    }

    /// The server checks the token on every request (a 401 there refreshes); here only its own expiry counts.
    public func accessIsLive(_ session: StoredSession) async throws -> Bool { true }

    /// Refreshes on the server; a 401 means the session is over there (expired, revoked, or a reused
    /// token whose family the server has just revoked).
    public func rotate(_ session: StoredSession) async throws -> SessionTokens.Rotation {
        do {
            return try await api.call { client in
                guard case .ok(let ok) = try await client.refreshSession(body: .json(.init(refreshToken: session.refreshToken))) else {
                    throw RemoteAPI.unexpected("the refresh")
                }
                return .rotated(RemoteAPI.session(try ok.body.json))
            }
        } catch let problem as RemoteProblem where problem.status == 401 {
            return .ended
        }
    }

    /// Revokes on the server with the session's own access token (refreshed first when it has
    /// expired, so that the server can tell which family to end).
    public func logOut(_ session: StoredSession, everywhere: Bool) async throws {
        var live = session
        if clock.now() >= session.accessExpiresAt {
            guard case .rotated(let next) = try await rotate(session) else { return } // already over on the server
            live = next
        }
        do {
            try await api.authorized(by: live.accessToken).call { client in
                guard case .ok = try await client.logOut(body: .json(.init(everywhere: everywhere))) else {
                    throw RemoteAPI.unexpected("the logout")
                }
            }
        } catch let problem as RemoteProblem where problem.status == 401 {
            return // the server had already ended it
        }
    }

    public func changePassword(of session: StoredSession, current: String, new: String) async throws -> StoredSession {
        try await api.authorized(by: session.accessToken).call { client in
            guard case .ok(let ok) = try await client.changePassword(body: .json(.init(currentPassword: current, newPassword: new))) else {
                throw RemoteAPI.unexpected("the password change")
            }
            return RemoteAPI.session(try ok.body.json)
        }
    }

    /// The server checks the password as a login does (counting toward the address's throttle); the
    /// session that check starts is ended at once.
    public func confirmPassword(_ password: String, of user: AuthenticatedUser) async throws {
        let check = try await logIn(email: user.email, password: password)
        try await logOut(check, everywhere: false)
    }

    /// Whether the server still knows the session's user (a 401 ends the session here too).
    public func userExists(_ user: AuthenticatedUser) async throws -> Bool { true }
}

/// Sign-up and verification on the server; the code is mailed by the server (its outbox).
public struct RemoteRegistration: RegistrationUseCases {
    let api: RemoteAPI
    let onSignedUp: @Sendable () throws -> Void

    public init(api: RemoteAPI, onSignedUp: @escaping @Sendable () throws -> Void = {}) {
        self.api = api
        self.onSignedUp = onSignedUp
    }

    public func signUp(email: String, password: String) async throws -> CodeSent {
        let sent = try await api.call { client in
            guard case .created(let created) = try await client.signUp(body: .json(.init(email: email, password: password))) else {
                throw RemoteAPI.unexpected("the sign-up")
            }
            let status = try created.body.json
            return CodeSent(email: status.email ?? email, location: status.verificationMail.map { "moa-server's outbox (\($0))" })
        }
        try onSignedUp()
        return sent
    }

    public func verify(email: String, code: String, password: String) async throws {
        try await api.call { client in
            guard case .ok = try await client.verifyEmail(body: .json(.init(email: email, code: code, password: password))) else {
                throw RemoteAPI.unexpected("the verification")
            }
        }
    }

    public func resendCode(email: String) async throws -> CodeSent {
        try await api.call { client in
            guard case .ok(let ok) = try await client.resendVerificationCode(body: .json(.init(email: email))) else {
                throw RemoteAPI.unexpected("the new code")
            }
            let status = try ok.body.json
            return CodeSent(email: status.email ?? email, location: status.verificationMail.map { "moa-server's outbox (\($0))" })
        }
    }
}

/// Password reset on the server (its outbox gets the code).
public struct RemotePasswordReset: PasswordResetUseCases {
    let api: RemoteAPI

    public init(api: RemoteAPI) { self.api = api }

    public func request(email: String) async throws -> String {
        try await api.call { client in
            guard case .accepted(let accepted) = try await client.requestPasswordReset(body: .json(.init(email: email))) else {
                throw RemoteAPI.unexpected("the reset request")
            }
            return try accepted.body.json.email ?? email
        }
    }

    public func complete(email: String, code: String, newPassword: String) async throws -> AuthenticatedUser {
        try await api.call { client in
            guard
                case .ok(let ok) = try await client.completePasswordReset(
                    body: .json(.init(email: email, code: code, newPassword: newPassword)))
            else { throw RemoteAPI.unexpected("the reset") }
            let status = try ok.body.json
            guard let id = status.userId, let address = status.email else { throw RemoteAPI.unexpected("the reset") }
            return AuthenticatedUser(id: UserID(id), email: address)
        }
    }
}

/// Deleting the user on the server — everything it keeps about them, in its one transaction — then
/// what this machine keeps (the user's settings here, and what it kept before it had a server; the embedded deletion on
/// the local database, which also removes the session file).
public struct RemoteAccountDeletion: AccountDeletionUseCases {
    /// Calls that carry the session.
    let api: RemoteAPI
    let sessions: SessionManager
    let local: AccountDeletion

    public init(api: RemoteAPI, sessions: SessionManager, local: AccountDeletion) {
        self.api = api
        self.sessions = sessions
        self.local = local
    }

    public func userToDelete() async throws -> AuthenticatedUser {
        try await sessions.requireUser()
    }

    public func delete(confirmation: String) async throws -> DeletionReport {
        let user = try await sessions.requireUser()
        let erased = try await api.call { client in
            guard case .ok(let ok) = try await client.deleteUser(body: .json(.init(confirmation: confirmation))) else {
                throw RemoteAPI.unexpected("the deletion")
            }
            return try ok.body.json.erased ?? []
        }
        let here = try await local.delete(confirmation: confirmation)
        let machine = here.erased.filter { !erased.contains($0) }.map { "\($0) (this machine)" }
        return DeletionReport(user: user, erased: erased + machine)
    }
}

/// Sends the session's access token as `Authorization: Bearer …`; on a 401 asks the session
/// manager for a fresh one — one refresh however many calls were refused at once — and retries once.
struct SessionTokenMiddleware: ClientMiddleware {
    let sessions: SessionManager

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let token = try await sessions.accessToken() else { throw NotLoggedInError() }
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status == .unauthorized else { return (response, responseBody) }
        guard let fresh = try await sessions.accessToken(replacing: token) else { throw NotLoggedInError() }
        request.headerFields[.authorization] = "Bearer \(fresh)"
        return try await next(request, body, baseURL)
    }
}

extension RemoteAPI {
    /// One call of AuthAPI's generated client, on this API's server, connections and credentials.
    func call<T: Sendable>(_ work: @escaping @Sendable (Client) async throws -> T) async throws -> T {
        let client = Client(serverURL: address.url, configuration: .moa, transport: transport, middlewares: middlewares)
        return try await call { try await work(client) }
    }

    /// The same server and connections; every request carries the session's access token,
    /// refreshed once on a 401 (single-flight across concurrent calls) and retried.
    public func authorized(by sessions: SessionManager) -> RemoteAPI {
        authorized(by: SessionTokenMiddleware(sessions: sessions))
    }

    static func session(_ session: Components.Schemas.Session) -> StoredSession {
        StoredSession(
            userID: UserID(session.userId), email: session.email, accessToken: session.accessToken, refreshToken: session.refreshToken,
            accessExpiresAt: session.accessExpiresAt, refreshExpiresAt: session.refreshExpiresAt)
    }
}
