import AuthDomain
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Runs each request as the user of its `Authorization: Bearer` token (``RequestUser``), on any
/// `ServerTransport`: what `moa-server`'s bearer check does in front of Hummingbird, for Auth's
/// handlers served without it (its served tests, on an in-process transport). A request without a
/// live token runs as nobody, and a route that needs a user answers 401 itself.
public struct RequestUserMiddleware: ServerMiddleware {
    let tokens: SessionTokens

    public init(tokens: SessionTokens) {
        self.tokens = tokens
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let user = try await RequestUser.of(authorization: request.headerFields[.authorization], tokens: tokens)
        return try await RequestUser.run(as: user) { try await next(request, body, metadata) }
    }
}
