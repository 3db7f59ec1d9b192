import Foundation
import HTTPTypes
import OpenAPIRuntime
import OperationsAPI
import SharedKit

/// `moa-server` as the client calls it: one server, its connections (any `ClientTransport`: `moa`'s
/// is AsyncHTTPClient, in APITransport; a test's may join the server in one process), and what every
/// request carries (``middlewares``). Each served feature's
/// `<F>Remote` makes its generated `Client` (from its part of docs/api/openapi.yaml) on these, and
/// runs each call through ``call(_:)``: every error answer becomes the typed error `moa` reports
/// (``RemoteProblem``), every failure to reach the server ``ServerUnreachable``.
public struct RemoteAPI: Sendable {
    public let address: ServerAddress
    /// The connections, shared by every copy of this API.
    public let transport: any ClientTransport
    /// Problem decoding, then the credentials (``authorized(by:)``).
    public let middlewares: [any ClientMiddleware]
    /// How the transport's own errors read to a person.
    let interpret: Interpreter
    /// What this process learnt of the server's reachability (shared by every copy of this API).
    let reachability: Reachability

    /// Each request gives up after this long without an answer, unless `MOA_SERVER_TIMEOUT` says
    /// otherwise (``ServerAddress/timeout``).
    public static let timeout: TimeInterval = 30
    /// The longest `MOA_SERVER_TIMEOUT` may ask for.
    public static let maximumTimeout: TimeInterval = 300

    /// A client of `address` on `transport`, whose calls end within `timeout` seconds, and whose
    /// transport's own errors `interpret` says in a person's terms (``ServerUnreachable``,
    /// ``ServerNotTrusted``, …; by default: unreachable, perhaps sent).
    public init(
        address: ServerAddress, transport: any ClientTransport, timeout: TimeInterval,
        interpret: @escaping Interpreter = RemoteAPI.unreachable
    ) {
        self.init(
            address: address, transport: transport, reachability: Reachability(deadline: timeout),
            middlewares: [ProblemDecodingMiddleware()], interpret: interpret)
    }

    init(
        address: ServerAddress, transport: any ClientTransport, reachability: Reachability, middlewares: [any ClientMiddleware],
        interpret: @escaping Interpreter
    ) {
        self.address = address
        self.transport = transport
        self.reachability = reachability
        self.middlewares = middlewares
        self.interpret = interpret
    }

    /// How a transport's own error reads to a person, for a call to `address`.
    public typealias Interpreter = @Sendable (_ error: any Error, _ address: ServerAddress) -> any Error

    /// A transport error as the server out of reach, the request perhaps sent.
    public static let unreachable: Interpreter = { error, address in
        ServerUnreachable(address: address.url.absoluteString, reason: String(describing: error), sent: .perhaps)
    }

    /// The same server and connections; every request also goes through `credentials` (Auth's
    /// session middleware, which carries the session's access token and refreshes it once on a 401).
    public func authorized(by credentials: any ClientMiddleware) -> RemoteAPI {
        RemoteAPI(
            address: address, transport: transport, reachability: reachability, middlewares: middlewares + [credentials],
            interpret: interpret)
    }

    /// The same server and connections; every request carries `token`, as it is (a logout or a
    /// password change acts on that very session).
    public func authorized(by token: String) -> RemoteAPI {
        authorized(by: FixedTokenMiddleware(token: token))
    }

