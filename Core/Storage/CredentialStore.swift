import Foundation
import Registry
import SharedKit

// Where moa keeps secrets (the search token, the archive API key, the session's tokens): the
// system's credential store when there is one — the Keychain on macOS, the Secret Service
// (GNOME Keyring, KWallet) on Linux — and owner-only files of the home when there is none.

/// Which kind of store holds the secrets.
public enum CredentialBackend: String, Sendable, Codable, CaseIterable {
    /// The macOS Keychain.
    case keychain
    /// The freedesktop.org Secret Service (GNOME Keyring, KWallet), through libsecret's `secret-tool`.
    case secretService = "secret-service"
    /// Owner-only files in the home: the settings database and `session.json`, as before a store existed.
    case files

    /// Whether this is the system's store (not the home's files).
    public var isSystem: Bool { self != .files }
}

/// The name of one secret in the store: lower-case ASCII letters, digits, `.`, `-` and `_`, at most
/// 120 characters (`search.github-token`, `settings.device.archive.api-key`).
public struct CredentialName: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// `nil` when `text` is empty, too long or holds anything but the allowed characters.
    public init?(_ text: String) {
        guard (1...120).contains(text.utf8.count),
            text.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x5F })
        else { return nil }
        rawValue = text
    }

    public var description: String { rawValue }
}

/// The store could not be used: one sentence, never the secret.
public struct CredentialStoreError: UserFacingError, Equatable {
    public let message: String
    public let hint: String?
    public let exitStatus: ExitStatus

    public init(_ message: String, hint: String? = nil, exitStatus: ExitStatus = .unavailable) {
        self.message = message
        self.hint = hint
        self.exitStatus = exitStatus
    }
}

/// Keeps secrets by name, for one home.
public protocol CredentialStore: Sendable {
    var backend: CredentialBackend { get }
    /// Where the secrets are, for `moa doctor` and `moa search status`: "the Secret Service (secret-tool)".
    var location: String { get }
    /// The secret called `name`, `nil` when there is none.
    func secret(_ name: CredentialName) throws(CredentialStoreError) -> String?
    /// Keeps `secret` as `name`, replacing what was there.
    func store(_ secret: String, as name: CredentialName) throws(CredentialStoreError)
    /// Forgets `name`; nothing to forget is fine.
    func remove(_ name: CredentialName) throws(CredentialStoreError)
}

/// The home's credential store (`MOA_CREDENTIAL_STORE` chooses; see ``CredentialStores/select(home:environment:)``).
public enum CredentialStoreKey: ServiceKey {
    public typealias Service = any CredentialStore
    public static var expectedProvider: String { "App" }
}

/// Chooses the store of a home.
public enum CredentialStores {
    /// The environment variable that chooses: `auto` (the default: the system's store when it
    /// answers, else files), `system` (the system's store or an error) or `files`.
    public static let variable = "MOA_CREDENTIAL_STORE"

    /// The store for `home`, by `MOA_CREDENTIAL_STORE`: the Keychain on macOS, the Secret Service on
    /// Linux when `secret-tool` is installed and a session bus answers — with a secret still in the
    /// home's files moved into it on first use — else the home's owner-only files.
    ///
    /// - Throws: `MOA_CREDENTIAL_STORE` names no choice (78), or is `system` and there is no system store (69).
    /// The machine is asked (a Keychain, or a Secret Service on the session bus) on first use, not
    /// before: a command that touches no secret pays nothing for it.
    ///
    /// - Throws: `MOA_CREDENTIAL_STORE` names no choice (78). With `system` and no system store, each
    ///   use of the store fails (69).
    public static func select(home: MoaHome, environment: [String: String]) throws(CredentialStoreError) -> any CredentialStore {
        let choice = environment[variable]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        let files = FileCredentialStore(home: home)
        switch choice {
        case "", "auto": return LazyCredentialStore(files: files, required: false) { system(home: home, environment: environment) }
        case "files", "file": return files
        case "system": return LazyCredentialStore(files: files, required: true) { system(home: home, environment: environment) }
        default:
            throw CredentialStoreError(
                "\(variable) must be auto, system or files.", hint: "Leave it unset to use the system's store when there is one.",
                exitStatus: .configuration)
        }
    }

    /// What to do to have a system store, one sentence.
    public static var systemHint: String {
        #if canImport(Security)
            "The login Keychain must be unlocked."
        #else
            "Install libsecret-tools and a Secret Service (gnome-keyring) and run moa in a D-Bus session, or set \(variable)=files."
        #endif
    }

