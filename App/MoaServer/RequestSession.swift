import APIServing
import AuthDomain
import AuthInterface
import AuthServer
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// Reads `Authorization: Bearer <access token>` and runs the rest of the request as its user
/// (Auth's `RequestUser`), and as a `ServedRequest` (its client and logger). It refuses nothing itself: a route that needs a user finds none and answers
/// 401 (`NotLoggedInError`, which this middleware turns into the `unauthenticated` problem with
/// its `WWW-Authenticate` challenge); sign-up, login, refresh and the others that need none do not care.
struct BearerMiddleware: RouterMiddleware {
    typealias Context = MoaRequestContext
    let tokens: SessionTokens
    let clients: ClientAddressResolver

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = request.headers[.authorization]
        let user = try await RequestUser.of(authorization: header, tokens: tokens)
        if let user { context.trace.user = user.user.id.rawValue }
        let client = clients.client(peer: context.remoteAddress, forwardedFor: ClientAddressResolver.forwardedFor(request.headers))
        let served = ServedRequest(tokenGiven: header != nil, client: client, logger: context.logger)
        let unauthenticated = Problem.unauthenticated(NotLoggedInError().message, tokenGiven: served.tokenGiven)
        // A route that acts for a user answers 401 before it reads anything else of the request.
        if user == nil, Self.actsForAUser(request.uri.path) { throw unauthenticated }
        do {
            return try await ServedRequest.$current.withValue(served) {
                try await RequestUser.run(as: user) { try await next(request, context) }
            }
        } catch let error as OpenAPIRuntime.ServerError where error.underlyingError is NotLoggedInError {
            throw unauthenticated
        } catch is NotLoggedInError {
            throw unauthenticated
        }
    }
}

extension BearerMiddleware {
    /// The routes that act for the token's user (docs/api/openapi.yaml: every one under `/v1/` but
    /// sign-up, verification, login, refresh and password reset).
    static func actsForAUser(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard segments.first == "v1", segments.count >= 2 else { return false }
        switch segments[1] {
        case "accounts", "transfers", "recipients", "inbox", "settings", "archive": return true
        case "auth":
            return segments.count >= 3 && ["logout", "session", "delete"].contains(segments[2])
                || segments.dropFirst(2).first == "password" && segments.dropFirst(3).first == "change"
        default: return false
        }
    }
}

/// An empty request body is no body: `POST /v1/auth/logout` takes an optional one, and a client
/// that sends none (or zero bytes) means "no options", not "malformed JSON". Bodies are already at
/// most ``MoaServer/maximumBodyBytes`` (``BodyLimitMiddleware``), so collecting one costs little.
struct EmptyBodyMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPTypes.HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPTypes.HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        guard let body else { return try await next(request, nil, metadata) }
        if case .known(0) = body.length { return try await next(request, nil, metadata) }
        let bytes = try await [UInt8](collecting: body, upTo: MoaServer.maximumBodyBytes)
        switch DuplicateKeys.first(in: bytes) {
        case .duplicate(let twice):
            let field = Problem.quoted(twice)
            throw Problem.malformed("The body gives \(field) twice; each field may be given once.", field: field)
        case .tooDeep:
            throw Problem.malformed("The body nests objects and arrays deeper than \(DuplicateKeys.maximumDepth) levels.")
        case nil: break
        }
        return try await next(request, bytes.isEmpty ? nil : HTTPBody(bytes), metadata)
    }
}
