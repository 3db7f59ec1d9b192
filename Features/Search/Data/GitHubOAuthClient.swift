import Foundation
import Networking
import SearchDomain
import Storage

/// GitHub's device flow over HTTP: `POST /login/device/code` and `POST /login/oauth/access_token`
/// on the OAuth host (form-encoded, `Accept: application/json`), `GET /user` on the API. The device
/// code and the token travel in request bodies and an `Authorization` header only, never in a URL,
/// and no error message quotes a body.
public struct GitHubOAuthClient: GitHubOAuth {
    private let clients: SearchHTTPClients
    private let configuration: SearchAPIConfiguration

    public init(clients: SearchHTTPClients, configuration: SearchAPIConfiguration) {
        self.clients = clients
        self.configuration = configuration
    }

    static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

    public func requestDeviceCode(oauthBaseURL: URL, clientID: String, scopes: [String]) async throws(LoginError) -> DeviceAuthorization {
        var form = [("client_id", clientID)]
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        let response = try await post(["login", "device", "code"], form: form, to: oauthBaseURL)
        if response.status == 404 { throw .unknownClientID(clientID) }
        let body = try Self.decode(DeviceCodeBody.self, response, clientID: clientID)
        switch body.error {
        case nil: break
        case "device_flow_disabled": throw .deviceFlowDisabled
        case "incorrect_client_credentials", "unauthorized_client", "invalid_client": throw .unknownClientID(clientID)
        case let error?: throw .unexpectedAnswer(LoginError.echoedCode(error))
        }
        guard let deviceCode = body.deviceCode, let userCode = body.userCode, let verification = body.verificationURI,
            let url = URL(string: verification), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            url.host?.isEmpty == false,
            (1...64).contains(userCode.count), userCode.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
            (1...512).contains(deviceCode.utf8.count)
        else { throw .unexpectedAnswer("a device code without its user code or verification address") }
        let expiresIn = min(max(body.expiresIn ?? 900, 1), 3_600)
        let interval = min(max(body.interval ?? 5, 1), 120)
        return DeviceAuthorization(
            deviceCode: deviceCode, userCode: userCode, verificationURL: url, expiresIn: .seconds(expiresIn), interval: .seconds(interval))
    }

