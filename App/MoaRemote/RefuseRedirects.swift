import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Follows no redirect: `moa-server`'s API never answers with one, and following it would send the
/// request — a password, a refresh token in its body, the Bearer header — to another address,
/// perhaps over plain `http://`. The redirect itself is then the answer (a problem: not a success).
final class RefuseRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
