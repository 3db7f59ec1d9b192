import Foundation
import Hummingbird
import Logging
import SharedKit

/// An error response as RFC 9457 describes it (`application/problem+json`): a stable `type` URI per
/// kind of problem, a `title`, the HTTP `status`, a `detail` sentence, and the `exit_status` the CLI
/// exits with for it (docs/api/openapi.yaml, `Problem`).
struct Problem: Error, Sendable, Equatable {
    /// The last path component of the `type` URI (`https://moa.example/problems/not-found`).
    let kind: String
    let title: String
    let status: HTTPResponse.Status
    let detail: String
    let exitStatus: ExitStatus

    static let typeBase = "https://moa.example/problems/"

    var response: Response {
        Self.json(
            [
                "type": Self.typeBase + kind, "title": title, "status": status.code, "detail": detail,
                "exit_status": Int(exitStatus.rawValue),
            ],
            status: status, contentType: "application/problem+json")
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status, contentType: String) -> Response {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The problem an HTTP error of the router or of Hummingbird stands for, by its status.
    static func from(_ error: any HTTPResponseError) -> Problem {
        switch error.status {
        case .notFound:
            Problem(
                kind: "not-found", title: "Not found", status: .notFound, detail: "There is nothing at this address.",
                exitStatus: .unavailable)
        case .methodNotAllowed:
            Problem(
                kind: "method-not-allowed", title: "Method not allowed", status: .methodNotAllowed,
                detail: "This address does not take that method.", exitStatus: .usage)
        case .contentTooLarge:
            Problem(
                kind: "payload-too-large", title: "Payload too large", status: .contentTooLarge,
                detail: "The request body is larger than \(MoaServer.maximumBodyBytes / 1_024) KiB.", exitStatus: .dataError)
        default:
            Problem(
                kind: error.status.code < 500 ? "malformed-request" : "internal", title: error.status.reasonPhrase, status: error.status,
                detail: error.status.code < 500 ? "The request cannot be read." : "The server failed; nothing was changed.",
                exitStatus: error.status.code < 500 ? .dataError : .software)
        }
    }
}

/// Turns every error a route throws into a problem document: the router's own (no such route, wrong
/// method, body too large) by their status, ours as they are, anything else as a 500 that says
/// nothing of the cause (which is logged instead).
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return problem.response
        } catch let error as any HTTPResponseError {
            return Problem.from(error).response
        } catch {
            logger.error("request failed", metadata: ["path": .string(request.uri.path), "error": .string(String(describing: error))])
            return Problem(
                kind: "internal", title: "Internal Server Error", status: .internalServerError,
                detail: "The server failed; nothing was changed.", exitStatus: .software
            )
            .response
        }
    }
}

/// Refuses a request whose body is larger than `maximum` bytes (413, `payload-too-large`) before any
/// route reads it: by its `Content-Length` when it has one, and by collecting at most `maximum` bytes
/// of a body without one (chunked). A route then reads the collected body.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let maximum: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximum {
            throw HTTPError(.contentTooLarge)
        }
        var request = request
        _ = try await request.collectBody(upTo: maximum)
        return try await next(request, context)
    }
}