    private static func system(home: MoaHome, environment: [String: String]) -> (any CredentialStore)? {
        #if canImport(Security)
            return KeychainCredentialStore(home: home)
        #else
            // No session bus, no Secret Service: nothing to ask (and no process started to find out).
            guard environment["DBUS_SESSION_BUS_ADDRESS"]?.isEmpty == false,
                let tool = SecretServiceCredentialStore.findTool(environment: environment)
            else { return nil }
            let store = SecretServiceCredentialStore(home: home, tool: tool, environment: environment)
            return store.answers() ? store : nil
        #endif
    }
}

/// The system's store when the machine has one — asked on first use — else the home's files.
public final class LazyCredentialStore: CredentialStore {
    private let files: FileCredentialStore
    private let required: Bool
    private let probe: @Sendable () -> (any CredentialStore)?
    private let chosen = Locked<(any CredentialStore)??>(nil)

    /// - Parameters:
    ///   - required: with no system store, fail (`MOA_CREDENTIAL_STORE=system`) instead of using the files.
    ///   - probe: the system's store, if one answers.
    public init(files: FileCredentialStore, required: Bool, probe: @escaping @Sendable () -> (any CredentialStore)?) {
        self.files = files
        self.required = required
        self.probe = probe
    }

    /// The store in use: the system's (taking in what the files still hold), else the files (`nil`
    /// when the system's is required and absent).
    private var store: (any CredentialStore)? {
        chosen.withLock { chosen in
            if let made = chosen { return made }
            let made: (any CredentialStore)? =
                if let system = probe() { MovingCredentialStore(system: system, files: files) } else { required ? nil : files }
            chosen = .some(made)
            return made
        }
    }

    private func using() throws(CredentialStoreError) -> any CredentialStore {
        guard let store else {
            throw CredentialStoreError(
                "\(CredentialStores.variable)=system, but this machine has no credential store that answers.",
                hint: CredentialStores.systemHint, exitStatus: .unavailable)
        }
        return store
    }

    public var backend: CredentialBackend { store?.backend ?? .files }
    public var location: String { store?.location ?? "no store: \(CredentialStores.variable)=system and none answers" }
    public func secret(_ name: CredentialName) throws(CredentialStoreError) -> String? { try using().secret(name) }
    public func store(_ secret: String, as name: CredentialName) throws(CredentialStoreError) { try using().store(secret, as: name) }
    public func remove(_ name: CredentialName) throws(CredentialStoreError) { try using().remove(name) }
}

// MARK: - Files of the home

/// Owner-only files, one per secret, in `$MOA_HOME/secrets` (0700): where secrets go when the
/// machine has no credential store. A file other users can read is refused, not read.
public struct FileCredentialStore: CredentialStore {
    public let home: MoaHome

    public init(home: MoaHome) {
        self.home = home
    }

    public var backend: CredentialBackend { .files }
    public var location: String { "owner-only files in \(home.secretsURL.path)" }

    private func url(_ name: CredentialName) -> URL { home.secretsURL.appendingPathComponent(name.rawValue) }

    public func secret(_ name: CredentialName) throws(CredentialStoreError) -> String? {
        let path = url(name).path
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw CredentialStoreError("The secret file \(path) cannot be read: \(String(cString: strerror(errno))).", exitStatus: .ioError)
        }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            throw CredentialStoreError("The secret file \(path) is not a regular file.", exitStatus: .ioError)
        }
        guard info.st_mode & 0o077 == 0 else {
            throw CredentialStoreError(
                "The secret file \(path) can be read by other users, so moa does not trust it.",
                hint: "Remove it and give the secret again (run `moa doctor` for the home's permissions).", exitStatus: .configuration)
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count <= 65_536 {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw CredentialStoreError(
                    "The secret file \(path) cannot be read: \(String(cString: strerror(errno))).", exitStatus: .ioError)
            }
            data.append(contentsOf: buffer[..<count])
        }
        guard let text = String(data: data, encoding: .utf8), !text.isEmpty else { return nil }
        return text
    }

    public func store(_ secret: String, as name: CredentialName) throws(CredentialStoreError) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.ensureFolder(home.secretsURL)
            try AtomicFile.save(Data(secret.utf8), to: url(name), mode: 0o600)
        } catch {
            throw CredentialStoreError("The secret file \(url(name).path) cannot be written: \(error.reason).", exitStatus: .ioError)
        }
    }

    public func remove(_ name: CredentialName) throws(CredentialStoreError) {
        guard unlink(url(name).path) == 0 || errno == ENOENT else {
            throw CredentialStoreError(
                "The secret file \(url(name).path) cannot be removed: \(String(cString: strerror(errno))).", exitStatus: .ioError)
        }
    }
}

