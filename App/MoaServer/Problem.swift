import AuthInterface
import Foundation
import Hummingbird
import Logging
import NIOHTTP1
import OpenAPIRuntime
import SharedKit

/// An error response as RFC 9457 describes it (`application/problem+json`): a stable `type` URI per
/// kind of problem, a `title`, the HTTP `status`, a `detail` sentence, and the `exit_status` the CLI
/// exits with for it (docs/api/openapi.yaml, `Problem`, lists every type).
struct Problem: Error, Sendable, Equatable {
    /// The last path component of the `type` URI (`https://moa.example/problems/not-found`).
    let kind: String
    let title: String
    let status: HTTPResponse.Status
    let detail: String
    let exitStatus: ExitStatus
    var hint: String? = nil
    /// A JSON Pointer to the value at fault (`/amount`), for `validation` and `unknown-field`.
    var field: String? = nil
    /// Seconds until trying again may work (`Retry-After`), for `rate-limited`.
    var retryAfter: Int? = nil
    /// `WWW-Authenticate` (RFC 6750), for `unauthenticated`.
    var challenge: String? = nil
    /// `Allow` (RFC 9110), for `method-not-allowed`.
    var allow: String? = nil
    /// Whether the connection is closed after this answer (a body that did not arrive in time).
    var closesConnection = false

    static let typeBase = "https://moa.example/problems/"

