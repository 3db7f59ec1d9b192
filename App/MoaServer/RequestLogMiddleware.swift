import Foundation
import Hummingbird
import Logging

/// Logs one line per request through swift-log: its method, path, status and duration — never a
/// header, a query or a body, so never a password, a token, a code or an amount. (Account numbers
/// in paths are not secrets: they are what a person gives to be paid.)
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                "status": .stringConvertible(response.status.code), "ms": .string(String(format: "%.1f", milliseconds)),
            ])
        return response
    }
}
