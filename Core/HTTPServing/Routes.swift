import APIServing
import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime
import SharedKit

/// The routes the generated code registers — each operation's method and path template
/// (`/v1/accounts/{account}`) — recorded on their way to the router, so that the server can tell a
/// path it serves with another method (405, with `Allow`) from a path it does not serve (404).
public final class RouteTable: Sendable {
    private let routes = Locked<[(method: HTTPRequest.Method, segments: [Substring])]>([])

    public init() {}

    /// A transport that records each route in this table and registers it on `router`.
    public func recording(on router: Router<MoaRequestContext>) -> some ServerTransport {
        Recorder(router: router, table: self)
    }

    private struct Recorder: ServerTransport {
        let router: Router<MoaRequestContext>
        let table: RouteTable

        func register(
            _ handler: @Sendable @escaping (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
            method: HTTPRequest.Method, path: String
        ) throws {
            table.routes.withLock { $0.append((method, path.split(separator: "/"))) }
            router.register(handler, method: method, path: path)
        }
    }

    /// The methods served at `path` (a template's `{name}` matches any one segment), in a stable order.
    public func methods(at path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        let methods = routes.withLock { routes in
            routes.filter { route in
                route.segments.count == segments.count
                    && zip(route.segments, segments).allSatisfy { template, actual in template.hasPrefix("{") || template == actual }
            }.map(\.method)
        }
        return Array(Set(methods.map(\.rawValue))).sorted().compactMap { HTTPRequest.Method($0) }
    }
}

/// A 404 of the router for a path the server serves with other methods becomes 405
/// `method-not-allowed`, with `Allow` naming them (RFC 9110).
public struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    public init(routes: RouteTable) { self.routes = routes }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.methods(at: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            throw Problem(
                kind: "method-not-allowed", title: "Method not allowed", status: .methodNotAllowed,
                detail:
                    "\(request.uri.path) does not take \(request.method.rawValue); it takes \(allowed.map(\.rawValue).joined(separator: ", ")).",
                exitStatus: .usage, allow: allowed.map(\.rawValue).joined(separator: ", "))
        }
    }
}
