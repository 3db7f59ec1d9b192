import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request, described relative to a client's base URL.
///
/// Path segments and query items are stored *unencoded*; ``url(relativeTo:)`` percent-encodes them
/// (RFC 3986), so `q=swift language:ko` or a Hangul value needs no escaping by the caller. A `+` in
/// a value is sent as `%2B`, never as a space.
public struct Endpoint: Sendable, Equatable {
    public var method: HTTPMethod
    /// Unencoded path segments appended to the base URL's path. A segment may contain `/`: it is encoded.
    public var pathSegments: [String]
    /// Unencoded query items, in order. A `nil` value sends the name alone.
    public var query: [URLQueryItem]
    /// Request headers; they override the client's default headers of the same name.
    public var headers: HTTPHeaders
    public var body: Data?
    /// The request timeout in seconds; `nil` uses the session's.
    public var timeout: TimeInterval?

    /// An endpoint from a `/`-separated, unencoded path such as `"/users/octocat"`; empty segments are dropped.
    public init(
        _ method: HTTPMethod = .get,
        path: String,
        query: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: TimeInterval? = nil
    ) {
        self.init(
            method, pathSegments: path.split(separator: "/").map(String.init),
            query: query, headers: headers, body: body, timeout: timeout)
    }

    /// An endpoint from unencoded path segments: `["users", login]` stays two segments whatever `login` holds.
    public init(
        _ method: HTTPMethod = .get,
        pathSegments: [String],
        query: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: TimeInterval? = nil
    ) {
        self.method = method
        self.pathSegments = pathSegments.filter { !$0.isEmpty }
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The endpoint that fetches `url` (typically a `Link` header target), if `url` lies under `baseURL`:
    /// same scheme, host and port, and a path inside the base path. Otherwise `nil`, so that the client's
    /// credentials are never sent to another server.
    ///
    /// Query values are decoded with form semantics (`+` is a space), as servers read them.
    public init?(following url: URL, under baseURL: URL, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) {
        guard let target = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            target.scheme?.lowercased() == base.scheme?.lowercased(),
            target.host?.lowercased() == base.host?.lowercased(),
            Self.effectivePort(target) == Self.effectivePort(base)
        else { return nil }
        let basePath = Self.trimmingTrailingSlashes(base.percentEncodedPath)
        let targetPath = target.percentEncodedPath
        guard targetPath == basePath || targetPath.hasPrefix(basePath + "/") else { return nil }
        var segments: [String] = []
        for raw in targetPath.dropFirst(basePath.count).split(separator: "/") {
            guard let segment = String(raw).removingPercentEncoding else { return nil }
            segments.append(segment)
        }
        var items: [URLQueryItem] = []
        for pair in (target.percentEncodedQuery ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.formDecode(parts[0]) else { return nil }
            if parts.count > 1 {
                guard let value = Self.formDecode(parts[1]) else { return nil }
                items.append(URLQueryItem(name: name, value: value))
            } else {
                items.append(URLQueryItem(name: name, value: nil))
            }
        }
        self.init(method, pathSegments: segments, query: items, headers: headers)
    }

    /// The path as a `/`-separated, unencoded string, for messages.
    public var path: String { "/" + pathSegments.joined(separator: "/") }

    /// A copy with one more header field (replacing any of the same name).
    public func adding(header name: String, value: String) -> Endpoint {
        var copy = self
        copy.headers[name] = value
        return copy
    }

    /// A conditional request for ETag revalidation: a `304` answer means the cached copy is current.
    public func ifNoneMatch(_ etag: String?) -> Endpoint {
        guard let etag, !etag.isEmpty else { return self }
        return adding(header: "If-None-Match", value: etag)
    }

    /// The full URL: the base URL's path, then the encoded segments, then the base query and the encoded items.
    ///
    /// Works with and without a trailing slash on the base and with a path prefix (`…/api/v3`).
    /// Throws ``NetworkError/invalidURL(_:)`` unless the base is an absolute `http` or `https` URL with a host.
    public func url(relativeTo baseURL: URL) throws(NetworkError) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { throw .invalidURL(Redactor.redact(baseURL)) }

        if !pathSegments.isEmpty {
            let encoded = pathSegments.map { Self.percentEncode($0, allowed: URLEncoding.pathSegment) }
            components.percentEncodedPath =
                Self.trimmingTrailingSlashes(components.percentEncodedPath) + "/" + encoded.joined(separator: "/")
        } else if components.percentEncodedPath.isEmpty {
            components.percentEncodedPath = "/"
        }

        var queryParts = components.percentEncodedQuery.map { [$0] } ?? []
        queryParts += query.map { item in
            let name = Self.percentEncode(item.name, allowed: URLEncoding.queryComponent)
            guard let value = item.value else { return name }
            return name + "=" + Self.percentEncode(value, allowed: URLEncoding.queryComponent)
        }
        components.percentEncodedQuery = queryParts.isEmpty ? nil : queryParts.joined(separator: "&")
        components.fragment = nil

        guard let url = components.url else { throw .invalidURL(Redactor.redact(baseURL)) }
        return url
    }

    /// The `URLRequest` for this endpoint: `defaultHeaders` first, then this endpoint's headers over them.
    public func urlRequest(baseURL: URL, defaultHeaders: HTTPHeaders = [:]) throws(NetworkError) -> URLRequest {
        var request = URLRequest(url: try url(relativeTo: baseURL))
        request.httpMethod = method.rawValue
        request.httpBody = body
        if let timeout { request.timeoutInterval = timeout }
        for field in defaultHeaders.merging(headers) {
            request.addValue(field.value, forHTTPHeaderField: field.name)
        }
        return request
    }

    static func percentEncode(_ string: String, allowed: CharacterSet) -> String {
        // Only fails for unpaired surrogates, which a Swift `String` cannot hold.
        string.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    private static func formDecode(_ raw: Substring) -> String? {
        raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    private static func effectivePort(_ components: URLComponents) -> Int? {
        if let port = components.port { return port }
        switch components.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}

/// The character sets of the percent-encoding rules above.
enum URLEncoding {
    /// RFC 3986 unreserved characters: the only ones never encoded.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// Characters left as they are in one path segment: unreserved, `:` and `@`.
    static let pathSegment = unreserved.union(CharacterSet(charactersIn: ":@"))
    /// Characters left as they are in a query name or value: unreserved only, so `+ & = : /` are all encoded.
    static let queryComponent = unreserved
}