/// The system's store, into which a secret still in the home's files moves on first use: read
/// from the system's store, else from the file — then kept in the system's store and the file
/// removed. What is written goes to the system's store only, and removes any file copy.
public struct MovingCredentialStore: CredentialStore {
    public let system: any CredentialStore
    public let files: any CredentialStore

    public init(system: any CredentialStore, files: any CredentialStore) {
        self.system = system
        self.files = files
    }

    public var backend: CredentialBackend { system.backend }
    public var location: String { system.location }

    public func secret(_ name: CredentialName) throws(CredentialStoreError) -> String? {
        if let secret = try system.secret(name) { return secret }
        guard let secret = try files.secret(name) else { return nil }
        try system.store(secret, as: name)
        try files.remove(name)
        return secret
    }

    public func store(_ secret: String, as name: CredentialName) throws(CredentialStoreError) {
        try system.store(secret, as: name)
        try files.remove(name)
    }

    public func remove(_ name: CredentialName) throws(CredentialStoreError) {
        try system.remove(name)
        try files.remove(name)
    }
}

// MARK: - The Secret Service (Linux)

/// The Secret Service through `secret-tool` (libsecret-tools): each secret is an item with the
/// attributes `application=moa`, `home=<the home's path>` and `name=<name>`, so homes never share
/// one. The secret travels on the tool's standard input and output only, never in its arguments.
public struct SecretServiceCredentialStore: CredentialStore {
    public let home: MoaHome
    public let tool: URL
    private let environment: [String: String]

    public init(home: MoaHome, tool: URL, environment: [String: String]) {
        self.home = home
        self.tool = tool
        self.environment = environment
    }

    public var backend: CredentialBackend { .secretService }
    public var location: String { "the Secret Service (secret-tool: application=moa, home=\(home.root.path))" }