    /// Runs one call, with the generated client's wrapping taken off the error: what the server
    /// refused as ``RemoteProblem``, a server out of reach as ``ServerUnreachable``.
    ///
    /// Every call ends within ``timeout`` however the server behaves (the HTTP client's own deadline
    /// covers the answer's head only, so a server that trickles its body could hold it), and once a call of
    /// this process got no answer in time, the next ones fail at once without sending anything: one
    /// command never waits twice for a server that does not answer.
    public func call<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        if let silent = reachability.silence { throw silent }
        let (server, timeout) = (address.url.absoluteString, reachability.deadline)
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await work() }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeout))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    throw ServerUnreachable(address: server, reason: Self.noAnswer(within: timeout), sent: .perhaps)
                }
                return value
            }
        } catch let error as ClientError where error.underlyingError is DecodingError {
            // An answer of the right status whose body the document does not allow (a field missing,
            // a currency that is not ISO 4217, …): the server answered, in another API.
            throw Self.notUnderstood(after: error.request?.method)
        } catch let error as ClientError {
            throw remembered(unwrapped(error.underlyingError), server: server)
        } catch {
            throw remembered(unwrapped(error), server: server)
        }
    }

    /// `error`, remembered when it says the server did not answer in time.
    private func remembered(_ error: any Error, server: String) -> any Error {
        if let unreachable = error as? ServerUnreachable, unreachable.sent == .perhaps, unreachable.reason.hasPrefix("no answer came") {
            reachability.silence = ServerUnreachable(
                address: server, reason: "it did not answer an earlier request within \(Self.seconds(reachability.deadline))",
                sent: .nothing)
        }
        return error
    }

    public static func noAnswer(within timeout: TimeInterval) -> String { "no answer came within \(seconds(timeout))" }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) seconds" : String(format: "%.1f seconds", interval)
    }

    /// How long a call may take, and whether the server already failed to answer this process in time.
    final class Reachability: Sendable {
        let deadline: TimeInterval
        private let state = Locked<ServerUnreachable?>(nil)

        init(deadline: TimeInterval) { self.deadline = deadline }

        var silence: ServerUnreachable? {
            get { state.withLock { $0 } }
            set { state.withLock { $0 = newValue } }
        }
    }

    /// What the server said (a typed error), a cancellation, or the transport's error interpreted.
    func unwrapped(_ error: any Error) -> any Error {
        switch error {
        case let error as any UserFacingError: return error
        case is CancellationError: return error
        default: return interpret(error, address)
        }
    }

    /// A success whose body the document does not allow for (`type` "unexpected-response", exit
    /// status 78). After a request that changes something (not GET or HEAD), the server answered, so
    /// it may have done what it was asked: the sentence says so, lest it be asked twice.
    public static func notUnderstood(after method: HTTPRequest.Method?) -> RemoteProblem {
        if method == .get || method == .head { return unexpected("the request") }
        return RemoteProblem(
            type: "unexpected-response", status: 0,
            detail: "The server answered in a way this moa does not understand, so what was asked may or may not have been done.",
            hint: "Check what was done before asking again, and that moa and moa-server speak the same API (`moa doctor`).",
            exitStatus: .configuration)
    }

    /// An answer the document does not allow for (a success of another shape): the server and this
    /// client do not speak the same API.
    public static func unexpected(_ operation: String) -> RemoteProblem {
        RemoteProblem(
            type: "unexpected-response", status: 0, detail: "The server answered \(operation) in a way this moa does not understand.",
            hint: "Check that moa and moa-server speak the same API (`moa doctor`).", exitStatus: .configuration)
    }
}

/// An error answer of `moa-server` (RFC 9457): the same sentence, hint and exit status as the
/// embedded `moa` reports for it, since the server runs the same Domain. Text from the network is
/// cleaned of control and formatting characters and cut to a sentence's length before anyone sees it.
public struct RemoteProblem: UserFacingError, Equatable {
    /// The problem's kind, the last part of its `type` (`not-found`, `limit-exceeded`).
    public let type: String
    public let status: Int
    public let message: String
    public let hint: String?
    public let exitStatus: ExitStatus

    init(type: String, status: Int, detail: String, hint: String?, exitStatus: ExitStatus) {
        self.type = type
        self.status = status
        self.message = Self.clean(detail)
        self.hint = hint.map(Self.clean)
        self.exitStatus = exitStatus
    }

    /// Text from the network as one safe line of at most 400 characters.
    public static func clean(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: " "
            default: scalar
            }
        }
        let line = String(String.UnicodeScalarView(scalars)).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return line.count > 400 ? String(line.prefix(400)) + "…" : line
    }
}

/// The server could not be reached, or the connection broke before an answer: trying again later
/// may work (75).
public struct ServerUnreachable: UserFacingError, Equatable {
    public let address: String
    public let reason: String
    /// Whether the request may have reached the server.
    public let sent: Sent

    public enum Sent: Sendable, Equatable {
        /// Refused, or no such host: nothing left this machine.
        case nothing
        /// A timeout or a dropped connection: the server may have acted on it.
        case perhaps
    }

    public init(address: String, reason: String, sent: Sent) {
        self.address = address
        self.reason = reason
        self.sent = sent
    }

    public var message: String { "Cannot reach moa-server at \(address): \(RemoteProblem.clean(reason).trimmingCharacters(in: ["."]))." }
    public var hint: String? {
        switch sent {
        case .nothing: "Nothing reached it: check that it runs and that the address is right (`moa doctor`), then try again."
        case .perhaps: "Check that it runs (`moa doctor`), then try again."
        }
    }
    public var exitStatus: ExitStatus { .temporaryFailure }
}

/// The server's certificate is not one this machine trusts (a self-signed one, a private CA not
/// installed, an expired one): trying again will not help, so it is a configuration problem (78).
public struct ServerNotTrusted: UserFacingError, Equatable {
    public let address: String
    public let reason: String

    public init(address: String, reason: String) {
        self.address = address
        self.reason = reason
    }

    public var message: String {
        "moa-server at \(address) presented a certificate this machine does not trust (\(RemoteProblem.clean(reason).trimmingCharacters(in: ["."])))."
    }
    public var hint: String? {
        "Give moa the server's CA with --ca-file FILE (remembered with the server) or MOA_CA_FILE, or install it in the system's "
            + "store (on Debian and Ubuntu copy it to /usr/local/share/ca-certificates/ and run update-ca-certificates)."
    }
    public var exitStatus: ExitStatus { .configuration }
}

