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

    /// The home folder named by the command line or the environment: `--home`, else `MOA_HOME`,
    /// else `~/.moa`. A `--home` or a `MOA_HOME` that names no folder (empty, or only spaces) is
    /// refused, before anything is created: it is a mistake, not a request for the default.
    public static func locate(option: String?, environment: [String: String]) throws(MoaHomeError) -> MoaHome {
        if let option {
            guard !option.allSatisfy(\.isWhitespace) else { throw .emptyOption }
            return MoaHome(root: URL(fileURLWithPath: expandTilde(option, environment)))
        }
        if let value = environment["MOA_HOME"] {
            guard !value.allSatisfy(\.isWhitespace) else { throw .emptyVariable }
            return MoaHome(root: URL(fileURLWithPath: expandTilde(value, environment)))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return MoaHome(root: URL(fileURLWithPath: home).appendingPathComponent(".moa"))
    }

    /// Resolves the home folder from the command line and the environment, taking an empty value for
    /// an absent one. `moa` uses ``locate(option:environment:)``, which refuses empty values.
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
    /// Where secrets are kept when the machine has no credential store (``FileCredentialStore``), mode 0700.
    public var secretsURL: URL { root.appendingPathComponent("secrets") }

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

/// Why the home folder named on the command line or in the environment cannot be used.
public enum MoaHomeError: Error, UserFacingError, Equatable {
    /// `--home ""`: the option names no folder (exit 64).
    case emptyOption
    /// `MOA_HOME=""`: the variable is set but names no folder (exit 78).
    case emptyVariable

    public var message: String {
        switch self {
        case .emptyOption: "The --home option names no folder."
        case .emptyVariable: "The MOA_HOME environment variable is set but names no folder."
        }
    }

    public var hint: String? {
        switch self {
        case .emptyOption: "Give the folder that holds moa's data (for example --home ~/.moa), or leave --home out."
        case .emptyVariable: "Set MOA_HOME to a folder, or unset it to use ~/.moa."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .emptyOption: .usage
        case .emptyVariable: .configuration
        }
    }
}

// MARK: - Permissions

extension MoaHome {
    /// One way other users of the machine could read or change what moa keeps.
    public struct PermissionProblem: Sendable, Equatable {
        /// The folder or file.
        public let path: String
        /// Its permission bits, e.g. `0o777`.
        public let mode: Int
        /// One sentence: what is wrong and what to do.
        public let sentence: String
    }

    /// What other users can do to the home and to the files with secrets in it (the database and its
    /// journal files, the session file, the outbox): nothing when the list is empty.
    ///
    /// Problems: a home that belongs to another user or that other users can write to (they could
    /// replace the database or the session file); a file or the outbox that other users can write to;
    /// a file that other users can read, when the home lets them in (a home without any group or other
    /// permission keeps everything in it private, whatever the files' own modes).
    public func permissionProblems() -> [PermissionProblem] {
        guard let home = Self.status(root.path) else { return [] }
        let homeMode = Int(home.st_mode) & 0o7777
        var problems: [PermissionProblem] = []
        if home.st_uid != geteuid() {
            problems.append(
                PermissionProblem(
                    path: root.path, mode: homeMode,
                    sentence: "The home \(root.path) belongs to another user, who can read and change everything in it: "
                        + "choose a folder of your own with --home or MOA_HOME."))
        }
        if homeMode & 0o022 != 0 {
            problems.append(
                PermissionProblem(
                    path: root.path, mode: homeMode,
                    sentence: "The home \(root.path) is \(Self.octal(homeMode)): other users can add, replace or delete files in it; "
                        + "run `chmod 700 \(root.path)`."))
        }
        let othersGetIn = homeMode & 0o011 != 0
        let files: [(what: String, url: URL, owner: String)] = [
            ("The database", databaseURL, "600"),
            ("The database journal", URL(fileURLWithPath: databaseURL.path + "-wal"), "600"),
            ("The database index", URL(fileURLWithPath: databaseURL.path + "-shm"), "600"),
            ("The session file", sessionURL, "600"),
            ("The outbox", outboxURL, "700"),
            ("The secrets folder", secretsURL, "700"),
        ]
        for file in files {
            guard let info = Self.status(file.url.path) else { continue }
            let mode = Int(info.st_mode) & 0o7777
            if mode & 0o022 != 0 {
                problems.append(
                    PermissionProblem(
                        path: file.url.path, mode: mode,
                        sentence: "\(file.what) \(file.url.path) is \(Self.octal(mode)): other users can change it; "
                            + "run `chmod \(file.owner) \(file.url.path)`."))
            } else if othersGetIn, mode & 0o044 != 0 {
                problems.append(
                    PermissionProblem(
                        path: file.url.path, mode: mode,
                        sentence: "\(file.what) \(file.url.path) is \(Self.octal(mode)) in a home other users can enter: "
                            + "they can read it; run `chmod 700 \(root.path)`."))
            }
        }
        return problems
    }

    /// Makes the home owner-only (0700) when other users can write to it, before anything in it is
    /// opened. Returns what to tell the person, one sentence each: the change made, or why none could
    /// be made (a shared folder with the sticky bit, such as /tmp, or a folder of another user);
    /// nothing when the home was not writable by others (or does not exist yet: it is created 0700).
    public func tightenPermissions() -> [String] {
        guard let home = Self.status(root.path), home.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) else { return [] }
        let mode = Int(home.st_mode) & 0o7777
        guard mode & 0o022 != 0 else { return [] }
        let path = root.path
        if mode & 0o1000 != 0 {
            return [
                "Other users can write to the Moa folder \(path) (\(Self.octal(mode))), a shared folder moa leaves as it is: "
                    + "choose a folder of your own with --home or MOA_HOME."
            ]
        }
        if home.st_uid != geteuid() {
            return [
                "Other users can write to the Moa folder \(path) (\(Self.octal(mode))), which belongs to another user: "
                    + "choose a folder of your own with --home or MOA_HOME."
            ]
        }
        guard chmod(path, mode_t(0o700)) == 0 else {
            return [
                "Other users can write to the Moa folder \(path) (\(Self.octal(mode))), and it could not be made owner-only: "
                    + "\(String(cString: strerror(errno)))."
            ]
        }
        return ["The Moa folder \(path) was writable by other users (\(Self.octal(mode))): it is now owner-only (0700)."]
    }

    /// The home's permission bits (e.g. `0o700`), or `nil` if it cannot be read.
    public func rootMode() -> Int? {
        Self.status(root.path).map { Int($0.st_mode) & 0o7777 }
    }

    /// `stat(2)` of `path` (following a symbolic link, as opening it does), or `nil` if it cannot be read.
    private static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// `0755`, `1777`: permission bits as `chmod` takes them.
    public static func octal(_ mode: Int) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
