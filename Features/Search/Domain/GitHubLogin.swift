import Foundation
import Registry
import SettingsInterface
import SharedKit

// `moa search login`: GitHub's OAuth device flow (RFC 8628 as GitHub implements it). The app asks
// the OAuth host for a device code and a user code; the person enters the user code at the
// verification address in a browser; the app polls the token endpoint at the interval it was given
// until the person approves (a token), refuses (`access_denied`) or the code expires
// (`expired_token`), waiting longer each time it is told `slow_down`.

/// What the OAuth host answered to "a device code, please".
public struct DeviceAuthorization: Sendable, Equatable {
    /// The device's code, sent back while polling. Secret to this process: never shown.
    public let deviceCode: String
    /// What the person types at ``verificationURL``, e.g. `WDJB-MJHT`.
    public let userCode: String
    /// Where the person enters the code, e.g. `https://github.com/login/device`.
    public let verificationURL: URL
    /// How long the codes stay valid.
    public let expiresIn: Duration
    /// How long to wait between two polls, at least.
    public let interval: Duration

    public init(deviceCode: String, userCode: String, verificationURL: URL, expiresIn: Duration, interval: Duration) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURL = verificationURL
        self.expiresIn = expiresIn
        self.interval = interval
    }
}

/// One answer of the token endpoint.
public enum TokenPollAnswer: Sendable, Equatable {
    /// Approved: the access token and the scopes it was granted.
    case token(String, scopes: [String])
    /// Not yet approved: poll again after the interval.
    case pending
    /// Polling too fast: wait longer (the new interval when the host gave one, else 5 seconds more).
    case slowDown(interval: Duration?)
    /// The codes expired before the person approved.
    case expired
    /// The person refused.
    case denied
}

/// Who a token belongs to (`GET /user`) and what it may do (`X-OAuth-Scopes`).
public struct GitHubIdentity: Sendable, Equatable, Codable {
    public let login: String
    public let name: String?
    /// The token's scopes; empty when the API did not say.
    public let scopes: [String]

    public init(login: String, name: String?, scopes: [String]) {
        self.login = login
        self.name = name
        self.scopes = scopes
    }
}

/// GitHub's OAuth endpoints and `GET /user` (SearchData talks HTTP; tests use a fake).
public protocol GitHubOAuth: Sendable {
    /// `POST {oauth}/login/device/code`.
    func requestDeviceCode(oauthBaseURL: URL, clientID: String, scopes: [String]) async throws(LoginError) -> DeviceAuthorization
    /// `POST {oauth}/login/oauth/access_token` with the device-code grant.
    func pollToken(oauthBaseURL: URL, clientID: String, deviceCode: String) async throws(LoginError) -> TokenPollAnswer
    /// `GET {api}/user` with the token.
    func identity(apiBaseURL: URL, token: String) async throws(LoginError) -> GitHubIdentity
}

/// The login's token and the API it was issued for: it is only ever sent there.
public struct LoginToken: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Secret.
    public let token: String
    /// `search.api-base-url` at login (`https://api.github.com`).
    public let apiBaseURL: String

    public init(token: String, apiBaseURL: String) {
        self.token = token
        self.apiBaseURL = apiBaseURL
    }

    public var description: String { "LoginToken(token: hidden, apiBaseURL: \(apiBaseURL))" }
}

/// Where the login's token is kept: the system's credential store, or an owner-only file.
public protocol SearchTokenVault: Sendable {
    /// The token of the last login, `nil` after a logout or before any login.
    func token() throws -> LoginToken?
    func keep(_ token: LoginToken) throws
    /// Forgets the token; whether there was one.
    func forget() throws -> Bool
    /// Where the token is kept, one phrase: "the Secret Service (…)".
    var location: String { get }
    /// Whether that place is the system's credential store (else: a file of the home).
    var isSystemStore: Bool { get }
}

public enum SearchTokenVaultKey: ServiceKey { public typealias Service = any SearchTokenVault }
public enum GitHubOAuthKey: ServiceKey { public typealias Service = any GitHubOAuth }
public enum GitHubLoginKey: ServiceKey { public typealias Service = GitHubLogin }

/// What went wrong in a login, one sentence each, never the token or the device code.
public enum LoginError: Error, Equatable, UserFacingError {
    /// `search.oauth-client-id` is not set.
    case noClientID
    /// The OAuth host does not know the client id (`incorrect_client_credentials`, or a 404).
    case unknownClientID(String)
    /// The OAuth app does not have the device flow enabled (`device_flow_disabled`).
    case deviceFlowDisabled
    /// The person refused on the verification page.
    case denied
    /// The codes expired before anyone approved.
    case expired(minutes: Int)
    /// Ctrl-C while waiting.
    case interrupted
    /// The API refused the new token (`GET /user` answered 401).
    case tokenRefused
    /// The host answered something this client does not understand.
    case unexpectedAnswer(String)
    /// The host could not be reached, or failed.
    case unreachable(String)
    /// The token store could not be used.
    case store(String)

