import APIServing
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a connection may take of the server: slow and idle clients must not starve the others.
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections open at once; one more is answered `503` and closed at once, before any of its
    /// bytes is read, so those already in keep being served.
    public var maximumConnections: Int
    /// A connection that completes no request head in this time — after it opened, or after its
    /// last response — is closed: an idle connection, and one that sends its header a byte at a
    /// time (Hummingbird's idle timer is reset only by a complete head or a body part).
    public var idleTimeout: Duration
    /// Header fields larger than this, or more of them, are refused with a problem document.
    public var maximumHeaderBytes: Int
    public var maximumHeaderFields: Int

    public init(
        maximumConnections: Int = 4_096, idleTimeout: Duration = .seconds(15), maximumHeaderBytes: Int = 16 * 1_024,
        maximumHeaderFields: Int = 100
    ) {
        self.maximumConnections = maximumConnections
        self.idleTimeout = idleTimeout
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumHeaderFields = maximumHeaderFields
    }

    /// Raises this process's limit of open files to what the system allows it (each connection is
    /// one), and returns the limit in force; the ceiling must stay below it, with room for the
    /// database and the log.
    public static func raiseOpenFileLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            #if canImport(Darwin)
                raised.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
            #else
                raised.rlim_cur = limit.rlim_max
            #endif
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}

/// Counts the open connections of one server.
public final class ConnectionCount: Sendable {
    private let connections = Atomic<Int>(0)
    public let maximum: Int

    public init(maximum: Int) { self.maximum = maximum }

    /// Counts one more; `false` when that is over the ceiling (the caller closes it, and it is
    /// still counted until it is closed).
    func open() -> Bool { connections.wrappingAdd(1, ordering: .relaxed).newValue <= maximum }
    func close() { connections.wrappingSubtract(1, ordering: .relaxed) }
    public var current: Int { connections.load(ordering: .relaxed) }
}

/// The first handler of every connection: counts it, and over the ceiling answers a bare `503`
/// (no body to build, nothing read) and closes it.
final class ConnectionCeilingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let busy = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\nRetry-After: 1\r\n\r\n"
    private let count: ConnectionCount
    private let metrics: any TrafficCounting
    private var counted = false
    private var refused = false

    init(count: ConnectionCount, metrics: any TrafficCounting) {
        self.count = count
        self.metrics = metrics
    }

    func channelActive(context: ChannelHandlerContext) {
        counted = true
        guard count.open() else {
            refused = true
            metrics.connectionRefused()
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: Self.busy))).whenComplete { _ in
                channel.close(promise: nil)
            }
            return
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return } // a refused connection's bytes go nowhere
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted {
            counted = false
            count.close()
        }
        context.fireChannelInactive()
    }
}

/// A request the HTTP parser refuses — a header past ``ConnectionLimits/maximumHeaderBytes`` (an
/// over-long URL among them), too many header fields, bytes that are not HTTP/1.1 — is answered with a
/// problem document like every other refusal (it was a bare `400`), logged with the client, and
/// counted in the metrics as route `unparsed`; then the connection is closed. Behind the decoder,
/// before Hummingbird's own handling (which would answer a second, bare `400`).
final class ParserRefusalHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let logger: Logger
    private let metrics: any TrafficCounting
    /// A response has begun and not ended: a problem cannot be written any more.
    private var responding = false

    init(logger: Logger, metrics: any TrafficCounting) {
        self.logger = logger
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.fireChannelRead(data) }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head: responding = true
        case .end: responding = false
        case .body: break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let refusal = error as? HTTPParserError, !responding else {
            context.fireErrorCaught(error)
            return
        }
        let client = context.channel.remoteAddress?.ipAddress.map(ClientAddressResolver.normalized) ?? ClientAddressResolver.unknown
        metrics.request(method: "unparsed", route: "unparsed", status: 400, duration: .zero)
        logger.info("request refused by the HTTP parser", metadata: ["client": .string(client), "reason": .string("\(refusal)")])
        let problem = Problem.from(refusal)
        let body = ByteBuffer(bytes: problem.documentBytes)
        var head = HTTPResponse(status: .badRequest)
        head.headerFields[.contentType] = "application/problem+json"
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Hummingbird's HTTP/1 channel with ``ConnectionCeilingHandler`` in front of its decoder.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    let count: ConnectionCount
    let metrics: any TrafficCounting

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionCeilingHandler(count: count, metrics: metrics), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with `limits`: the ceiling, the idle (and header) timeout, the header bounds.
    public static func guarded(
        _ limits: ConnectionLimits, connections count: ConnectionCount, metrics: any TrafficCounting, logger: Logger
    ) -> HTTPServerBuilder {
        let configuration = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ParserRefusalHandler(logger: logger, metrics: metrics)],
            idleTimeout: TimeAmount(limits.idleTimeout),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: limits.maximumHeaderBytes, maxHeaderListSize: limits.maximumHeaderBytes,
                maxHeaderFieldCount: limits.maximumHeaderFields))
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(inner: HTTP1Channel(responder: responder, configuration: configuration), count: count, metrics: metrics)
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