    var response: Response {
        var response = Response(
            status: status, headers: [.contentType: "application/problem+json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: documentBytes)))
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        if let challenge { response.headers[.wwwAuthenticate] = challenge }
        if let allow { response.headers[.allow] = allow }
        if closesConnection { response.headers[.connection] = "close" }
        return response
    }

    /// The problem document's bytes (what ``response`` carries).
    var documentBytes: [UInt8] {
        var object: [String: Any] = [
            "type": Self.typeBase + kind, "title": title, "status": status.code, "detail": detail, "exit_status": Int(exitStatus.rawValue),
        ]
        if let hint { object["hint"] = hint }
        if let field { object["field"] = field }
        return Array(Self.serialized(object))
    }

    static func serialized(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status, contentType: String) -> Response {
        let data = serialized(object)
        return Response(
            status: status, headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: Kinds

    static func unauthenticated(tokenGiven: Bool) -> Problem {
        Problem(
            kind: "unauthenticated", title: "Unauthenticated", status: .unauthorized, detail: NotLoggedInError().message,
            exitStatus: .noPermission, challenge: tokenGiven ? #"Bearer error="invalid_token""# : "Bearer")
    }

    static func malformed(_ detail: String, field: String? = nil) -> Problem {
        Problem(
            kind: "malformed-request", title: "Malformed request", status: .badRequest, detail: detail, exitStatus: .dataError, field: field
        )
    }

    /// A query or path parameter outside what the document allows (400 `invalid-parameter`).
    static func invalidParameter(_ detail: String, name: String? = nil) -> Problem {
        Problem(kind: "invalid-parameter", title: "Invalid parameter", status: .badRequest, detail: detail, exitStatus: .usage, field: name)
    }

    /// A value of the right JSON type that is longer than the document's transport bound.
    static func tooLong(_ pointer: String, maximum: Int) -> Problem {
        Problem(
            kind: "validation", title: "Invalid value", status: .unprocessableContent,
            detail: "The value of \(pointer) is longer than \(maximum) characters.", exitStatus: .dataError, field: pointer)
    }

    /// The problem an HTTP error of the router or of Hummingbird stands for, by its status.
    static func from(_ error: any HTTPResponseError) -> Problem {
        switch error.status {
        case .notFound:
            Problem(
                kind: "not-found", title: "Not found", status: .notFound, detail: "There is nothing at this address.",
                exitStatus: .unavailable)
        case .contentTooLarge:
            Problem(
                kind: "payload-too-large", title: "Payload too large", status: .contentTooLarge,
                detail: "The request body is larger than \(MoaServer.maximumBodyBytes / 1_024) KiB.", exitStatus: .dataError)
        default:
            error.status.code < 500
                ? malformed("The request cannot be read.")
                : Problem(
                    kind: "internal", title: error.status.reasonPhrase, status: error.status,
                    detail: "The server failed unexpectedly; the cause is in its log.", exitStatus: .software)
        }
    }

    /// What the generated server code threw: our own error from a handler (unwrapped), or a request
    /// it could not decode — a body that is not JSON, has a wrong type, misses or adds a field, a
    /// parameter or header that cannot be read, a body that is not `application/json`.
    static func from(_ error: OpenAPIRuntime.ServerError) -> Problem? {
        switch error.underlyingError {
        case let problem as Problem: return problem
        case let error as HTTPParserError: return from(error)
        case let error as any UserFacingError: return Problem(error)
        case let error as DecodingError: return from(error)
        default: break
        }
        switch error.httpStatus {
        case .unsupportedMediaType:
            return Problem(
                kind: "unsupported-media-type", title: "Unsupported media type", status: .unsupportedMediaType,
                detail: "The request body must be application/json.", exitStatus: .dataError)
        case .badRequest:
            let cause = String(describing: error.underlyingError)
            if cause.contains("Failed to decode a value of type") {
                return Problem(
                    kind: "invalid-parameter", title: "Invalid parameter", status: .badRequest,
                    detail: "A parameter of the address or the query has a value this route does not take.", exitStatus: .usage)
            }
            if cause.contains("header field") {
                return malformed("A required header is missing: \(Self.quoted(error.causeDescription)).")
            }
            return malformed("The request cannot be read: \(Self.quoted(error.causeDescription)).")
        default:
            return nil
        }
    }

    /// A body the generated decoder refused: a field this route does not define, or JSON of the wrong
    /// shape — or a path or query parameter it could not read (its decoder's errors carry no coding
    /// path and say nothing of JSON).
    static func from(_ error: DecodingError) -> Problem {
        if case .keyNotFound = error {
            // Only a body's object misses a key (parameters are read one by one).
        } else if let context = Self.context(of: error), context.codingPath.isEmpty, !Self.isAboutJSON(context.debugDescription) {
            return invalidParameter("A parameter of the address or the query has a value this route does not take.")
        }
        switch error {
        case .dataCorrupted(let context) where context.debugDescription.hasPrefix("Additional properties are disabled"):
            let name = context.codingPath.last?.stringValue ?? "?"
            let pointer = "/" + (context.codingPath.dropLast().map(\.stringValue) + [name]).joined(separator: "/")
            return Problem(
                kind: "unknown-field", title: "Unknown field", status: .badRequest,
                detail: "The request has a field “\(Self.quoted(name))” that this route does not take.", exitStatus: .dataError,
                field: pointer)
        case .keyNotFound(let key, let context):
            let pointer = "/" + (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: "/")
            return malformed("The request has no “\(Self.quoted(key.stringValue))”, which this route needs.", field: pointer)
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let pointer = "/" + context.codingPath.map(\.stringValue).joined(separator: "/")
            return malformed("The value of \(Self.quoted(pointer)) has the wrong type.", field: pointer)
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return malformed("The request body is not valid JSON.") }
            let pointer = "/" + context.codingPath.map(\.stringValue).joined(separator: "/")
            return malformed("The value of \(Self.quoted(pointer)) cannot be read.", field: pointer)
        @unknown default:
            return malformed("The request body cannot be read.")
        }
    }

    static func context(of error: DecodingError) -> DecodingError.Context? {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            context
        @unknown default: nil
        }
    }

    /// Whether a decoding error's message is the JSON decoder's (a body), not the URI decoder's (a parameter).
    static func isAboutJSON(_ description: String) -> Bool {
        description.contains("JSON") || description.hasPrefix("Expected") || description.contains("Unexpected end of file")
    }

    /// The HTTP parser's refusal of a request that was under way — most often a client that closed
    /// the connection before its body was all there: the client's doing (400), not the server's.
    static func from(_ error: HTTPParserError) -> Problem {
        switch error {
        case .invalidEOFState: malformed("The connection ended before the request's body did.")
        case .headerOverflow:
            malformed(
                "The request's header (its address among it) is larger than the server takes (\(ConnectionLimits().maximumHeaderBytes / 1_024) KiB)."
            )
        default: malformed("The request is not valid HTTP/1.1.")
        }
    }

    /// Text from the request, as a detail quotes it: at most 40 characters, no control character.
    static func quoted(_ text: String) -> String {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.generalCategory.isControlLike }))
        return clean.count > 40 ? String(clean.prefix(40)) + "…" : clean
    }
}

