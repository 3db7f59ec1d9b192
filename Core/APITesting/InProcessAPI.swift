import APIClient
import APIServing
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKit

/// A feature's generated server and its generated client in one process, without a socket: the
/// handlers register their routes here (a `ServerTransport`), and the client sends each request here
/// (a `ClientTransport`), to the route whose method and path template match, with the path's
/// parameters — through the same generated decoding and encoding as over the network. What a handler
/// throws becomes the problem document the server would send (``Problem``, by `problems`).
///
/// So a feature's `Server` and `Remote` targets are tested together in the feature's own closure,
/// without Hummingbird or a port: every field of a record crosses the wire's JSON both ways.
public final class InProcessAPI: ServerTransport, ClientTransport, Sendable {
    public typealias Handler =
        @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)

    private struct Route: Sendable {
        let method: HTTPRequest.Method
        let segments: [Substring]
        let handler: Handler
    }

    private let routes = Locked<[Route]>([])
    private let problems: ProblemCatalog
    private let requiresToken: Bool

    /// - Parameters:
    ///   - problems: how the feature's typed errors become problem documents (the server's catalog).
    ///   - requiresToken: whether every request must carry `Authorization: Bearer <token>`, as
    ///     moa-server's routes that act for a user do; one without is answered 401, as there.
    public init(problems: ProblemCatalog = ProblemCatalog([]), requiresToken: Bool = false) {
        self.problems = problems
        self.requiresToken = requiresToken
    }

    /// A client of these handlers, as `moa`'s remote use cases get one: every call ends within
    /// `timeout` seconds, and carries `token` as its bearer token (none when `nil`). The deadline only
    /// guards against a handler that never answers: in a whole test run on two cores a call may wait
    /// seconds behind other suites' password hashing (Auth's served tests timed out at 5 in CI).
    public func client(token: String? = "in-process-token", timeout: TimeInterval = 60) throws -> RemoteAPI {
        let api = RemoteAPI(address: try ServerAddress("http://127.0.0.1:1", origin: .option), transport: self, timeout: timeout)
        return token.map { api.authorized(by: $0) } ?? api
    }

    /// What the handlers answer `GET path` with, as any HTTP client reads it — not `moa`, which
    /// decodes it: the status and the raw body (up to 1 MiB), for a test of the wire itself.
    public func get(_ path: String, token: String? = "in-process-token") async throws -> (status: HTTPResponse.Status, body: Data) {
        var fields: HTTPFields = [:]
        if let token { fields[.authorization] = "Bearer \(token)" }
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: path, headerFields: fields)
        let (response, body) = try await send(request, body: nil, baseURL: URL(fileURLWithPath: "/"), operationID: "get")
        guard let body else { return (response.status, Data()) }
        return (response.status, try await Data(collecting: body, upTo: 1 << 20))
    }

    /// The JSON object the handlers answer `GET path` with, and the status (`nil`: the body is not one).
    public func object(get path: String, token: String? = "in-process-token") async throws -> (
        status: HTTPResponse.Status, object: NSDictionary?
    ) {
        let (status, body) = try await get(path, token: token)
        return (status, (try? JSONSerialization.jsonObject(with: body)) as? NSDictionary)
    }

    /// `json` — e.g. what `moa … --json` printed — as an object to compare with an answer's (`nil`: not one).
    public static func object(_ json: String) -> NSDictionary? {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? NSDictionary
    }

    public func register(_ handler: @escaping Handler, method: HTTPRequest.Method, path: String) throws {
        routes.withLock { $0.append(Route(method: method, segments: path.split(separator: "/"), handler: handler)) }
    }

    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let path = (request.path ?? "/").split(separator: "?", maxSplits: 1).first ?? "/"
        let segments = path.split(separator: "/")
        let match = routes.withLock { routes in
            routes.first { route in
                route.method == request.method && route.segments.count == segments.count
                    && zip(route.segments, segments).allSatisfy { template, actual in template.hasPrefix("{") || template == actual }
            }
        }
        guard let match else {
            return answer(
                Problem(
                    kind: "not-found", title: "Not found", status: .notFound, detail: "There is nothing at \(path).",
                    exitStatus: .unavailable))
        }
        if requiresToken, request.headerFields[.authorization].flatMap(BearerToken.parse) == nil {
            return answer(Problem.unauthenticated("The request carries no bearer token.", tokenGiven: false))
        }
        var parameters: [String: Substring] = [:]
        for (template, actual) in zip(match.segments, segments) where template.hasPrefix("{") {
            parameters[String(template.dropFirst().dropLast())] = actual
        }
        do {
            return try await match.handler(request, body, ServerRequestMetadata(pathParameters: parameters))
        } catch let error as ServerError {
            return answer(Problem.from(error, catalog: problems) ?? Problem.internalError)
        } catch let error as any UserFacingError {
            return answer(problems.problem(for: error))
        }
    }

    /// `problem` as the server answers it: its status, its headers, its document.
    private func answer(_ problem: Problem) -> (HTTPResponse, HTTPBody?) {
        var fields: HTTPFields = [.contentType: "application/problem+json"]
        if let retryAfter = problem.retryAfter { fields[.retryAfter] = String(retryAfter) }
        if let challenge = problem.challenge { fields[.wwwAuthenticate] = challenge }
        return (HTTPResponse(status: problem.status, headerFields: fields), HTTPBody(problem.documentBytes))
    }
}
