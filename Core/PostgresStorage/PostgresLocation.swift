import Foundation
import PostgresNIO
import SharedKit

/// Where `moa-server --database` finds PostgreSQL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
/// parsed once, at the edge. `postgresql://` is accepted too; the port defaults to 5432; the password
/// may instead come from `PGPASSWORD` (better: it does not show in `ps`).
///
/// `?sslmode=` means what it means to libpq: `disable` (plain), `prefer` (TLS when the server offers
/// it, unverified, plain otherwise), `require` (TLS, unverified: safe from listeners, not from
/// someone in the middle), `verify-ca` (TLS, the certificate checked against the trusted roots) or
/// `verify-full` (that, and the certificate names the host). Unlike libpq's `prefer`, the default
/// depends on the host: `prefer` on this machine (`localhost`, 127.0.0.0/8, `::1`), where nothing
/// travels on a network, and `verify-full` on any other, so that neither the password nor the bank
/// crosses a network unencrypted or to an impostor unless the URL says so. `?sslrootcert=PATH` (a
/// PEM file) replaces the system's trusted roots and implies `verify-full` when no mode is given.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"

        /// Whether the server's certificate is checked against trusted roots.
        public var verifies: Bool { self == .verifyCA || self == .verifyFull }
    }

    public let user: String
    public let password: String?
    public let host: String
    public let port: Int
    public let database: String
    public let tls: TLSMode
    /// A PEM file of the roots to trust instead of the system's (`sslrootcert`).
    public let rootCertificates: String?

    public init(
        user: String, password: String?, host: String, port: Int = 5432, database: String, tls: TLSMode? = nil,
        rootCertificates: String? = nil
    ) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.tls = tls ?? Self.defaultTLS(for: host)
        self.rootCertificates = rootCertificates
    }

    /// `prefer` for a server on this machine, `verify-full` for any other.
    public static func defaultTLS(for host: String) -> TLSMode {
        isLoopback(host) ? .prefer : .verifyFull
    }

    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Parses `text` (from `--database`); `environment` gives `PGPASSWORD` when the URL has no password.
    public init(_ text: String, environment: [String: String] = [:]) throws(PostgresLocationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            ["postgres", "postgresql"].contains(scheme)
        else { throw .notAPostgresURL(Self.redacted(trimmed)) }
        guard let host = components.host?.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), !host.isEmpty else {
            throw .missing("a host", Self.redacted(trimmed))
        }
        guard let user = components.user, !user.isEmpty else { throw .missing("a user", Self.redacted(trimmed)) }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw .missing("a database name", Self.redacted(trimmed)) }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw .missing("a port between 1 and 65535", Self.redacted(trimmed)) }
        var tls: TLSMode?
        var roots: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard tls == nil, let value = item.value, let mode = TLSMode(rawValue: value) else {
                    throw .badTLSMode(item.value ?? "", Self.redacted(trimmed))
                }
                tls = mode
            case "sslrootcert":
                guard roots == nil, let path = item.value, !path.isEmpty else { throw .badRootCertificates("", Self.redacted(trimmed)) }
                guard FileManager.default.isReadableFile(atPath: path) else { throw .badRootCertificates(path, Self.redacted(trimmed)) }
                roots = path
            default:
                throw .unknownParameter(Self.redacted(item.name), Self.redacted(trimmed))
            }
        }
        if roots != nil {
            if let mode = tls, !mode.verifies { throw .rootCertificatesUnused(mode.rawValue, Self.redacted(trimmed)) }
            tls = tls ?? .verifyFull
        }
        let password = components.password ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(user: user, password: password, host: host, port: port, database: database, tls: tls, rootCertificates: roots)
    }

    /// The location without its password, safe to print and to log; the TLS mode always shown.
    public var description: String {
        "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)?sslmode=\(tls.rawValue)"
            + (rootCertificates.map { "&sslrootcert=\(Self.redacted($0))" } ?? "")
    }

    /// The same server, another database (for the tests' throwaway databases).
    public func with(database: String) -> PostgresLocation {
        PostgresLocation(
            user: user, password: password, host: host, port: port, database: database, tls: tls, rootCertificates: rootCertificates)
    }

    /// What NIOSSL is told: no check of the certificate for `prefer` and `require` (as libpq), the
    /// chain for `verify-ca`, the chain and the host name for `verify-full`; nil for `disable`.
    var tlsConfiguration: TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable: return nil
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let rootCertificates { configuration.trustRoots = .file(rootCertificates) }
        return configuration
    }

    var configuration: PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS =
            switch (tls, tlsConfiguration) {
            case (.prefer, let configuration?): .prefer(configuration)
            case (_, let configuration?): .require(configuration)
            case (_, nil): .disable
            }
        return PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: mode)
    }

    /// `text` with anything between `://user:` and `@` replaced, and control characters dropped.
    public static func redacted(_ text: String) -> String {
        var shown = text
        if let scheme = shown.range(of: "://"), let at = shown[scheme.upperBound...].lastIndex(of: "@"),
            let colon = shown[scheme.upperBound..<at].firstIndex(of: ":")
        {
            shown.replaceSubrange(shown.index(after: colon)..<at, with: "•••")
        }
        return String(String.UnicodeScalarView(shown.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).prefix(200))
    }
}

/// `--database` names no PostgreSQL database Moa can use.
public enum PostgresLocationError: Error, UserFacingError, Equatable {
    case notAPostgresURL(String)
    case missing(String, String)
    case unknownParameter(String, String)
    case badTLSMode(String, String)
    case badRootCertificates(String, String)
    case rootCertificatesUnused(String, String)

    public var message: String {
        switch self {
        case .notAPostgresURL(let text): "--database must be a postgres://USER@HOST:PORT/DATABASE URL, not \"\(text)\"."
        case .missing(let what, let text): "--database \"\(text)\" needs \(what)."
        case .unknownParameter(let name, let text):
            "--database \"\(text)\" has a parameter Moa does not know (\"\(name)\"): only sslmode and sslrootcert."
        case .badTLSMode(let value, let text):
            "--database \"\(text)\" has sslmode \"\(PostgresLocation.redacted(value))\": give it once, as one of \(PostgresLocation.TLSMode.allCases.map(\.rawValue).joined(separator: ", "))."
        case .badRootCertificates(let path, let text):
            "--database \"\(text)\" has an sslrootcert that is not a readable file (\"\(PostgresLocation.redacted(path))\")."
        case .rootCertificatesUnused(let mode, let text):
            "--database \"\(text)\" gives sslrootcert with sslmode=\(mode), which checks no certificate: use verify-ca or verify-full."
        }
    }

    public var hint: String? { "For example: --database postgres://moa@127.0.0.1:5432/moa (the password in PGPASSWORD)." }

    public var exitStatus: ExitStatus { .usage }
}
