// A real HTTP server on 127.0.0.1 for Search's tests, on FlyingFox (swhitty/FlyingFox): a small,
// maintained, pure-Swift server built on Swift Concurrency, with no dependency of its own (no
// SwiftNIO), that runs inside the test process on Linux and macOS. This file is the only one that
// imports FlyingFox (its `HTTPResponse`/`HTTPHeaders` would clash with Core's).
import FlyingFox
import Foundation
import SharedKit

/// A request as the fake GitHub saw it (header names lower-cased).
struct SeenRequest: Sendable {
    let method: String
    let path: String
    let query: [String: String]
    let headers: [String: String]
    /// The request line and every header, as text: what a capture of the traffic would hold.
    let raw: String
    /// The body, as text (a form or JSON).
    var body: String = ""

    /// The body's `application/x-www-form-urlencoded` fields.
    var form: [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}

/// What the fake GitHub answers.
struct CannedReply: Sendable {
    var status: Int
    var headers: [String: String] = [:]
    var body: String = ""
    /// Wait this long before answering (a slow server).
    var delay: Duration?

    static func json(_ body: String, status: Int = 200, headers: [String: String] = [:]) -> CannedReply {
        CannedReply(status: status, headers: ["Content-Type": "application/json; charset=utf-8"].merging(headers) { $1 }, body: body)
    }
}

/// A GitHub-shaped server on 127.0.0.1 and a free port (bound to port 0, then read back). Bounded:
/// it answers at most `maxRequests` requests (then 503 without calling the handler), and stops by
/// itself after `lifetime` even if a test forgets to.
final class FakeGitHubServer: Sendable {
    typealias Handler = @Sendable (SeenRequest) async -> CannedReply

    let port: UInt16
    private let server: HTTPServer
    private let seen = Locked<[SeenRequest]>([])

    private init(port: UInt16, server: HTTPServer) {
        self.port = port
        self.server = server
    }

    var baseURL: URL {
        get throws {
            guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw ServerFailure("no URL for port \(port)") }
            return url
        }
    }

    /// Every request received, in order.
    var requests: [SeenRequest] { seen.withLock { $0 } }

    /// Starts a server answering through `handler`; runs `body` with it; stops it.
    @discardableResult
    static func with<T: Sendable>(
        maxRequests: Int = 20, lifetime: Duration = .seconds(20), _ handler: @escaping Handler,
        _ body: (FakeGitHubServer) async throws -> T
    ) async throws -> T {
        let server = try await start(maxRequests: maxRequests, lifetime: lifetime, handler)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    static func start(maxRequests: Int, lifetime: Duration, _ handler: @escaping Handler) async throws -> FakeGitHubServer {
        let http = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled)
        let box = Locked<FakeGitHubServer?>(nil)
        await http.appendRoute("*") { request in
            var seen = SeenRequest(request)
            seen.body = String(decoding: (try? await request.bodyData) ?? Data(), as: UTF8.self)
            guard let fake = box.withLock({ $0 }) else { return HTTPResponse(statusCode: .serviceUnavailable) }
            let count = fake.seen.withLock { seenSoFar in
                seenSoFar.append(seen)
                return seenSoFar.count
            }
            guard count <= maxRequests else { return HTTPResponse(statusCode: .serviceUnavailable) }
            let reply = await handler(seen)
            if let delay = reply.delay { try? await Task.sleep(for: delay) }
            var headers = HTTPHeaders()
            for (name, value) in reply.headers { headers.addValue(value, for: HTTPHeader(name)) }
            return HTTPResponse(
                statusCode: HTTPStatusCode(reply.status, phrase: Self.phrase(reply.status)), headers: headers,
                body: Data(reply.body.utf8))
        }
        Task { try await http.run() }
        // Generous: the whole suite runs in parallel on 2 cores, moa-server's end-to-end tests among it.
        try await http.waitUntilListening(timeout: 60)
        guard case .ip4(_, let port)? = await http.listeningAddress, port != 0 else {
            await http.stop()
            throw ServerFailure("the server did not report its port")
        }
        let fake = FakeGitHubServer(port: port, server: http)
        box.withLock { $0 = fake }
        // Stops by itself, whatever the test does.
        Task { [weak fake] in
            try? await Task.sleep(for: lifetime)
            await fake?.stop()
        }
        return fake
    }

    func stop() async {
        await server.stop(timeout: 0)
    }

    private static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 304: "Not Modified"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

struct ServerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension SeenRequest {
    init(_ request: HTTPRequest) {
        var headers: [String: String] = [:]
        var lines = ["\(request.method.rawValue) \(request.path)"]
        for (name, value) in request.headers {
            headers[name.rawValue.lowercased()] = value
            lines.append("\(name.rawValue): \(value)")
        }
        self.init(
            method: request.method.rawValue, path: request.path,
            query: Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }),
            headers: headers, raw: lines.joined(separator: "\n"))
    }
}