extension Unicode.GeneralCategory {
    /// Control, format (bidirectional overrides among them), and unassigned or private code points.
    fileprivate var isControlLike: Bool {
        switch self {
        case .control, .format, .unassigned, .privateUse, .surrogate, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}

/// Turns every error a route throws into a problem document: the router's own (no such route, wrong
/// method, body too large) by their status, ours as they are, anything else as a 500 that says
/// nothing of the cause (which is logged instead).
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = MoaRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let answer = Answer(logger: context.logger, trace: context.trace)
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return answer.refused(problem)
        } catch let error as OpenAPIRuntime.ServerError {
            guard let problem = Problem.from(error) else { return answer.failed(request, error.underlyingError) }
            return answer(problem, request, error.underlyingError)
        } catch let error as any UserFacingError {
            return answer(Problem(error), request, error)
        } catch let error as any HTTPResponseError {
            return answer.refused(Problem.from(error))
        } catch let error as HTTPParserError {
            return answer.refused(Problem.from(error))
        } catch {
            return answer.failed(request, error)
        }
    }
}

/// How ``ProblemMiddleware`` answers one request's error: in the request's log (its id on every
/// line), the problem's kind noted for the request log line.
private struct Answer {
    let logger: Logger
    let trace: RequestTrace

    func refused(_ problem: Problem) -> Response {
        trace.problem = problem.kind
        return problem.response
    }

    /// `problem`, unless it is a 500 (``failed(_:_:)``). A 503 — the database away or too busy for
    /// now: the client may retry — is logged as a warning, with its cause.
    func callAsFunction(_ problem: Problem, _ request: Request, _ error: (any Error)?) -> Response {
        if problem.status == .serviceUnavailable {
            logger.warning(
                "request refused for now",
                metadata: ["path": .string(request.uri.path), "error": .string(error.map { String(describing: $0) } ?? "")])
            return refused(problem)
        }
        return problem.status.code >= 500 ? failed(request, error ?? problem) : refused(problem)
    }

    /// A bug, or the database or the disk failing under us: logged with its cause (never a request
    /// body, so never a password or a token), answered with a 500 that tells nothing of it.
    func failed(_ request: Request, _ error: any Error) -> Response {
        logger.error("request failed", metadata: ["path": .string(request.uri.path), "error": .string(String(describing: error))])
        return refused(
            Problem(
                kind: "internal", title: "Internal Server Error", status: .internalServerError,
                detail: "The server failed unexpectedly; the cause is in its log.", exitStatus: .software))
    }
}

/// Bounds a request's body before any route reads it: larger than `maximum` bytes is 413
/// (`payload-too-large`) — by its `Content-Length` when it has one, else by collecting at most
/// `maximum` bytes —; not all there within `deadline` is 408 (`request-timeout`) and the connection
/// is closed, so a client sending its body a byte at a time holds nothing for long (the idle timer
/// is reset by every body part); and a body that is not `application/json` — no `Content-Type` at
/// all included — is 415. A route then reads the collected body.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let maximum: Int
    var deadline: Duration = .seconds(10)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximum {
            throw HTTPError(.contentTooLarge)
        }
        let body = request.body
        let (maximum, deadline) = (maximum, deadline)
        let collected = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: maximum) }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let collected else { throw Problem.bodyTooSlow(deadline) }
        if collected.readableBytes > 0, !Self.isJSON(request.headers[.contentType]) { throw ServerAPI.notJSON }
        var request = request
        request.body = RequestBody(buffer: collected)
        return try await next(request, context)
    }

    /// `application/json`, with at most a `charset=utf-8` parameter (JSON is UTF-8: RFC 8259).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard parts.first == "application/json" else { return false }
        return parts.dropFirst().allSatisfy { $0.replacingOccurrences(of: " ", with: "") == "charset=utf-8" }
    }
}

extension Problem {
    /// A request body that did not arrive within `deadline`.
    static func bodyTooSlow(_ deadline: Duration) -> Problem {
        var problem = Problem(
            kind: "request-timeout", title: "Request timeout", status: .requestTimeout,
            detail: "The request body did not arrive within \(deadline.components.seconds) seconds.", exitStatus: .temporaryFailure)
        problem.closesConnection = true
        return problem
    }
}
