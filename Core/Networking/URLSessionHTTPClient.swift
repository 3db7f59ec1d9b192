import Foundation
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The production ``HTTPClient``: Foundation's `URLSession` against one base URL.
///
/// Logs one `debug` line per exchange (method, redacted URL, status or error, duration in ms) and the
/// redacted request headers at `trace`; secrets never reach the log (see ``Redactor``).
public struct URLSessionHTTPClient: HTTPClient {
    /// Where every ``Endpoint`` path is appended, e.g. `https://api.github.com` or `http://127.0.0.1:8080/api/v3`.
    public let baseURL: URL
    /// Sent with every request; an endpoint's header of the same name wins.
    public let defaultHeaders: HTTPHeaders
    private let session: URLSession
    private let logger: Logger
    private let secrets: [String]

    /// - Parameter secrets: values that may appear in request URLs outside the query (an API key in
    ///   the path): masked in every log line and error message, like tokens in headers and queries.
    public init(
        baseURL: URL,
        session: URLSession = URLSessionHTTPClient.makeSession(),
        defaultHeaders: HTTPHeaders = [:],
        logger: Logger = Logger(label: "moa.network"),
        secrets: [String] = []
    ) {
        self.baseURL = baseURL
        self.session = session
        self.defaultHeaders = defaultHeaders
        self.logger = logger
        self.secrets = secrets
    }

    /// An ephemeral session with no cookies and no URL cache, so that conditional requests
    /// (`If-None-Match` → `304`) reach the caller unchanged.
    public static func makeSession(timeout: TimeInterval = 30) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration)
    }

    public func send(_ endpoint: Endpoint) async throws(NetworkError) -> HTTPResponse {
        let request = try endpoint.urlRequest(baseURL: baseURL, defaultHeaders: defaultHeaders)
        let method = endpoint.method.rawValue
        let url = request.url.map { Redactor.redact($0, hiding: secrets) } ?? ""
        logger.trace(
            "HTTP \(method) \(url) request headers",
            metadata: [
                "http.request.headers": .dictionary(
                    Dictionary(
                        Redactor.redact(defaultHeaders.merging(endpoint.headers)).map { ($0.name, .string($0.value)) },
                        uniquingKeysWith: { first, _ in first }))
            ])
        let start = ContinuousClock.now
        func milliseconds() -> Int { Int(((ContinuousClock.now - start) / .milliseconds(1)).rounded()) }

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            let failure = NetworkError(transportError: error).hiding(secrets)
            let elapsed = milliseconds()
            logger.debug(
                "HTTP \(method) \(url) -> failed: \(failure.message) (\(elapsed) ms)",
                metadata: [
                    "http.method": "\(method)", "http.url": "\(url)", "http.duration_ms": "\(elapsed)",
                ])
            throw failure
        }
        let elapsed = milliseconds()
        guard let http = response as? HTTPURLResponse else {
            logger.debug("HTTP \(method) \(url) -> not an HTTP response (\(elapsed) ms)")
            throw .transport("the answer was not an HTTP response")
        }
        logger.debug(
            "HTTP \(method) \(url) -> \(http.statusCode) (\(elapsed) ms)",
            metadata: [
                "http.method": "\(method)", "http.url": "\(url)",
                "http.status": "\(http.statusCode)", "http.duration_ms": "\(elapsed)",
            ])
        return HTTPResponse(status: http.statusCode, headers: Self.headers(of: http), body: data)
    }

    private static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            fields.append(HTTPHeaders.Field(name: name, value: String(describing: value)))
        }
        return HTTPHeaders(fields.sorted { $0.name.lowercased() < $1.name.lowercased() })
    }
}
