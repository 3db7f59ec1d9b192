import APIClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import SharedKit

extension RemoteAPI {
    /// A client of the server at `address` over HTTP (``HTTPTransport``: AsyncHTTPClient, one
    /// client per trust setting for the process), whose requests carry no token; each call ends
    /// within `timeout` seconds (the address's own, ``ServerAddress/timeout``, unless a test says
    /// otherwise), and the transport's errors read as ``failure(_:server:timeout:)`` says.
    public init(address: ServerAddress, timeout: TimeInterval? = nil) {
        let timeout = timeout ?? address.timeout
        self.init(
            address: address, transport: HTTPTransport.transport(for: address, timeout: timeout), timeout: timeout,
            interpret: { error, address in
                if let error = error as? HTTPClientError, error == .cancelled { return CancellationError() }
                return RemoteAPI.failure(error, server: address.url.absoluteString, timeout: address.timeout)
            })
    }

    /// What a transport error means to a person: a certificate this machine does not trust is a
    /// configuration problem (78, ``ServerNotTrusted``); a connection refused, a host not found or a
    /// handshake that failed sent nothing; a timeout or a dropped connection may have sent the request.
    public static func failure(_ error: any Error, server: String, timeout: TimeInterval = RemoteAPI.timeout) -> any UserFacingError {
        func unreachable(_ reason: String, _ sent: ServerUnreachable.Sent) -> ServerUnreachable {
            ServerUnreachable(address: server, reason: reason, sent: sent)
        }
        let lost = "the connection was lost before the answer came"
        if let reason = certificateProblem(error) { return ServerNotTrusted(address: server, reason: reason) }
        switch error {
        case let error as NIOConnectionError: // a host name: its addresses, tried in turn
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return unreachable("no such host", .nothing)
            }
            return unreachable(connectFailure(error.connectionErrors.map(\.error)), .nothing)
        case let error as IOError where connectErrnos.contains(error.errnoCode) && atConnect(error): // an address written as such
            return unreachable(connectFailure([error]), .nothing)
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout: return unreachable("no connection could be made in time", .nothing)
            case .tlsHandshakeTimeout: return unreachable("the TLS handshake did not finish in time", .nothing)
            case .readTimeout, .deadlineExceeded: return unreachable(noAnswer(within: timeout), .perhaps)
            case .remoteConnectionClosed: return unreachable(lost, .perhaps)
            case .invalidURL, .emptyHost, .emptyScheme:
                return ServerAddressUnusable(address: server, reason: "its HTTP client cannot use it")
            default: return unreachable(String(describing: error), .perhaps)
            }
        case let error as NIOSSLError:
            // Not a certificate (that is above): a handshake refused before any request was written.
            if case .handshakeFailed = error {
                return unreachable("the TLS handshake failed (is it speaking TLS, and not too busy?)", .nothing)
            }
            return unreachable(lost, .perhaps)
        case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
            return unreachable(lost, .perhaps)
        case is ChannelError:
            return unreachable(lost, .perhaps)
        default:
            return unreachable(String(describing: error), .perhaps)
        }
    }

    /// The `errno`s of a connection that could not be made: nothing was sent.
    static let connectErrnos: Set<CInt> = [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, ETIMEDOUT]

    /// Whether NIO raised `error` while connecting (its reason names the call): the same `errno` on
    /// an open connection (a route lost while the request was on its way) may have sent it.
    static func atConnect(_ error: IOError) -> Bool {
        let said = String(describing: error)
        return error.errnoCode == ECONNREFUSED || said.hasPrefix("connect") || said.hasPrefix("finishing a non-blocking connect")
    }

    static func connectFailure(_ errors: [any Error]) -> String {
        let codes = Set(errors.compactMap { ($0 as? IOError)?.errnoCode })
        if codes.contains(ECONNREFUSED) { return "the connection was refused (is moa-server running there?)" }
        if !codes.isEmpty, codes.isSubset(of: [ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL]) {
            return "this machine has no route to that address"
        }
        if codes.contains(ETIMEDOUT) { return "no connection could be made in time" }
        return "no connection could be made"
    }

    /// Why TLS refused the server's certificate, or `nil`: BoringSSL's verification failed (a
    /// self-signed certificate, a CA this machine does not trust, an expired one), or the
    /// certificate is for another name.
    static func certificateProblem(_ error: any Error) -> String? {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return "it is not for this host name"
        }
        if case .handshakeFailed(let cause) = error as? NIOSSLError, String(describing: cause).contains("CERTIFICATE_VERIFY_FAILED") {
            return "its chain does not lead to a CA this machine trusts, or it has expired"
        }
        return nil
    }
}
