import APIServing
import AuthDomain
import AuthInterface
import AuthServer
import Foundation
import HTTPServing
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
    /// The routes the server serves (``actsForAUser(_:routes:)``).
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = request.headers[.authorization]
        let user = try await RequestUser.of(authorization: header, tokens: tokens)
        if let user { context.trace.user = user.user.id.rawValue }
        let client = clients.client(peer: context.remoteAddress, forwardedFor: ClientAddressResolver.forwardedFor(request.headers))
        let served = ServedRequest(tokenGiven: header != nil, client: client, logger: context.logger)
        let unauthenticated = Problem.unauthenticated(NotLoggedInError().message, tokenGiven: served.tokenGiven)
        // A route that acts for a user answers 401 before it reads anything else of the request.
        if user == nil, Self.actsForAUser(request.uri.path, routes: routes) { throw unauthenticated }
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
    /// Whether `path` is one of the server's routes that act for the token's user: every route
    /// registered under `/v1/` but Auth's open ones (``AuthHandlers/openPaths``: sign-up,
    /// verification, login, refresh, password reset). A feature served tomorrow is covered by
    /// registering its handlers; a path nobody serves stays a 404 for anyone.
    /// The path is read as the router reads it: empty segments do not count (`//v1//archive` is
    /// `/v1/archive`).
    static func actsForAUser(_ path: String, routes: RouteTable) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let normalized = "/" + segments.joined(separator: "/")
        return segments.first == "v1" && !AuthHandlers.openPaths.contains(normalized) && !routes.methods(at: normalized).isEmpty
    }
}
