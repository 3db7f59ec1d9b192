import ArgumentParser
import Configuration
import Foundation
import HTTPServing
import MoaPostgres
import PostgresStorage
import SharedKit
import SystemPackage

/// What `moa-server` runs with, each value from the first place that gives it: a flag, then the
/// environment (`MOA_SERVER_PORT`, …), then the configuration file (`--config` or
/// `MOA_SERVER_CONFIG`: JSON, keys as below), then the default. Read with apple/swift-configuration
/// (an environment provider and a JSON file provider); every value is checked once here, and a bad
/// one is one sentence naming where it came from (exit 64; a file that cannot be read, 78).
struct ServerSettings: Sendable, Equatable {
    var host = "127.0.0.1"
    var port = 8080
    var data: String?
    var database: String?
    var maxConnections = ConnectionLimits().maximumConnections
    var idleTimeout = 15
    var trustedProxies: [String] = []
    var logFormat = LogFormat.text
    var logLevel = LogLevelArgument.info
    var metricsPort: Int?
    var tlsCert: String?
    var tlsKey: String?
    /// Where each value came from, by key (`--port`, `MOA_SERVER_PORT`, `port in /etc/moa-server.json`).
    var sources: [String: String] = [:]

    /// The keys, as the file names them (the environment's are `MOA_SERVER_` and the key in capitals
    /// with `_` between words; the flags', `--` and the key with `-` between words).
    static let keys = [
        "host", "port", "data", "database", "maxConnections", "idleTimeout", "trustedProxies", "logFormat", "logLevel", "metricsPort",
        "tlsCert", "tlsKey",
    ]

    /// A sentence about a value given in the wrong place or form: exit 64.
    struct Invalid: UserFacingError, CustomStringConvertible {
        let description: String
        var message: String { description + "." }
        var exitStatus: ExitStatus { .usage }
    }

    // MARK: Resolving

    /// The settings of `command`'s flags over `environment` over the configuration file.
    static func resolve(_ command: ServerCommand, environment: [String: String]) async throws -> ServerSettings {
        let environmentReader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
            .scoped(to: ["moa", "server"])
        let filePath = command.config ?? environment["MOA_SERVER_CONFIG"]
        var file: (reader: ConfigReader, path: String)?
        if let filePath {
            file = (try await Self.fileReader(filePath), filePath)
        }
        var settings = ServerSettings()
        var layers = Layers(environment: environmentReader, file: file)
        settings.host = try layers.string("host", flag: command.host) ?? settings.host
        settings.port = try layers.int("port", flag: command.port) ?? settings.port
        settings.data = try layers.string("data", flag: command.data)
        settings.database = try layers.string("database", flag: command.database)
        settings.maxConnections = try layers.int("maxConnections", flag: command.maxConnections) ?? settings.maxConnections
        settings.idleTimeout = try layers.int("idleTimeout", flag: command.idleTimeout) ?? settings.idleTimeout
        settings.trustedProxies = try layers.list("trustedProxies", flag: command.trustedProxy.isEmpty ? nil : command.trustedProxy) ?? []
        settings.logFormat = try layers.choice("logFormat", flag: command.logFormat) ?? settings.logFormat
        settings.logLevel = try layers.choice("logLevel", flag: command.logLevel) ?? settings.logLevel
        settings.metricsPort = try layers.int("metricsPort", flag: command.metricsPort)
        settings.tlsCert = try layers.string("tlsCert", flag: command.tlsCert)
        settings.tlsKey = try layers.string("tlsKey", flag: command.tlsKey)
        settings.sources = layers.sources
        try settings.validate()
        return settings
    }