    public var message: String {
        switch self {
        case .noClientID: "No OAuth app is set up for the GitHub login: search.oauth-client-id is not set."
        case .unknownClientID(let id): "The OAuth host does not know the client id \(Self.echo(id))."
        case .deviceFlowDisabled: "The OAuth app of search.oauth-client-id does not allow the device flow."
        case .denied: "The login was refused on the verification page; nothing was saved."
        case .expired(let minutes):
            "The code expired before it was entered (it was valid for \(minutes) minute\(minutes == 1 ? "" : "s")); nothing was saved."
        case .interrupted: "The login was stopped; nothing was saved."
        case .tokenRefused: "The API refused the new token when asked who it belongs to; nothing was saved."
        case .unexpectedAnswer(let what): "The OAuth host gave an answer moa does not understand: \(what)."
        case .unreachable(let what): "The GitHub login could not reach \(what)."
        case .store(let reason): reason
        }
    }

    public var hint: String? {
        switch self {
        case .noClientID, .unknownClientID, .deviceFlowDisabled:
            "Register an OAuth app (GitHub: Settings → Developer settings → OAuth Apps → New OAuth App), tick "
                + "“Enable Device Flow”, then `moa settings set search.oauth-client-id CLIENT_ID`."
        case .denied, .expired, .interrupted: "Run `moa search login` again when you are ready."
        case .tokenRefused: "Check search.api-base-url: it must be the API of the host that issued the token."
        case .unreachable: "Check search.oauth-base-url and the network, then try again."
        case .unexpectedAnswer, .store: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .noClientID, .unknownClientID, .deviceFlowDisabled: .configuration
        case .denied, .tokenRefused: .noPermission
        case .expired, .unreachable: .temporaryFailure
        case .interrupted: .interrupted
        case .unexpectedAnswer: .unavailable
        case .store: .unavailable
        }
    }

    /// At most 60 printable characters of something the host or the person gave.
    static func echo(_ text: String) -> String {
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }))
        return "“" + (printable.count > 60 ? String(printable.prefix(60)) + "…" : printable) + "”"
    }
}

/// How a login went on, for the screen.
public enum LoginProgress: Sendable, Equatable {
    /// Polled; not approved yet.
    case waiting
    /// Told to slow down: polls now every `interval`.
    case slowedDown(interval: Duration)
}

/// Who is logged in, and where the token is kept.
public struct LoginStatus: Sendable, Equatable {
    /// Which token the search sends: the login's, `search.api-token`'s, or none.
    public enum TokenSource: String, Sendable, Codable {
        case login
        case setting = "search.api-token"
        case none
    }

    public let source: TokenSource
    /// Who the token belongs to (`nil` without a token or when the API could not say).
    public let identity: GitHubIdentity?
    /// Why the API could not say who, one sentence (`nil` when it could, or without a token).
    public let problem: String?
    public let storeLocation: String
    public let systemStore: Bool
    public let apiBaseURL: URL
    public let oauthBaseURL: URL
    public let clientIDSet: Bool
}

/// The GitHub login: the device flow, logout and status.
public struct GitHubLogin: Sendable {
    /// The scopes asked for: none — a token without scopes reads public data with the higher rate
    /// limit of an authenticated user, which is all the user search needs.
    public static let scopes: [String] = []

    private let settings: any SettingsReader
    private let oauth: any GitHubOAuth
    private let vault: any SearchTokenVault
    private let sleep: @Sendable (Duration) async throws -> Void

    /// - Parameter sleep: waits between polls (`Task.sleep` by default; cancellation stops the login).
    public init(
        settings: any SettingsReader, oauth: any GitHubOAuth, vault: any SearchTokenVault,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.settings = settings
        self.oauth = oauth
        self.vault = vault
        self.sleep = sleep
    }

    /// Asks the OAuth host for a device code and a user code.
    public func start() async throws -> DeviceAuthorization {
        let api = try await settings.snapshot().searchAPI
        guard let clientID = api.oauthClientID else { throw LoginError.noClientID }
        return try await oauth.requestDeviceCode(oauthBaseURL: api.oauthBaseURL, clientID: clientID, scopes: Self.scopes)
    }