    /// `secret-tool` on `PATH`, if any.
    public static func findTool(environment: [String: String]) -> URL? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("secret-tool")
            if access(candidate.path, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Whether a Secret Service answers: a lookup of nothing finds nothing without complaint.
    public func answers() -> Bool {
        guard let run = try? run(["lookup", "application", "moa", "home", home.root.path, "name", "moa-probe"], input: nil) else {
            return false
        }
        return run.status == 0 || (run.status == 1 && run.errorText.isEmpty)
    }

    private func attributes(_ name: CredentialName) -> [String] {
        ["application", "moa", "home", home.root.path, "name", name.rawValue]
    }

    public func secret(_ name: CredentialName) throws(CredentialStoreError) -> String? {
        let run = try run(["lookup"] + attributes(name), input: nil)
        if run.status == 1, run.errorText.isEmpty {
            // `lookup` says nothing both when there is no item and when the keyring holding it is
            // locked: `search --all` (which unlocks nothing) lists a locked item, so tell the two apart.
            let search = try self.run(["search", "--all"] + attributes(name), input: nil)
            if search.status == 0, !search.output.isEmpty {
                throw CredentialStoreError(
                    "The keyring that holds \(name.rawValue) is locked.",
                    hint: "Unlock it (log in to the desktop, or run seahorse), then try again.")
            }
            return nil
        }
        guard run.status == 0 else { throw failure("read", name, run) }
        guard let text = String(data: run.output, encoding: .utf8), !text.isEmpty else { return nil }
        return text
    }

    public func store(_ secret: String, as name: CredentialName) throws(CredentialStoreError) {
        let label = "moa: \(name.rawValue) (\(home.root.path))"
        let run = try run(["store", "--label=\(label)"] + attributes(name), input: Data(secret.utf8))
        guard run.status == 0 else { throw failure("keep", name, run) }
    }

    public func remove(_ name: CredentialName) throws(CredentialStoreError) {
        let run = try run(["clear"] + attributes(name), input: nil)
        // `clear` exits 1, silently, when there was nothing to clear.
        guard run.status == 0 || (run.status == 1 && run.errorText.isEmpty) else { throw failure("remove", name, run) }
    }

    private func failure(_ verb: String, _ name: CredentialName, _ run: ToolRun) -> CredentialStoreError {
        let reason = run.errorText.isEmpty ? "secret-tool exited \(run.status)" : run.errorText
        return CredentialStoreError(
            "The Secret Service could not \(verb) \(name.rawValue): \(reason).", hint: CredentialStores.systemHint)
    }

    struct ToolRun {
        let status: Int32
        let output: Data
        let error: Data

        /// The first line of the tool's complaint, printable and at most 200 characters.
        var errorText: String {
            let text = String(decoding: error, as: UTF8.self)
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            let printable = String(
                String.UnicodeScalarView(
                    line.unicodeScalars.filter { !$0.properties.isWhitespace || $0 == " " }.filter {
                        $0.properties.generalCategory != .control && $0.properties.generalCategory != .format
                    }))
            let trimmed = printable.trimmingCharacters(in: .whitespaces)
            return trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
        }
    }

    /// Runs the tool with `arguments`, `input` on its standard input, for at most 10 seconds (a
    /// keyring waiting for a prompt nobody answers must not hang moa).
    private func run(_ arguments: [String], input: Data?) throws(CredentialStoreError) -> ToolRun {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        // The tool's own debug output or a translated message must not change what moa reads.
        var environment = environment
        for noisy in ["G_MESSAGES_DEBUG", "G_DEBUG", "LANGUAGE"] { environment.removeValue(forKey: noisy) }
        environment["LC_ALL"] = "C"
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            throw CredentialStoreError(
                "secret-tool could not be started: \(error.localizedDescription).", hint: CredentialStores.systemHint)
        }
        // SIGKILL, not terminate()'s SIGTERM: a child started from a Dispatch worker inherits its
        // blocked SIGTERM, and a hung keyring must not hang moa.
        let killed = Locked(false)
        let watchdog = DispatchWorkItem { [process] in
            guard process.isRunning else { return }
            killed.withLock { $0 = true }
            kill(process.processIdentifier, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: watchdog)
        defer { watchdog.cancel() }
        if let input { stdin.fileHandleForWriting.write(input) }
        try? stdin.fileHandleForWriting.close()
        // Both pipes are read at once: a tool that fills one while moa waits on the other would stall.
        let errorData = Locked(Data())
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { [stderr] in
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        if killed.withLock({ $0 }) {
            throw CredentialStoreError("The Secret Service did not answer within 10 seconds.", hint: CredentialStores.systemHint)
        }
        return ToolRun(status: process.terminationStatus, output: output, error: errorData.withLock { $0 })
    }
}

// MARK: - The Keychain (macOS)

#if canImport(Security)
    import Security

    /// The macOS login Keychain: generic passwords of the service `moa <home path>`, one account per name.
    public struct KeychainCredentialStore: CredentialStore {
        public let home: MoaHome

        public init(home: MoaHome) {
            self.home = home
        }

        public var backend: CredentialBackend { .keychain }
        public var location: String { "the login Keychain (service “moa \(home.root.path)”)" }

        private func query(_ name: CredentialName) -> [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "moa \(home.root.path)",
                kSecAttrAccount as String: name.rawValue,
            ]
        }

        public func secret(_ name: CredentialName) throws(CredentialStoreError) -> String? {
            var query = query(name)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: AnyObject?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else { throw failure("read", name, status) }
            return String(data: data, encoding: .utf8)
        }

        public func store(_ secret: String, as name: CredentialName) throws(CredentialStoreError) {
            let data = Data(secret.utf8)
            let update = SecItemUpdate(query(name) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
            if update == errSecSuccess { return }
            guard update == errSecItemNotFound else { throw failure("keep", name, update) }
            var item = query(name)
            item[kSecValueData as String] = data
            item[kSecAttrLabel as String] = "moa: \(name.rawValue)"
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else { throw failure("keep", name, status) }
        }

        public func remove(_ name: CredentialName) throws(CredentialStoreError) {
            let status = SecItemDelete(query(name) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw failure("remove", name, status) }
        }

        private func failure(_ verb: String, _ name: CredentialName, _ status: OSStatus) -> CredentialStoreError {
            let reason = (SecCopyErrorMessageString(status, nil) as String?) ?? "status \(status)"
            return CredentialStoreError("The Keychain could not \(verb) \(name.rawValue): \(reason).", hint: CredentialStores.systemHint)
        }
    }
#endif

// MARK: - In memory (tests, Examples)

/// Secrets in memory, as if a system store held them (tests and Examples).
public final class InMemoryCredentialStore: CredentialStore {
    private let items = Locked<[CredentialName: String]>([:])
    public let backend: CredentialBackend

    public init(backend: CredentialBackend = .secretService) {
        self.backend = backend
    }

    public var location: String { "memory (a test's stand-in for the system's store)" }

    public func secret(_ name: CredentialName) throws(CredentialStoreError) -> String? { items.withLock { $0[name] } }
    public func store(_ secret: String, as name: CredentialName) throws(CredentialStoreError) { items.withLock { $0[name] = secret } }
    public func remove(_ name: CredentialName) throws(CredentialStoreError) { _ = items.withLock { $0.removeValue(forKey: name) } }

    /// Every name held, sorted.
    public var names: [String] { items.withLock { $0.keys.map(\.rawValue).sorted() } }
}
