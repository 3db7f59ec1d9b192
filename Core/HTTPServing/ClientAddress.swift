import APIServing
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// `moa-server`'s request context: Hummingbird's, plus the peer address of the connection and
/// what the request log learns on the way in (``RequestTrace``).
public struct MoaRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// What the request log learns on the way in.
    public let trace = RequestTrace()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// The client a request comes from: the connection's peer — or, when the peer is one of the
/// proxies the operator trusts (`--trusted-proxy`), the address that proxy appended to
/// `X-Forwarded-For`. Throttles, logs and metrics use it; nothing else.
///
/// The header is read right to left and every trusted hop skipped, so a client cannot choose its
/// address by sending its own `X-Forwarded-For`: only what the trusted proxy appended counts, and a
/// request that did not come through a trusted proxy is its peer, whatever it says.
public struct ClientAddressResolver: Sendable {
    /// Addresses (as text, e.g. `127.0.0.1`, `::1`) of the reverse proxies in front of the server.
    public let trustedProxies: Set<String>

    public init(trustedProxies: Set<String> = []) {
        self.trustedProxies = trustedProxies
    }

    /// The `X-Forwarded-For` fields of a request, in order.
    public static func forwardedFor(_ headers: HTTPFields) -> [String] {
        HTTPField.Name("X-Forwarded-For").map { headers[values: $0] } ?? []
    }

    /// What a request whose peer is unknown (a test without a socket) is counted as.
    public static let unknown = ServedRequest.unknownClient

    public func client(peer: SocketAddress?, forwardedFor: [String]) -> String {
        guard let peerAddress = peer?.ipAddress.map(Self.normalized) else { return Self.unknown }
        guard trustedProxies.contains(peerAddress) else { return peerAddress }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard let address = Self.address(hop) else { return peerAddress } // garbage: trust nothing further left
            if !trustedProxies.contains(address) { return address }
        }
        return peerAddress
    }

    /// An IPv4 or IPv6 address as written in `X-Forwarded-For` (brackets and a port allowed), or `nil`.
    public static func address(_ text: String) -> String? {
        var candidate = Substring(text)
        if candidate.hasPrefix("["), let close = candidate.firstIndex(of: "]") {
            candidate = candidate[candidate.index(after: candidate.startIndex)..<close]
        } else if candidate.filter({ $0 == ":" }).count == 1, let colon = candidate.firstIndex(of: ":") {
            candidate = candidate[..<colon] // IPv4 with a port
        }
        guard !candidate.isEmpty, candidate.count <= 45,
            let parsed = try? SocketAddress(ipAddress: String(candidate), port: 0), let ip = parsed.ipAddress
        else { return nil }
        return normalized(ip)
    }

    /// IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as the IPv4 address it is; any other IPv6 address as
    /// its /64 (`2001:db8:0:1::/64`): one subscriber gets a whole /64, so counting each address in it
    /// apart would give a guesser billions of fresh clients. `::1` stays itself.
    static func normalized(_ address: String) -> String {
        let lower = address.lowercased()
        if lower.hasPrefix("::ffff:") && lower.contains(".") { return String(lower.dropFirst(7)) }
        guard lower.contains(":"), lower != "::1" else { return lower }
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, lower, &bytes) == 1 else { return lower }
        let groups = withUnsafeBytes(of: &bytes) { raw in
            (0..<4).map { String(UInt16(raw[$0 * 2]) << 8 | UInt16(raw[$0 * 2 + 1]), radix: 16) }
        }
        return groups.joined(separator: ":") + "::/64"
    }
}
