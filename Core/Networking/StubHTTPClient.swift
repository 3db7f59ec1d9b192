import Foundation
import SharedKit

/// A test double for ``HTTPClient``: records every endpoint it receives and answers from a queue of
/// canned results, then from a handler. Safe to share between tasks.
///
/// ```swift
/// let client = StubHTTPClient([.success(.json(#"{"login":"octocat"}"#)), .failure(.offline)])
/// ```
/// With nothing queued and no handler, `send` throws ``NetworkError/transport(_:)`` naming the request.
public final class StubHTTPClient: HTTPClient {
    /// Computes an answer from the request; may suspend to simulate latency.
    public typealias Handler = @Sendable (Endpoint) async throws(NetworkError) -> HTTPResponse

    private struct State {
        var requests: [Endpoint] = []
        var queue: [Result<HTTPResponse, NetworkError>] = []
    }

    private let state: Locked<State>
    private let handler: Handler?

    /// A stub answering with `results`, in order, then with `handler` if given.
    public init(_ results: [Result<HTTPResponse, NetworkError>] = [], handler: Handler? = nil) {
        state = Locked(State(queue: results))
        self.handler = handler
    }

    /// A stub answering every request through `handler`.
    public convenience init(handler: @escaping Handler) {
        self.init([], handler: handler)
    }

    /// Queues a response for a later request.
    public func enqueue(_ response: HTTPResponse) {
        state.withLock { $0.queue.append(.success(response)) }
    }

    /// Queues a failure for a later request.
    public func enqueue(_ error: NetworkError) {
        state.withLock { $0.queue.append(.failure(error)) }
    }

    /// Every endpoint received so far, in order.
    public var requests: [Endpoint] { state.withLock { $0.requests } }

    /// The most recent endpoint received.
    public var lastRequest: Endpoint? { state.withLock { $0.requests.last } }

    /// How many queued results are still unused.
    public var pendingCount: Int { state.withLock { $0.queue.count } }

    public func send(_ endpoint: Endpoint) async throws(NetworkError) -> HTTPResponse {
        let queued = state.withLock { state -> Result<HTTPResponse, NetworkError>? in
            state.requests.append(endpoint)
            return state.queue.isEmpty ? nil : state.queue.removeFirst()
        }
        if let queued { return try queued.get() }
        if let handler { return try await handler(endpoint) }
        throw .transport("StubHTTPClient has no response for \(endpoint.method) \(endpoint.path)")
    }
}
