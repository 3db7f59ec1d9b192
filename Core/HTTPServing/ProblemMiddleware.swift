import APIServing
import Foundation
import Hummingbird
import Logging
import NIOHTTP1
import OpenAPIRuntime
import SharedKit

// ``Problem`` (APIServing) as Hummingbird answers it, and the errors of Hummingbird and of the HTTP
// parser as problems.

extension Problem {
    var response: Response {
        var response = Response(
            status: status, headers: [.contentType: "application/problem+json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: documentBytes)))
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        if let challenge { response.headers[.wwwAuthenticate] = challenge }
        if let allow { response.headers[.allow] = allow }
        if closesConnection { response.headers[.connection] = "close" }
        return response
    }

    public static func json(_ object: [String: Any], status: HTTPResponse.Status, contentType: String) -> Response {
        let data = serialized(object)
        return Response(
            status: status, headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The problem an HTTP error of the router or of Hummingbird stands for, by its status.
    static func from(_ error: any HTTPResponseError, maximumBodyBytes: Int) -> Problem {
        switch error.status {
        case .notFound:
            Problem(
                kind: "not-found", title: "Not found", status: .notFound, detail: "There is nothing at this address.",
                exitStatus: .unavailable)
        case .contentTooLarge:
            Problem(
                kind: "payload-too-large", title: "Payload too large", status: .contentTooLarge,
                detail: "The request body is larger than \(maximumBodyBytes / 1_024) KiB.", exitStatus: .dataError)
        default:
            error.status.code < 500
                ? malformed("The request cannot be read.")
                : Problem(
                    kind: "internal", title: error.status.reasonPhrase, status: error.status,
                    detail: "The server failed unexpectedly; the cause is in its log.", exitStatus: .software)
        }
    }

    /// The HTTP parser's refusal of a request that was under way — most often a client that closed
    /// the connection before its body was all there: the client's doing (400), not the server's.
    static func from(_ error: HTTPParserError) -> Problem {
        switch error {
        case .invalidEOFState: malformed("The connection ended before the request's body did.")
        case .headerOverflow:
            malformed(
                "The request's header (its address among it) is larger than the server takes (\(ConnectionLimits().maximumHeaderBytes / 1_024) KiB)."
            )
        default: malformed("The request is not valid HTTP/1.1.")
        }
    }
}

/// Turns every error a route throws into a problem document: the router's own (no such route, wrong
/// method, body too large) by their status, ours as they are, anything else as a 500 that says
/// nothing of the cause (which is logged instead).
public struct ProblemMiddleware: RouterMiddleware {
    public typealias Context = MoaRequestContext
    /// How the served features' typed errors become problems.
    let catalog: ProblemCatalog
    /// The body limit (``BodyLimitMiddleware``), named in its refusal.
    let maximumBodyBytes: Int

    public init(catalog: ProblemCatalog, maximumBodyBytes: Int) {
        self.catalog = catalog
        self.maximumBodyBytes = maximumBodyBytes
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let answer = Answer(logger: context.logger, trace: context.trace)
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return answer.refused(problem)
        } catch let error as OpenAPIRuntime.ServerError {
            if let parser = error.underlyingError as? HTTPParserError { return answer.refused(Problem.from(parser)) }
            guard let problem = Problem.from(error, catalog: catalog) else { return answer.failed(request, error.underlyingError) }
            return answer(problem, request, error.underlyingError)
        } catch let error as any UserFacingError {
            return answer(catalog.problem(for: error), request, error)
        } catch let error as any HTTPResponseError {
            return answer.refused(Problem.from(error, maximumBodyBytes: maximumBodyBytes))
        } catch let error as HTTPParserError {
            return answer.refused(Problem.from(error))
        } catch {
            return answer.failed(request, error)
        }
    }
}

/// How ``ProblemMiddleware`` answers one request's error: in the request's log (its id on every
/// line), the problem's kind noted for the request log line.
private struct Answer {
    let logger: Logger
    let trace: RequestTrace

    func refused(_ problem: Problem) -> Response {
        trace.problem = problem.kind
        return problem.response
    }

    /// `problem`, unless it is a 500 (``failed(_:_:)``). A 503 — the database away or too busy for
    /// now: the client may retry — is logged as a warning, with its cause.
    func callAsFunction(_ problem: Problem, _ request: Request, _ error: (any Error)?) -> Response {
        if problem.status == .serviceUnavailable {
            logger.warning(
                "request refused for now",
                metadata: ["path": .string(request.uri.path), "error": .string(error.map { String(describing: $0) } ?? "")])
            return refused(problem)
        }
        return problem.status.code >= 500 ? failed(request, error ?? problem) : refused(problem)
    }

    /// A bug, or the database or the disk failing under us: logged with its cause (never a request
    /// body, so never a password or a token), answered with a 500 that tells nothing of it.
    func failed(_ request: Request, _ error: any Error) -> Response {
        logger.error("request failed", metadata: ["path": .string(request.uri.path), "error": .string(String(describing: error))])
        return refused(Problem.internalError)
    }
}

/// Bounds a request's body before any route reads it: larger than `maximum` bytes is 413
/// (`payload-too-large`) — by its `Content-Length` when it has one, else by collecting at most
/// `maximum` bytes —; not all there within `deadline` is 408 (`request-timeout`) and the connection
/// is closed, so a client sending its body a byte at a time holds nothing for long (the idle timer
/// is reset by every body part); and a body that is not `application/json` — no `Content-Type` at
/// all included — is 415. A route then reads the collected body.
///
/// The body is read by a task of its own, which one watch (``BodyWatch``) cancels at its deadline:
/// no timer is set and cancelled per request (a sleeping task per request cost moa-server about 6 %
/// of its CPU, waking Dispatch's timer thread twice a request: docs/benchmarks.md).
public struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let maximum: Int
    var deadline: Duration
    let watch = BodyWatch()

    public init(maximum: Int, deadline: Duration = .seconds(10)) {
        self.maximum = maximum
        self.deadline = deadline
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximum {
            throw HTTPError(.contentTooLarge)
        }
        let (body, maximum) = (request.body, maximum)
        let reading = Task { try await body.collect(upTo: maximum) }
        let ticket = watch.watch(reading, until: .now + deadline)
        let outcome = await withTaskCancellationHandler {
            await reading.result
        } onCancel: {
            reading.cancel()
        }
        let cutOff = !watch.forget(ticket)
        let collected: ByteBuffer
        switch outcome {
        case .success(let buffer): collected = buffer
        // Cut off: the reading ends cancelled. Any other failure (too large, the client gone) is
        // itself, even in the tick it was cut off in.
        case .failure(let error) where cutOff && error is CancellationError: throw Problem.bodyTooSlow(deadline)
        case .failure(let error): throw error
        }
        if collected.readableBytes > 0, !Self.isJSON(request.headers[.contentType]) { throw Problem.notJSON }
        var request = request
        request.body = RequestBody(buffer: collected)
        return try await next(request, context)
    }

    /// `application/json`, with at most a `charset=utf-8` parameter (JSON is UTF-8: RFC 8259);
    /// letters in any case, spaces and tabs around each part.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let parts = contentType.utf8.split(separator: UInt8(ascii: ";"))
        guard let type = parts.first, isLowercased(trimmed(type), "application/json") else { return false }
        return parts.dropFirst().allSatisfy { isLowercased(trimmed($0).filter { $0 != UInt8(ascii: " ") }, "charset=utf-8") }
    }

    private static func trimmed(_ part: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = part.firstIndex(where: { !blank($0) }), let last = part.lastIndex(where: { !blank($0) }) else {
            return part[part.endIndex...]
        }
        return part[first...last]
    }

    /// `bytes`, ASCII letters lowercased, are `expected` (lowercase ASCII).
    private static func isLowercased<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ expected: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount)
        guard bytes.count == expected.count else { return false }
        return zip(bytes, expected).allSatisfy { byte, wanted in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == wanted : byte == wanted
        }
    }
}

