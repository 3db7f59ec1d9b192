import APIWire
import Foundation
import OpenAPIRuntime
import Registry

/// A served feature's handlers as `moa-server` registers them: the `registerHandlers` that
/// swift-openapi-generator writes for the feature's part of docs/api/openapi.yaml (its `<F>API`'s
/// `APIProtocol`), so a feature's handlers conform with one empty extension.
///
/// Each `<F>Server` provides its handlers under a key of its own (`TransferRoutesKey`, …); the
/// server requires every served feature's key and registers them in one loop.
public protocol ServedRoutes: Sendable {
    func registerHandlers(
        on transport: any ServerTransport, serverURL: URL, configuration: Configuration, middlewares: [any ServerMiddleware]
    ) throws
}

extension ServedRoutes {
    /// Registers the handlers at the document's paths (no server URL prefix) with `middlewares`.
    public func register(on transport: any ServerTransport, middlewares: [any ServerMiddleware]) throws {
        try registerHandlers(
            on: transport, serverURL: .defaultOpenAPIServerURL, configuration: ServedConfiguration.handlers, middlewares: middlewares)
    }
}

/// How moa-server's generated handlers encode and decode: dates as `moa`'s clients read them
/// (``APIWire/InstantTranscoder``), without ICU.
public enum ServedConfiguration {
    public static let handlers = Configuration(dateTranscoder: InstantTranscoder())
}

/// The catalog through which the server names problems (``ProblemCatalog``: every served feature's
/// classifier), for a handler that reports what it refused.
public enum ProblemCatalogKey: ServiceKey {
    public typealias Service = ProblemCatalog
    public static var expectedProvider: String { "moa-server" }
}
