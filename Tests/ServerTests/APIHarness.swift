import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MoaServer
import SharedKit
import Storage
import Testing

/// A `moa-server` in process (HummingbirdTesting's router client: every middleware and route, no
/// socket), on a fresh data folder, with helpers that speak its JSON API as a client would.
struct APIHarness {
    let folder: URL
    let server: MoaServer

    init(logger: Logger = Logger(label: "test")) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-api-\(UUID().uuidString)")
        // Scrypt at a test's cost: OWASP's parameters take ~128 MiB and most of a second per hash.
        server = try MoaServer(folder: MoaHome(root: folder), logger: logger, passwordCost: .testsOnly)
    }

    /// What one request got back.
    struct Reply: @unchecked Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let text: String
        /// The body as JSON (`nil` when it is not JSON).
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var array: [[String: Any]] { json as? [[String: Any]] ?? [] }
        /// A problem document's `type`, without its base (`not-found`).
        var problem: String? {
            guard headers[.contentType] == "application/problem+json" else { return nil }
            return (object["type"] as? String)?.replacingOccurrences(of: "https://moa.example/problems/", with: "")
        }
    }

    /// Runs `body` with a client of a running application on this server's routes.
    func run(_ body: @Sendable (Client) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = Application(router: try server.router())
        try await app.test(.router) { client in try await body(Client(client: client, outbox: folder.appendingPathComponent("outbox"))) }
    }

    struct Client: Sendable {
        let client: any TestClientProtocol
        let outbox: URL

        /// Sends `method path` with `json` (an object, serialised) or a raw `body`, and `token` as Bearer.
        @discardableResult
        func send(
            _ method: HTTPRequest.Method, _ path: String, json: [String: Any]? = nil, body raw: String? = nil,
            token: String? = nil, headers extra: HTTPFields = [:]
        ) async throws -> Reply {
            var headers = extra
            if let token { headers[.authorization] = "Bearer \(token)" }
            var body: ByteBuffer?
            if let json {
                body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
                if headers[.contentType] == nil { headers[.contentType] = "application/json" }
            } else if let raw {
                body = ByteBuffer(string: raw)
                if headers[.contentType] == nil { headers[.contentType] = "application/json" }
            }
            return try await client.execute(uri: path, method: method, headers: headers, body: body) { response in
                Reply(status: response.status, headers: response.headers, text: String(buffer: response.body))
            }
        }

        /// The newest code mailed to `email` of `purpose` (`verify` or `reset`), read from the server's outbox.
        func mailedCode(to email: String, purpose: String = "verify") throws -> String {
            let files = try FileManager.default.contentsOfDirectory(atPath: outbox.path).filter { $0.hasSuffix("-\(purpose).eml") }.sorted()
            for file in files.reversed() {
                let mail = try String(contentsOf: outbox.appendingPathComponent(file), encoding: .utf8)
                guard mail.contains("To: \(email)") else { continue }
                if let range = mail.range(of: #"code: \d{6}"#, options: .regularExpression)
                    ?? mail.range(of: #"code is \d{6}"#, options: .regularExpression)
                {
                    return String(mail[range].suffix(6))
                }
            }
            throw HarnessError("no \(purpose) mail to \(email) in the outbox")
        }

        /// Signs `email` up, verifies it with the mailed code, logs in: the session's tokens.
        func user(_ email: String, password: String = "plum-orbit-lantern-42-quietly") async throws -> Session {
            let signUp = try await send(.post, "/v1/auth/signup", json: ["email": email, "password": password])
            guard signUp.status == .created else { throw HarnessError("sign-up of \(email): \(signUp.status) \(signUp.text)") }
            let verify = try await send(
                .post, "/v1/auth/verify", json: ["email": email, "code": try mailedCode(to: email), "password": password])
            guard verify.status == .ok else { throw HarnessError("verification of \(email): \(verify.status) \(verify.text)") }
            return try await logIn(email, password: password)
        }

        func logIn(_ email: String, password: String = "plum-orbit-lantern-42-quietly") async throws -> Session {
            let login = try await send(.post, "/v1/auth/login", json: ["email": email, "password": password])
            guard login.status == .ok else { throw HarnessError("login of \(email): \(login.status) \(login.text)") }
            return try Session(login)
        }

        /// Opens a KRW checking account (or `currency`) for `session`: its number.
        func account(_ session: Session, name: String = "생활비", currency: String = "KRW") async throws -> String {
            let reply = try await send(
                .post, "/v1/accounts", json: ["type": "checking", "name": name, "currency": currency], token: session.access)
            guard reply.status == .created, let number = reply.object["number"] as? String else {
                throw HarnessError("opening an account: \(reply.status) \(reply.text)")
            }
            return number
        }

        /// The balance of `session`'s account `number`, in minor units.
        func balance(_ session: Session, _ number: String) async throws -> Int64? {
            let reply = try await send(.get, "/v1/accounts/\(number)", token: session.access)
            return ((reply.object["balance"] as? [String: Any])?["minor_units"] as? NSNumber)?.int64Value
        }
    }

    /// A session's tokens, as `POST /v1/auth/login` gave them.
    struct Session: Sendable {
        let access: String
        let refresh: String
        let userID: String

        init(_ reply: Reply) throws {
            guard let access = reply.object["access_token"] as? String, let refresh = reply.object["refresh_token"] as? String,
                let userID = reply.object["user_id"] as? String
            else { throw HarnessError("not a session: \(reply.text)") }
            self.access = access
            self.refresh = refresh
            self.userID = userID
        }
    }

    struct HarnessError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
