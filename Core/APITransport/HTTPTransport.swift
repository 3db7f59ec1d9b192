import APIClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import OpenAPIAsyncHTTPClient
import SharedKit

/// The HTTP client under ``RemoteAPI``: AsyncHTTPClient on NIO's event loops, which wait for a
/// socket in `epoll` (Foundation's URLSession on Linux keeps a write source armed on a writable
/// socket while it waits for the answer, and so spins a core for as long as the server takes).
///
/// One client per trust setting for the whole process, never shut down: a command is one short
/// process, and AsyncHTTPClient traps (in debug builds) on a client released without a shutdown.
/// Its settings are those of an API client that must not be led astray: no redirect is followed
/// (one would carry a password or a token elsewhere, even to plain http), nothing is decompressed,
/// HTTP/1.1 only, and a refused connection or a failed handshake fails at once instead of being
/// retried until the connect timeout. No proxy is used: AsyncHTTPClient does not read
/// `http_proxy`/`https_proxy` as libcurl did (docs/architecture.md says so).
enum HTTPTransport {
    private static let clients = Locked<[String: HTTPClient]>([:])

    /// How long a connection may take to open.
    static let connectTimeout = TimeAmount.seconds(10)

    /// A transport to the server at `address`, whose calls give up after `timeout` seconds (a
    /// backstop: ``RemoteAPI/call(_:)`` has its own deadline, which also bounds a trickling body).
    static func transport(for address: ServerAddress, timeout: TimeInterval) -> AsyncHTTPClientTransport {
        AsyncHTTPClientTransport(
            configuration: .init(client: client(trusting: address.caFile), timeout: .milliseconds(Int64((timeout + 5) * 1_000))))
    }

    /// The client that trusts the system's roots, plus the certificates of `caFile` if one is given.
    private static func client(trusting caFile: String?) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[caFile ?? ""] { return client }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.minimumTLSVersion = .tlsv12
            // Checked where the path was given (``ServerTrust/checked(_:origin:)``); a file that went
            // away since leaves the system's roots, and the server's certificate is then refused.
            if let caFile, let certificates = try? NIOSSLCertificate.fromPEMFile(caFile), !certificates.isEmpty {
                tls.additionalTrustRoots = [.certificates(certificates)]
            }
            var configuration = HTTPClient.Configuration(
                tlsConfiguration: tls, redirectConfiguration: .disallow,
                timeout: .init(connect: connectTimeout, read: .seconds(Int64(RemoteAPI.maximumTimeout) + 5)),
                // Below moa-server's idle timeout (15 s): a pooled connection is never one the server closed.
                connectionPool: .init(idleTimeout: .seconds(5)), proxy: nil, decompression: .disabled)
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.httpVersion = .http1Only
            let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
            clients[caFile ?? ""] = client
            return client
        }
    }
}

/// The CA certificates a person trusts for one server, besides the system's (`--ca-file`,
/// `MOA_CA_FILE`, or the one remembered with the server): checked where the path is given.
public enum ServerTrust {
    public enum Origin: String, Sendable {
        case option = "--ca-file"
        case environment = "MOA_CA_FILE"
        case home = "the home's server file"
    }

    /// The absolute path of a readable PEM file holding at least one certificate.
    public static func checked(_ path: String, origin: Origin) throws(CAFileUnusable) -> String {
        let trimmed = path.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = ServerAddress.shown(trimmed)
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw CAFileUnusable(path: shown, origin: origin, reason: "that is not a file name")
        }
        let absolute = URL(fileURLWithPath: trimmed).standardizedFileURL.path
        // A regular file, looked at before it is opened: a FIFO would block, /dev/zero never end.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: absolute) else {
            throw CAFileUnusable(path: shown, origin: origin, reason: "it cannot be read")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw CAFileUnusable(path: shown, origin: origin, reason: "it is not a regular file")
        }
        let limit = 1_048_576
        guard let handle = FileHandle(forReadingAtPath: absolute), let data = try? handle.read(upToCount: limit + 1) else {
            throw CAFileUnusable(path: shown, origin: origin, reason: "it cannot be read")
        }
        try? handle.close()
        guard data.count <= limit else { throw CAFileUnusable(path: shown, origin: origin, reason: "it is larger than 1 MiB") }
        guard let certificates = try? NIOSSLCertificate.fromPEMBytes(Array(data)), !certificates.isEmpty else {
            throw CAFileUnusable(path: shown, origin: origin, reason: "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        return absolute
    }
}

/// A CA file that cannot be used (78): nothing is sent until it is mended.
public struct CAFileUnusable: UserFacingError, Equatable {
    public let path: String
    public let origin: ServerTrust.Origin
    public let reason: String

    public var message: String { "The CA file “\(path)” (\(origin.rawValue)) cannot be used: \(reason)." }
    public var hint: String? { "Give the PEM file of the CA that signed moa-server's certificate, as `moa-server --tls-cert` was made." }
    public var exitStatus: ExitStatus { .configuration }
}
