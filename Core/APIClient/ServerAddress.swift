import Foundation
import SharedKit

/// The `moa-server` a client talks to: an `http` or `https` URL with a host, parsed once, where it
/// is given (`--server`, `MOA_SERVER_URL`, or the home's remembered one).
///
/// Credentials never go over plain `http://` to anything but this machine (a loopback address or
/// `localhost`) unless the person said so with `--allow-insecure-http`: the refusal comes before any
/// request, with exit status 78.
public struct ServerAddress: Sendable, Equatable {
    /// The base URL, without a trailing slash (`/v1/…` is appended).
    public let url: URL
    /// Whether plain `http://` to another machine was allowed explicitly.
    public let allowsInsecureHTTP: Bool
    /// A PEM file of CA certificates trusted for this server besides the system's (an absolute
    /// path, checked by ``ServerTrust/checked(_:origin:)``).
    public var caFile: String?
    /// How long each request waits for an answer (`MOA_SERVER_TIMEOUT`, 1 to 300 seconds).
    public var timeout: TimeInterval = RemoteAPI.timeout

    /// Where the text came from, for the error's sentence.
    public enum Origin: String, Sendable {
        case option = "--server"
        case environment = "MOA_SERVER_URL"
        case home = "the home's server file"
    }

    /// Parses `text` (surrounding blanks ignored) and applies the plain-HTTP rule.
    public init(_ text: String, origin: Origin, allowInsecureHTTP: Bool = false) throws(ServerAddressError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 2_048, !trimmed.unicodeScalars.contains(where: Self.isUnsafe),
            var components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil, components.user == nil, components.password == nil
        else { throw .malformed(Self.shown(trimmed), origin: origin) }
        components.scheme = scheme
        while components.path.hasSuffix("/") { components.path.removeLast() }
        guard let url = components.url else { throw .malformed(Self.shown(trimmed), origin: origin) }
        if scheme == "http", !Self.isLoopback(host), !allowInsecureHTTP {
            throw .insecure(Self.shown(url.absoluteString), origin: origin)
        }
        self.url = url
        self.allowsInsecureHTTP = allowInsecureHTTP
    }

    /// `localhost`, `127.0.0.0/8` or `::1`: this machine, where plain HTTP reaches no network.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format || scalar == " "
    }

    /// Text from the command line or the environment, as a message quotes it.
    public static func shown(_ text: String) -> String {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { !isUnsafe($0) }))
        return clean.count > 80 ? String(clean.prefix(80)) + "…" : clean
    }
}

/// Why a server address is refused, before any request.
public enum ServerAddressError: Error, UserFacingError, Equatable {
    case malformed(String, origin: ServerAddress.Origin)
    case insecure(String, origin: ServerAddress.Origin)

    public var message: String {
        switch self {
        case .malformed(let text, let origin):
            "“\(text)” (\(origin.rawValue)) is not a server address: use http://HOST:PORT or https://HOST."
        case .insecure(let text, let origin):
            "\(text) (\(origin.rawValue)) is plain HTTP to another machine: passwords and tokens would cross the network unencrypted."
        }
    }

    public var hint: String? {
        switch self {
        case .malformed: "For example --server https://bank.example or --server http://127.0.0.1:8080."
        case .insecure: "Use https://, or pass --allow-insecure-http if this network is yours and trusted."
        }
    }

    /// A malformed `--server` is a usage error (64); a malformed address from the environment or the
    /// home, and plain HTTP to another machine from anywhere, are configuration errors (78).
    public var exitStatus: ExitStatus {
        switch self {
        case .malformed(_, .option): .usage
        case .malformed, .insecure: .configuration
        }
    }
}
