import Foundation
import PostgresNIO
import SharedKit

/// Where `moa-server --database` finds PostgreSQL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
/// parsed once, at the edge. `postgresql://` is accepted too; the port defaults to 5432; the password
/// may instead come from `PGPASSWORD` (better: it does not show in `ps`). `?sslmode=disable`,
/// `prefer` (the default) or `require` chooses TLS.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        case disable, prefer, require
    }

    public let user: String
    public let password: String?
    public let host: String
    public let port: Int
    public let database: String
    public let tls: TLSMode

    public init(user: String, password: String?, host: String, port: Int = 5432, database: String, tls: TLSMode = .prefer) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.tls = tls
    }

    /// Parses `text` (from `--database`); `environment` gives `PGPASSWORD` when the URL has no password.
    public init(_ text: String, environment: [String: String] = [:]) throws(PostgresLocationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            ["postgres", "postgresql"].contains(scheme)
        else { throw .notAPostgresURL(Self.redacted(trimmed)) }
        guard let host = components.host, !host.isEmpty else { throw .missing("a host", Self.redacted(trimmed)) }
        guard let user = components.user, !user.isEmpty else { throw .missing("a user", Self.redacted(trimmed)) }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw .missing("a database name", Self.redacted(trimmed)) }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw .missing("a port between 1 and 65535", Self.redacted(trimmed)) }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode", let value = item.value, let mode = TLSMode(rawValue: value) else {
                throw .unknownParameter(item.name, Self.redacted(trimmed))
            }
            tls = mode
        }
        let password = components.password ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(user: user, password: password, host: host, port: port, database: database, tls: tls)
    }

    /// The location without its password, safe to print and to log.
    public var description: String {
        "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)" + (tls == .prefer ? "" : "?sslmode=\(tls)")
    }

    /// The same server, another database (for the tests' throwaway databases).
    public func with(database: String) -> PostgresLocation {
        PostgresLocation(user: user, password: password, host: host, port: port, database: database, tls: tls)
    }

    var configuration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        return PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    /// `text` with anything between `://user:` and `@` replaced, and control characters dropped.
    static func redacted(_ text: String) -> String {
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

    public var message: String {
        switch self {
        case .notAPostgresURL(let text): "--database must be a postgres://USER@HOST:PORT/DATABASE URL, not \"\(text)\"."
        case .missing(let what, let text): "--database \"\(text)\" has no \(what)."
        case .unknownParameter(let name, let text):
            "--database \"\(text)\" has a parameter Moa does not know (\"\(name)\"): only sslmode=disable, prefer or require."
        }
    }

    public var hint: String? { "For example: --database postgres://moa@127.0.0.1:5432/moa (the password in PGPASSWORD)." }

    public var exitStatus: ExitStatus { .usage }
}
