import Foundation

/// What the server answered, whatever the status: ``HTTPClient/send(_:)`` returns non-2xx answers too,
/// so callers can handle `304`, `404` or `429` themselves; ``requireSuccess()`` turns the rest into errors.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Response headers; lookup is case-insensitive.
    public var headers: HTTPHeaders
    public var body: Data

    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a UTF-8 JSON body and `Content-Type: application/json`, for tests and stubs.
    public static func json(_ text: String, status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: HTTPHeaders(["Content-Type": "application/json"]).merging(headers),
            body: Data(text.utf8))
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Whether the server answered `304 Not Modified` to a conditional request.
    public var isNotModified: Bool { status == 304 }

    /// This response if its status is 2xx; otherwise throws ``NetworkError/httpStatus(_:_:)`` with the body.
    @discardableResult
    public func requireSuccess() throws(NetworkError) -> HTTPResponse {
        guard isSuccess else { throw .httpStatus(status, body) }
        return self
    }

    /// The body decoded as JSON; a failure becomes ``NetworkError/decoding(_:)`` saying what was wrong where.
    ///
    /// Does not look at the status: call ``requireSuccess()`` first where an error body is possible.
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder())
        throws(NetworkError) -> T
    {
        do {
            return try decoder.decode(type, from: body)
        } catch {
            throw NetworkError(decodingError: error, type: type, body: body)
        }
    }

    /// The `ETag` header, for a later ``Endpoint/ifNoneMatch(_:)``.
    public var etag: String? { headers["ETag"] }

    /// The `Link` header's targets by relation (`next`, `last`, …); relative targets resolve against `base`.
    public func links(relativeTo base: URL? = nil) -> [String: URL] {
        LinkHeader.parse(headers.values(for: "Link").joined(separator: ", "), relativeTo: base)
    }
}