/// The request bodies being read (``BodyLimitMiddleware``), each with its deadline: one task,
/// awake only while there is one, looks every ``tick`` and cancels the reading of each body past
/// its deadline — which is thus cut off within a tick after it.
final class BodyWatch: Sendable {
    static let tick: Duration = .milliseconds(250)

    private struct Watched {
        let deadline: ContinuousClock.Instant
        let reading: Task<ByteBuffer, any Error>
    }

    private struct State {
        var next = 0
        var watched: [Int: Watched] = [:]
        var looking = false
    }

    private let state = Locked(State())

    /// Watches `reading` until `deadline`; the ticket ``forget(_:)`` takes.
    func watch(_ reading: Task<ByteBuffer, any Error>, until deadline: ContinuousClock.Instant) -> Int {
        let (ticket, wake) = state.withLock { state in
            let ticket = state.next
            state.next &+= 1
            state.watched[ticket] = Watched(deadline: deadline, reading: reading)
            defer { state.looking = true }
            return (ticket, !state.looking)
        }
        if wake { Task.detached { await self.look() } }
        return ticket
    }

    /// Stops watching a body: `false` if it was cut off at its deadline (its reading cancelled).
    func forget(_ ticket: Int) -> Bool {
        state.withLock { $0.watched.removeValue(forKey: ticket) != nil }
    }

    /// Every tick, cuts off what is past its deadline; ends when nothing is watched.
    private func look() async {
        while true {
            try? await Task.sleep(for: Self.tick)
            let now = ContinuousClock.now
            let late: [Task<ByteBuffer, any Error>]? = state.withLock { state in
                guard !state.watched.isEmpty else {
                    state.looking = false
                    return nil
                }
                let late = state.watched.filter { $0.value.deadline <= now }
                for ticket in late.keys { state.watched[ticket] = nil }
                return late.values.map(\.reading)
            }
            guard let late else { return }
            for reading in late { reading.cancel() }
        }
    }
}

extension Problem {
    /// A request body that did not arrive within `deadline`.
    static func bodyTooSlow(_ deadline: Duration) -> Problem {
        var problem = Problem(
            kind: "request-timeout", title: "Request timeout", status: .requestTimeout,
            detail: "The request body did not arrive within \(deadline.components.seconds) seconds.", exitStatus: .temporaryFailure)
        problem.closesConnection = true
        return problem
    }
}