    /// Polls until the person approves or refuses or the codes expire; with a token, asks the API
    /// whose it is and only then keeps it.
    ///
    /// - Throws: ``LoginError``: `.denied`, `.expired`, `.interrupted` (the task was cancelled), …
    public func finish(_ authorization: DeviceAuthorization, progress: @Sendable (LoginProgress) -> Void = { _ in }) async throws
        -> GitHubIdentity
    {
        let api = try await settings.snapshot().searchAPI
        guard let clientID = api.oauthClientID else { throw LoginError.noClientID }
        var interval = max(authorization.interval, .seconds(1))
        var waited = Duration.zero
        while true {
            do {
                try await sleep(interval)
            } catch {
                throw LoginError.interrupted
            }
            if Task.isCancelled { throw LoginError.interrupted }
            waited += interval
            let answer = try await oauth.pollToken(oauthBaseURL: api.oauthBaseURL, clientID: clientID, deviceCode: authorization.deviceCode)
            switch answer {
            case .pending:
                guard waited < authorization.expiresIn else { throw LoginError.expired(minutes: Self.minutes(authorization.expiresIn)) }
                progress(.waiting)
            case .slowDown(let given):
                // RFC 8628 §3.5: the interval grows by 5 seconds unless the host names a new one.
                interval = max(given ?? interval + .seconds(5), interval + .seconds(1))
                guard waited < authorization.expiresIn else { throw LoginError.expired(minutes: Self.minutes(authorization.expiresIn)) }
                progress(.slowedDown(interval: interval))
            case .expired:
                throw LoginError.expired(minutes: Self.minutes(authorization.expiresIn))
            case .denied:
                throw LoginError.denied
            case .token(let token, let scopes):
                let identity = try await oauth.identity(apiBaseURL: api.baseURL, token: token)
                do {
                    try vault.keep(LoginToken(token: token, apiBaseURL: api.baseURL.absoluteString))
                } catch {
                    throw LoginError.store(Self.sentence(error))
                }
                return GitHubIdentity(
                    login: identity.login, name: identity.name, scopes: identity.scopes.isEmpty ? scopes : identity.scopes)
            }
        }
    }

    /// Forgets the login's token; whether there was one.
    public func logout() throws -> Bool {
        do {
            return try vault.forget()
        } catch {
            throw LoginError.store(Self.sentence(error))
        }
    }

    /// Which token the search sends, whose it is (asked of the API), and where it is kept.
    public func status() async throws -> LoginStatus {
        let api = try await settings.snapshot().searchAPI
        let stored: LoginToken?
        do {
            stored = try vault.token()
        } catch {
            throw LoginError.store(Self.sentence(error))
        }
        let usable = stored.flatMap { $0.apiBaseURL == api.baseURL.absoluteString ? $0.token : nil }
        let (source, token): (LoginStatus.TokenSource, String?) =
            if let setting = api.token { (.setting, setting) } else if let usable { (.login, usable) } else { (.none, nil) }
        var identity: GitHubIdentity?
        var problem: String?
        if let stored, usable == nil, api.token == nil {
            problem =
                "The GitHub login is for the API at \(stored.apiBaseURL), not search.api-base-url (\(api.baseURL.absoluteString)): "
                + "its token is not sent there."
        }
        if let token {
            do {
                identity = try await oauth.identity(apiBaseURL: api.baseURL, token: token)
            } catch .tokenRefused {
                problem = "The API refuses this token: it was revoked or has expired, or it is for another host."
            } catch {
                problem = error.message
            }
        }
        return LoginStatus(
            source: source, identity: identity, problem: problem, storeLocation: vault.location, systemStore: vault.isSystemStore,
            apiBaseURL: api.baseURL, oauthBaseURL: api.oauthBaseURL, clientIDSet: api.oauthClientID != nil)
    }

    /// The token the search sends: `search.api-token` when set, else the login's — only to the API
    /// it was issued for (a changed `search.api-base-url` never receives it).
    public static func token(settings api: SearchAPISettings, vault: (any SearchTokenVault)?) throws -> String? {
        if let token = api.token { return token }
        do {
            guard let login = try vault?.token(), login.apiBaseURL == api.baseURL.absoluteString else { return nil }
            return login.token
        } catch {
            throw LoginError.store(sentence(error))
        }
    }

    /// `duration` in whole minutes, rounded up, at least 1: how long a code is said to be valid.
    public static func minutes(_ duration: Duration) -> Int { max(1, Int((duration.components.seconds + 59) / 60)) }

    static func sentence(_ error: any Error) -> String {
        (error as? any UserFacingError)?.message ?? "The token store failed."
    }
}
