/// Sends HTTP requests. Implemented by ``URLSessionHTTPClient`` and, for tests, ``StubHTTPClient``.
///
/// Contract: any answer from the server, whatever its status, is returned as an ``HTTPResponse``
/// (check it with ``HTTPResponse/requireSuccess()`` or map the status yourself); only failures to get
/// an answer at all (no network, timeout, cancellation, bad URL) throw.
public protocol HTTPClient: Sendable {
    func send(_ endpoint: Endpoint) async throws(NetworkError) -> HTTPResponse
}
