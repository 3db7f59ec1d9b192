import Foundation
import SharedKit

/// The folder that holds everything `moa` stores: `$MOA_HOME`, by default `~/.moa`.
///
/// Precedence: the `--home` option, then the `MOA_HOME` environment variable, then `~/.moa`.
public struct MoaHome: Sendable, Equatable {
    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// Resolves the home folder from the command line and the environment.
    public static func resolve(option: String?, environment: [String: String]) -> MoaHome {
        if let option, !option.isEmpty { return MoaHome(root: URL(fileURLWithPath: expandTilde(option, environment))) }
        if let value = environment["MOA_HOME"], !value.isEmpty {
            return MoaHome(root: URL(fileURLWithPath: expandTilde(value, environment)))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return MoaHome(root: URL(fileURLWithPath: home).appendingPathComponent(".moa"))
    }

    /// The SQLite database.
    public var databaseURL: URL { root.appendingPathComponent("moa.sqlite") }
    /// Where the embedded mail sender writes `.eml` files.
    public var outboxURL: URL { root.appendingPathComponent("outbox") }
    /// The session file (mode 0600).
    public var sessionURL: URL { root.appendingPathComponent("session.json") }

    /// Creates the folder (mode 0700) if it does not exist.
    public func prepare() throws(StorageError) {
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError.cannotCreateHome(path: root.path, reason: Self.reason(error))
        }
    }

    private static func expandTilde(_ path: String, _ environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + path.dropFirst()
    }

    static func reason(_ error: any Error) -> String {
        let text = (error as NSError).localizedDescription
        return text.isEmpty ? String(describing: error) : text
    }
}
