import APIServing
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// An empty request body is no body: `POST /v1/auth/logout` takes an optional one, and a client
/// that sends none (or zero bytes) means "no options", not "malformed JSON". A body that names a
/// key twice, or nests past ``DuplicateKeys/maximumDepth``, is refused (400 `malformed-request`).
/// Bodies are already at most `maximumBodyBytes` (``BodyLimitMiddleware``), so collecting one costs little.
public struct EmptyBodyMiddleware: ServerMiddleware {
    let maximumBodyBytes: Int

    public init(maximumBodyBytes: Int) { self.maximumBodyBytes = maximumBodyBytes }

    public func intercept(
        _ request: HTTPTypes.HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPTypes.HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        guard let body else { return try await next(request, nil, metadata) }
        if case .known(0) = body.length { return try await next(request, nil, metadata) }
        let bytes = try await [UInt8](collecting: body, upTo: maximumBodyBytes)
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