    /// The JSON file at `path`, its keys checked (an unknown one — a typo — is refused, not ignored).
    private static func fileReader(_ path: String) async throws -> ConfigReader {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerError.configurationUnusable("The configuration file \(path) cannot be read")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw ServerError.configurationUnusable("The configuration file \(path) is not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw ServerError.configurationUnusable(
                "The configuration file \(path) has the key \"\(unknown)\", which moa-server does not know (it knows \(keys.joined(separator: ", ")))"
            )
        }
        do {
            return ConfigReader(provider: try await FileProvider<JSONSnapshot>(filePath: FilePath(path)))
        } catch {
            throw ServerError.configurationUnusable("The configuration file \(path) cannot be read (\(error))")
        }
    }

    /// The flag, else the environment, else the file — and where the value came from.
    private struct Layers {
        let environment: ConfigReader
        let file: (reader: ConfigReader, path: String)?
        var sources: [String: String] = [:]

        init(environment: ConfigReader, file: (reader: ConfigReader, path: String)?) {
            self.environment = environment
            self.file = file
        }

        static func flag(_ key: String) -> String {
            "--"
                + key.reduce(into: "") { name, character in name += character.isUppercase ? "-" + character.lowercased() : String(character)
                }
        }

        static func variable(_ key: String) -> String {
            "MOA_SERVER_"
                + key.reduce(into: "") { name, character in name += character.isUppercase ? "_" + String(character) : character.uppercased()
                }
        }

        /// The value of `key` as `read` takes it from a layer: `nil` when the layer lacks it.
        private mutating func value<T>(
            _ key: String, flag: T?, kind: String, read: (ConfigReader, String, _ fromEnvironment: Bool) throws -> T
        ) throws -> T? {
            if let flag {
                sources[key] = Self.flag(key)
                return flag
            }
            let layers = [(environment, Self.variable(key), true)] + (file.map { [($0.reader, "\(key) in \($0.path)", false)] } ?? [])
            for (reader, source, fromEnvironment) in layers {
                do {
                    let value = try read(reader, key, fromEnvironment)
                    sources[key] = source
                    return value
                } catch {
                    // swift-configuration's own error type is not public: a missing value says so in its text.
                    if String(describing: error).hasPrefix("Missing required config value") { continue }
                    throw Invalid(description: "\(source) must be \(kind)")
                }
            }
            sources[key] = "default"
            return nil
        }

        mutating func string(_ key: String, flag: String?) throws -> String? {
            try value(key, flag: flag, kind: "text") { reader, key, _ in try reader.requiredString(forKey: ConfigKey(key)) }
        }

        mutating func int(_ key: String, flag: Int?) throws -> Int? {
            try value(key, flag: flag, kind: "a whole number") { reader, key, _ in try reader.requiredInt(forKey: ConfigKey(key)) }
        }

        /// A list: repeated flags, a comma-separated variable, or a JSON array of strings.
        mutating func list(_ key: String, flag: [String]?) throws -> [String]? {
            try value(key, flag: flag, kind: "a list of addresses (a JSON array of strings; in a variable, separated by commas)") {
                reader, key, fromEnvironment in
                if fromEnvironment {
                    return try reader.requiredString(forKey: ConfigKey(key)).split(separator: ",").map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                }
                return try reader.requiredStringArray(forKey: ConfigKey(key))
            }
        }

        mutating func choice<T: RawRepresentable & CaseIterable>(_ key: String, flag: T?) throws -> T? where T.RawValue == String {
            guard let text = try string(key, flag: flag?.rawValue) else { return nil }
            guard let value = T(rawValue: text) else {
                throw Invalid(
                    description:
                        "\(sources[key] ?? key) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
            }
            return value
        }
    }

    // MARK: Checking

    /// How a message names where `key`'s value came from.
    private func origin(_ key: String) -> String { sources[key] ?? Layers.flag(key) }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw Invalid(description: "\(origin("port")) must be between 0 and 65535, not \(port)") }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".:-".contains($0) }) else {
            throw Invalid(description: "\(origin("host")) must be an address or a host name, not \"\(host)\"")
        }
        if let data, data.allSatisfy(\.isWhitespace) { throw Invalid(description: "\(origin("data")) names no folder") }
        guard (1...1_000_000).contains(maxConnections) else {
            throw Invalid(description: "\(origin("maxConnections")) must be between 1 and 1000000, not \(maxConnections)")
        }
        guard (1...3_600).contains(idleTimeout) else {
            throw Invalid(description: "\(origin("idleTimeout")) must be between 1 and 3600 seconds, not \(idleTimeout)")
        }
        if let metricsPort, !(0...65_535).contains(metricsPort) || (metricsPort == port && port != 0) {
            throw Invalid(description: "\(origin("metricsPort")) must be between 0 and 65535 and not the API's port, not \(metricsPort)")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw Invalid(description: "--tls-cert and --tls-key go together: give both for HTTPS, or neither for plain HTTP")
        }
        for proxy in trustedProxies where ClientAddressResolver.address(proxy) == nil {
            throw Invalid(description: "\(origin("trustedProxies")) must name IP addresses, not \"\(proxy)\"")
        }
    }

    // MARK: Showing

    /// `--print-config`: every setting, its value and where it came from; the database's password
    /// (in its URL, or PGPASSWORD) never shown.
    func printed(environment: [String: String]) -> String {
        func shown(_ key: String) -> String {
            switch key {
            case "host": host
            case "port": String(port)
            case "data": data ?? "(~/.moa-server)"
            case "database": database.map(PostgresLocation.redacted) ?? "(none: SQLite in data)"
            case "maxConnections": String(maxConnections)
            case "idleTimeout": "\(idleTimeout) s"
            case "trustedProxies": trustedProxies.isEmpty ? "(none)" : trustedProxies.joined(separator: ", ")
            case "logFormat": logFormat.rawValue
            case "logLevel": logLevel.rawValue
            case "metricsPort": metricsPort.map(String.init) ?? "(the API's port)"
            case "tlsCert": tlsCert ?? "(none: plain HTTP)"
            case "tlsKey": tlsKey ?? "(none)"
            default: ""
            }
        }
        let width = Self.keys.map(\.count).max() ?? 0
        var lines = Self.keys.map { key in
            key.padding(toLength: width + 2, withPad: " ", startingAt: 0) + shown(key) + "  (" + (sources[key] ?? "default") + ")"
        }
        if database != nil {
            lines.append(
                "PGPASSWORD".padding(toLength: width + 2, withPad: " ", startingAt: 0)
                    + (environment["PGPASSWORD"].map { $0.isEmpty ? "(empty)" : "(set, not shown)" } ?? "(not set)"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
