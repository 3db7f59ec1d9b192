import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SharedKit

/// What the middlewares learn of a request on its way in, for the request log on its way out: the
/// user its bearer token named (``BearerMiddleware``) and the problem it was answered with
/// (``ProblemMiddleware``). One per request (``MoaRequestContext``).
public final class RequestTrace: Sendable {
    private struct State: Sendable {
        var user: String?
        var problem: String?
    }

    private let state = Locked(State())

    public init() {}

    /// The user the bearer token named.
    public var user: String? {
        get { state.withLock { $0.user } }
        set { state.withLock { $0.user = newValue } }
    }

    /// The kind of the problem the request was answered with.
    public var problem: String? {
        get { state.withLock { $0.problem } }
        set { state.withLock { $0.problem = newValue } }
    }
}

/// The request's id: the client's `X-Request-Id` when it is a short token (letters, digits, `-`,
/// `_`, `.`, at most 64), otherwise one made here; it is sent back in `X-Request-Id` and is on every
/// log line of the request, so a person's report and the server's log meet.
public enum RequestIdentifier {
    public static let header = HTTPField.Name("X-Request-Id")!

    public static func of(_ headers: HTTPFields) -> String {
        if let given = headers[header], (1...64).contains(given.utf8.count), given.utf8.allSatisfy(isTokenByte) {
            return given
        }
        // 128 random bits in two draws (one system call each: a byte at a time was sixteen).
        var generator = SystemRandomNumberGenerator()
        let halves = (generator.next(), generator.next())
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for index in 0..<32 {
                let half = index < 16 ? halves.0 : halves.1
                buffer[index] = digits[Int(truncatingIfNeeded: half >> UInt64(4 * (index % 16))) & 0x0F]
            }
            return 32
        }
    }

    /// An ASCII letter or digit, `-`, `_` or `.`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
        default: false
        }
    }
}

/// Logs one line per request — its id, client, user, method, route template, path, status and
/// duration, and the problem kind of a refusal — and counts it in the metrics. Never a header, a
/// query or a body, so never a password, a token, a code or an amount; the path is cut
/// (``ServerLogHandler/maximumValueLength``). (Account numbers in paths are not secrets: they are
/// what a person gives to be paid.)
public struct RequestLogMiddleware: RouterMiddleware {
    public typealias Context = MoaRequestContext
    let logger: Logger
    let clients: ClientAddressResolver
    let metrics: any TrafficCounting

    public init(logger: Logger, clients: ClientAddressResolver, metrics: any TrafficCounting) {
        self.logger = logger
        self.clients = clients
        self.metrics = metrics
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let id = RequestIdentifier.of(request.headers)
        var context = context
        // The request's logger is the server's (its format and level), with the request's id on every line.
        context.logger = logger
        context.logger[metadataKey: "request_id"] = .string(id)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Nothing inside answered (the problem middleware answers every error it sees): logged as what Hummingbird will send.
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            log(request, context, id: id, status: status.code, since: start)
            throw error
        }
        response.headers[RequestIdentifier.header] = id
        log(request, context, id: id, status: response.status.code, since: start)
        return response
    }

    /// `duration` in milliseconds to one decimal, rounded ("12.3"), without Foundation's formatter.
    public static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = max(0, seconds) * 10_000 + (max(0, attoseconds) + 50_000_000_000_000) / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func log(_ request: Request, _ context: Context, id: String, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let route = context.endpointPath.map { $0 == "NotFound" ? "unmatched" : $0 } ?? "unmatched"
        metrics.request(method: request.method.rawValue, route: route, status: status, duration: elapsed)
        let client = clients.client(peer: context.remoteAddress, forwardedFor: ClientAddressResolver.forwardedFor(request.headers))
        var metadata: Logger.Metadata = [
            "request_id": .string(id), "client": .string(client), "method": .string(request.method.rawValue),
            "route": .string(route), "path": .string(request.uri.path), "status": .stringConvertible(status),
            "ms": .string(Self.milliseconds(elapsed)),
        ]
        if let user = context.trace.user { metadata["user"] = .string(user) }
        if let problem = context.trace.problem { metadata["problem"] = .string(problem) }
        logger.info("request", metadata: metadata)
    }
}
