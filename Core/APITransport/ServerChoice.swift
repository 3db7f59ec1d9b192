import APIClient
import Foundation
import SharedKit
import Storage

/// Which bank a `moa` command uses: the embedded one (no server chosen), or a `moa-server`.
///
/// Chosen, in this order, by `--server` (`moa auth signup` and `login`, which also remember it in
/// the home), by `MOA_SERVER_URL` (one command; `MOA_ALLOW_INSECURE_HTTP=1` is its
/// `--allow-insecure-http`), or by the server the home remembers (`$MOA_HOME/server.json`).
public enum ServerChoice {
    /// The file in the home that remembers the server.
    public static func fileURL(in home: MoaHome) -> URL { home.root.appendingPathComponent("server.json") }

    /// `--server embedded`: this machine's own bank again (the remembered server is forgotten).
    public static let embedded = "embedded"

    /// The server this command uses, or `nil` for the embedded bank, with the CA file it is trusted
    /// by (`caFile`, the `--ca-file` given with `--server`; else `MOA_CA_FILE`; else the remembered
    /// one) and how long a request may wait (`MOA_SERVER_TIMEOUT`).
    public static func resolve(
        option: String?, allowInsecureHTTP: Bool, caFile: String? = nil, environment: [String: String], home: MoaHome
    ) throws -> ServerAddress? {
        guard var address = try address(option: option, allowInsecureHTTP: allowInsecureHTTP, environment: environment, home: home)
        else {
            if let caFile { throw CAFileUnusable(path: ServerAddress.shown(caFile), origin: .option, reason: "no moa-server is used") }
            return nil
        }
        if let caFile {
            address.caFile = try ServerTrust.checked(caFile, origin: .option)
        } else if let variable = environment["MOA_CA_FILE"], !variable.trimmingCharacters(in: .whitespaces).isEmpty {
            address.caFile = try ServerTrust.checked(variable, origin: .environment)
        }
        if let variable = environment["MOA_SERVER_TIMEOUT"] { address.timeout = try timeout(variable) }
        return address
    }

    private static func address(
        option: String?, allowInsecureHTTP: Bool, environment: [String: String], home: MoaHome
    ) throws -> ServerAddress? {
        if let option, option.trimmingCharacters(in: .whitespaces).lowercased() == embedded { return nil }
        if let option { return try ServerAddress(option, origin: .option, allowInsecureHTTP: allowInsecureHTTP) }
        if let variable = environment["MOA_SERVER_URL"], !variable.trimmingCharacters(in: .whitespaces).isEmpty {
            let insecure = allowInsecureHTTP || environment["MOA_ALLOW_INSECURE_HTTP"] == "1"
            return try ServerAddress(variable, origin: .environment, allowInsecureHTTP: insecure)
        }
        return try remembered(in: home)
    }

    /// `MOA_SERVER_TIMEOUT`: whole or decimal seconds, 1 to ``RemoteAPI/maximumTimeout``.
    static func timeout(_ text: String) throws(ServerTimeoutError) -> TimeInterval {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 16, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let seconds = Double(trimmed),
            (1...RemoteAPI.maximumTimeout).contains(seconds)
        else { throw ServerTimeoutError(text: ServerAddress.shown(trimmed)) }
        return seconds
    }

    /// The server the home remembers, checked again (a hand-edited file gets no pass).
    static func remembered(in home: MoaHome) throws -> ServerAddress? {
        guard let data = try? Data(contentsOf: fileURL(in: home)) else { return nil }
        guard let file = try? JSONDecoder().decode(Remembered.self, from: data) else {
            throw ServerAddressError.malformed(fileURL(in: home).path, origin: .home)
        }
        var address = try ServerAddress(file.url, origin: .home, allowInsecureHTTP: file.allowsInsecureHTTP)
        address.caFile = try file.caFile.map { path throws(CAFileUnusable) in try ServerTrust.checked(path, origin: .home) }
        return address
    }

    /// `$MOA_HOME/server.json`.
    struct Remembered: Codable {
        let url: String
        let allowsInsecureHTTP: Bool
        /// Absent in files written before `--ca-file`.
        var caFile: String?
    }

    /// Forgets the remembered server: the home uses its own bank again.
    public static func forget(in home: MoaHome) throws {
        guard unlink(fileURL(in: home).path) == 0 || errno == ENOENT else {
            throw RememberServerError(path: fileURL(in: home).path, reason: String(cString: strerror(errno)))
        }
    }

    /// Remembers `address` in the home (owner-only, written whole or not at all), with its CA file
    /// only when `withCAFile` (given with `--ca-file`: `MOA_CA_FILE` is for one command).
    public static func remember(_ address: ServerAddress, withCAFile: Bool, in home: MoaHome) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try AtomicFile.save(
                try encoder.encode(
                    Remembered(
                        url: address.url.absoluteString, allowsInsecureHTTP: address.allowsInsecureHTTP,
                        caFile: withCAFile ? address.caFile : nil)),
                to: fileURL(in: home))
        } catch {
            throw RememberServerError(path: fileURL(in: home).path, reason: String(describing: error))
        }
    }
}

/// `MOA_SERVER_TIMEOUT` that is not a number of seconds from 1 to 300 (78).
public struct ServerTimeoutError: UserFacingError, Equatable {
    let text: String
    public var message: String {
        "MOA_SERVER_TIMEOUT “\(text)” is not a number of seconds from 1 to \(Int(RemoteAPI.maximumTimeout))."
    }
    public var hint: String? { "For example MOA_SERVER_TIMEOUT=10; unset, a request waits \(Int(RemoteAPI.timeout)) seconds." }
    public var exitStatus: ExitStatus { .configuration }
}

/// The home's server file cannot be written.
public struct RememberServerError: UserFacingError {
    let path: String
    let reason: String
    public var message: String { "Cannot remember the server in \(path): \(reason)." }
    public var exitStatus: ExitStatus { .ioError }
}