/// This machine's HTTP client cannot use the server's address as it is written (78).
public struct ServerAddressUnusable: UserFacingError, Equatable {
    public let address: String
    public let reason: String

    public init(address: String, reason: String) {
        self.address = address
        self.reason = reason
    }

    public var message: String { "Cannot use the server address \(address): \(RemoteProblem.clean(reason).trimmingCharacters(in: ["."]))." }
    public var hint: String? { "For example https://bank.example, http://localhost:8080 or http://[::1]:8080." }
    public var exitStatus: ExitStatus { .configuration }
}

/// Turns every answer of status 400 or more into a thrown ``RemoteProblem`` (from its problem
/// document when it is one), so the generated code only ever decodes successes.
struct ProblemDecodingMiddleware: ClientMiddleware {
    static let maximumProblemBytes = 64 * 1_024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var data = Data()
        if let responseBody { data = try await Data(collecting: responseBody, upTo: Self.maximumProblemBytes) }
        throw Self.problem(status: response.status, data: data, retryAfter: response.headerFields[.retryAfter])
    }

    static func problem(status: HTTPResponse.Status, data: Data, retryAfter: String?) -> RemoteProblem {
        struct Document: Decodable {
            let type: String?
            let detail: String?
            let hint: String?
            let exitStatus: Int?
            enum CodingKeys: String, CodingKey {
                case type, detail, hint
                case exitStatus = "exit_status"
            }
        }
        let document = try? JSONDecoder().decode(Document.self, from: data)
        let kind = document?.type.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "http-\(status.code)"
        let exit = document?.exitStatus.flatMap { Int32(exactly: $0) }.flatMap(ExitStatus.init(rawValue:)) ?? fallback(status)
        guard let document else { return notMoaServer(status) }
        return RemoteProblem(
            type: kind, status: status.code, detail: document.detail ?? "The server refused the request (HTTP \(status.code)).",
            hint: document.hint, exitStatus: exit == .ok ? .software : exit)
    }

    /// An error answer that is not a problem document: a proxy's page, or a server that is not moa-server.
    static func notMoaServer(_ status: HTTPResponse.Status) -> RemoteProblem {
        let phrase = status.reasonPhrase.isEmpty ? HTTPResponse.Status(code: status.code).reasonPhrase : status.reasonPhrase
        if [429, 502, 503, 504].contains(status.code) { // the connection ceiling's bare 503, or a proxy's: busy for now
            return RemoteProblem(
                type: "http-\(status.code)", status: status.code,
                detail: "The server is too busy or restarting (HTTP \(status.code)\(phrase.isEmpty ? "" : " " + phrase)).",
                hint: "Try again in a moment.", exitStatus: .temporaryFailure)
        }
        return RemoteProblem(
            type: "http-\(status.code)", status: status.code,
            detail:
                "The server answered HTTP \(status.code)\(phrase.isEmpty ? "" : " " + phrase) without a problem document, which moa-server always sends.",
            hint: "Check that the server address names a moa-server (`moa doctor`), and any proxy in front of it.",
            exitStatus: fallback(status))
    }

    /// The exit status of an answer that is not a problem document (a proxy's error page, say).
    static func fallback(_ status: HTTPResponse.Status) -> ExitStatus {
        switch status.code {
        case 401, 403: .noPermission
        case 404: .unavailable
        case 409: .refused
        case 429, 502, 503, 504: .temporaryFailure
        case 400..<500: .dataError
        default: .unavailable
        }
    }
}

/// Sends one given access token (a logout or a password change acts on that very session).
struct FixedTokenMiddleware: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

extension RemoteAPI {
    /// The API version this `moa` speaks (docs/api/openapi.yaml, `info.version`).
    public static let apiVersion = "1.2.0"

    /// What `GET /healthz` tells: the server's version and API version.
    public struct Health: Sendable, Equatable {
        public let version: String
        public let apiVersion: String

        /// Whether client and server speak the same API: the same major version.
        public var isCompatible: Bool {
            apiVersion.split(separator: ".").first == RemoteAPI.apiVersion.split(separator: ".").first
        }
    }

    /// Asks the server whether it runs (``ServerUnreachable`` when it cannot be reached).
    public func health() async throws -> Health {
        let client = Client(serverURL: address.url, configuration: .moa, transport: transport, middlewares: middlewares)
        return try await call {
            guard case .ok(let ok) = try await client.getHealth() else { throw RemoteAPI.unexpected("the health check") }
            let health = try ok.body.json
            return Health(
                version: RemoteProblem.clean(health.version ?? "unknown"), apiVersion: RemoteProblem.clean(health.apiVersion ?? "unknown"))
        }
    }
}