    public func pollToken(oauthBaseURL: URL, clientID: String, deviceCode: String) async throws(LoginError) -> TokenPollAnswer {
        let response = try await post(
            ["login", "oauth", "access_token"],
            form: [("client_id", clientID), ("device_code", deviceCode), ("grant_type", Self.deviceGrant)], to: oauthBaseURL)
        let body = try Self.decode(TokenBody.self, response, clientID: clientID)
        if let token = body.accessToken {
            guard (1...512).contains(token.count),
                !token.unicodeScalars.contains(where: { !$0.isASCII || $0.value <= 0x20 || $0.value == 0x7F })
            else { throw .unexpectedAnswer("a token of characters a token cannot hold") }
            let scopes = (body.scope ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return .token(token, scopes: scopes)
        }
        switch body.error {
        case "authorization_pending": return .pending
        case "slow_down": return .slowDown(interval: body.interval.map { .seconds(min(max($0, 1), 300)) })
        case "expired_token", "token_expired": return .expired
        case "access_denied": return .denied
        case "device_flow_disabled": throw .deviceFlowDisabled
        case "incorrect_client_credentials": throw .unknownClientID(clientID)
        case let error?: throw .unexpectedAnswer(LoginError.echoedCode(error))
        case nil: throw .unexpectedAnswer("neither a token nor an error")
        }
    }

    public func identity(apiBaseURL: URL, token: String) async throws(LoginError) -> GitHubIdentity {
        let endpoint = Endpoint(
            .get, pathSegments: ["user"],
            headers: [
                "Accept": "application/vnd.github+json", "User-Agent": configuration.userAgent,
                "X-GitHub-Api-Version": GitHubAPI.apiVersion,
                "Authorization": "Bearer \(token)",
            ], timeout: configuration.timeout)
        let response = try await send(endpoint, to: apiBaseURL)
        if response.status == 401 { throw .tokenRefused }
        guard response.isSuccess else { throw .unexpectedAnswer("HTTP \(response.status) from GET /user") }
        guard let user = try? JSONDecoder().decode(UserBody.self, from: response.body), UserSearchService.isLogin(user.login) else {
            throw .unexpectedAnswer("a user without a login")
        }
        let scopes = (response.headers["X-OAuth-Scopes"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0.count <= 64 }
        return GitHubIdentity(login: user.login, name: user.name.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }, scopes: scopes)
    }

    // MARK: HTTP

    private func post(_ path: [String], form: [(String, String)], to base: URL) async throws(LoginError) -> HTTPResponse {
        let endpoint = Endpoint(
            .post, pathSegments: path,
            headers: [
                "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded", "User-Agent": configuration.userAgent,
            ],
            body: Data(Self.formEncoded(form).utf8), timeout: configuration.timeout)
        return try await send(endpoint, to: base)
    }

    private func send(_ endpoint: Endpoint, to base: URL) async throws(LoginError) -> HTTPResponse {
        do {
            return try await clients.client(for: base).send(endpoint)
        } catch {
            switch error {
            case .cancelled: throw .interrupted
            default:
                throw .unreachable("\(Redactor.redact(base)) (\(error.message.trimmingCharacters(in: CharacterSet(charactersIn: "."))))")
            }
        }
    }

    /// `application/x-www-form-urlencoded`: every byte but unreserved ones percent-encoded.
    static func formEncoded(_ pairs: [(String, String)]) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }
        return pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, clientID: String) throws(LoginError) -> T {
        if response.status >= 500 { throw .unreachable("the OAuth host (HTTP \(response.status))") }
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw .unexpectedAnswer("HTTP \(response.status) without a JSON body")
        }
    }

    // MARK: Bodies

    struct DeviceCodeBody: Decodable {
        let deviceCode: String?
        let userCode: String?
        let verificationURI: String?
        let expiresIn: Int64?
        let interval: Int64?
        let error: String?

        enum CodingKeys: String, CodingKey {
            case deviceCode = "device_code"
            case userCode = "user_code"
            case verificationURI = "verification_uri"
            case expiresIn = "expires_in"
            case interval, error
        }
    }

    struct TokenBody: Decodable {
        let accessToken: String?
        let scope: String?
        let error: String?
        let interval: Int64?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case scope, error, interval
        }
    }

    struct UserBody: Decodable {
        let login: String
        let name: String?
    }
}

extension LoginError {
    /// An OAuth error code as the host sent it, quoted, when it looks like one (lower-case letters
    /// and `_`, at most 40); otherwise a description of it, never the raw text.
    static func echoedCode(_ code: String) -> String {
        guard (1...40).contains(code.count), code.allSatisfy({ ($0.isASCII && $0.isLowercase) || $0 == "_" }) else {
            return "an error code that is not one"
        }
        return "the error “\(code)”"
    }

}

/// The login's token in the home's credential store (``CredentialStore``: the system's, else an
/// owner-only file), under the name `search.github-token`.
public struct CredentialTokenVault: SearchTokenVault {
    private let store: any CredentialStore
    static let name = CredentialName("search.github-token")

    public init(store: any CredentialStore) {
        self.store = store
    }

    private var name: CredentialName {
        get throws(CredentialStoreError) {
            guard let name = Self.name else { throw CredentialStoreError("The token's name is not valid.", exitStatus: .software) }
            return name
        }
    }

    /// The item holds `{"token": …, "apiBaseURL": …}` (``LoginToken``); anything else reads as no login.
    public func token() throws -> LoginToken? {
        guard let text = try store.secret(name) else { return nil }
        return try? JSONDecoder().decode(LoginToken.self, from: Data(text.utf8))
    }

    public func keep(_ token: LoginToken) throws {
        let data = try JSONEncoder().encode(token)
        try store.store(String(decoding: data, as: UTF8.self), as: name)
    }

    public func forget() throws -> Bool {
        let name = try name
        let had = try store.secret(name) != nil
        try store.remove(name)
        return had
    }

    public var location: String { store.location }
    public var isSystemStore: Bool { store.backend.isSystem }
}
