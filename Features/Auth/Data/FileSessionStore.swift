import AuthDomain
import AuthInterface
import Foundation
import SharedKit
import Storage

/// The session file could not be written or removed.
public struct SessionFileError: UserFacingError, Equatable {
    public let path: String
    public let reason: String

    public var message: String { "Cannot update the session file \(path): \(reason)." }
    public var hint: String? { "Check the permissions of its folder, or choose another home with --home or MOA_HOME." }
    public var exitStatus: ExitStatus { .ioError }
}

/// ``SessionStore`` in one JSON file (ISO 8601 dates), readable and writable by its owner only.
///
/// With a system credential store (the Keychain, the Secret Service), the two tokens are kept there
/// (the item `session.tokens`) and the file holds the rest: who, until when, which server. Tokens
/// found in the file are moved into the store on the next load. A file whose tokens the store no
/// longer has is no session.
public struct FileSessionStore: SessionStore {
    public let url: URL
    private let credentials: (any CredentialStore)?

    /// - Parameter credentials: where the tokens go when it is the system's store; `nil` or the
    ///   home's files: in the session file, as before.
    public init(url: URL, credentials: (any CredentialStore)? = nil) {
        self.url = url
        self.credentials = credentials
    }

    static let tokensName = CredentialName("session.tokens")

    /// The system's store, when there is one.
    private var system: (any CredentialStore)? {
        guard let credentials, credentials.backend.isSystem else { return nil }
        return credentials
    }

    /// What the session file holds: a ``StoredSession`` (same keys), with the tokens left out when
    /// they are in the credential store (`tokens` says so).
    struct SessionFile: Codable {
        let userID: UserID
        let email: String
        var accessToken: String?
        var refreshToken: String?
        let accessExpiresAt: Date
        let refreshExpiresAt: Date
        let server: String?
        /// `credential-store` when the tokens are there.
        var tokens: String?
    }

    struct Tokens: Codable {
        let access: String
        let refresh: String
    }

    /// The stored session, `nil` if there is none; refuses a file that grants any group or other permission.
    public func load() throws -> StoredSession? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw AuthError.sessionFileUnreadable(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw AuthError.sessionFileUnreadable(path: url.path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            throw AuthError.sessionFileUnreadable(path: url.path, reason: "it is not a regular file")
        }
        guard info.st_mode & 0o077 == 0 else { throw AuthError.sessionFileExposed(path: url.path) }
        let data = try readAll(fd)
        let file: SessionFile
        do {
            file = try Self.decoder.decode(SessionFile.self, from: data)
        } catch {
            // The decoder's own message may quote the content, which holds tokens.
            throw AuthError.sessionFileUnreadable(path: url.path, reason: "it is not a valid session file")
        }
        let access: String
        let refresh: String
        if let accessToken = file.accessToken, let refreshToken = file.refreshToken {
            (access, refresh) = (accessToken, refreshToken)
        } else if file.tokens != nil {
            guard let system, let name = Self.tokensName, let text = try system.secret(name),
                let tokens = try? JSONDecoder().decode(Tokens.self, from: Data(text.utf8))
            else { return nil }
            (access, refresh) = (tokens.access, tokens.refresh)
        } else {
            throw AuthError.sessionFileUnreadable(path: url.path, reason: "it is not a valid session file")
        }
        let session = StoredSession(
            userID: file.userID, email: file.email, accessToken: access, refreshToken: refresh, accessExpiresAt: file.accessExpiresAt,
            refreshExpiresAt: file.refreshExpiresAt, server: file.server)
        // Tokens still in the file move into the system's store.
        if system != nil, file.tokens == nil { try save(session) }
        return session
    }

    /// Replaces the file atomically; the new file is created with mode 0600.
    public func save(_ session: StoredSession) throws {
        var file = SessionFile(
            userID: session.userID, email: session.email, accessToken: session.accessToken, refreshToken: session.refreshToken,
            accessExpiresAt: session.accessExpiresAt, refreshExpiresAt: session.refreshExpiresAt, server: session.server)
        if let system, let name = Self.tokensName {
            let tokens = try JSONEncoder().encode(Tokens(access: session.accessToken, refresh: session.refreshToken))
            try system.store(String(decoding: tokens, as: UTF8.self), as: name)
            (file.accessToken, file.refreshToken, file.tokens) = (nil, nil, "credential-store")
        }
        let data: Data
        do {
            data = try Self.encoder.encode(file)
        } catch {
            throw SessionFileError(path: url.path, reason: "the session could not be encoded")
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.ensureFolder(url.deletingLastPathComponent())
            try AtomicFile.save(data, to: url, mode: 0o600)
        } catch {
            throw SessionFileError(path: url.path, reason: error.reason)
        }
    }

    /// An exclusive `flock` on `session.json.lock` next to the file (created owner-only), held until
    /// `unlock`; the kernel releases it if the process dies.
    public func lockForRefresh() throws -> any SessionRefreshLock {
        let path = url.path + ".lock"
        do throws(AtomicFile.Failure) {
            try AtomicFile.ensureFolder(url.deletingLastPathComponent())
        } catch {
            throw SessionFileError(path: path, reason: error.reason)
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SessionFileError(path: path, reason: String(cString: strerror(errno))) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                _ = close(fd)
                throw SessionFileError(path: path, reason: reason)
            }
        }
        return FileLock(fd: fd)
    }

    /// An open, locked lock file; closing it releases the lock.
    private struct FileLock: SessionRefreshLock {
        let fd: Int32
        func unlock() { _ = close(fd) }
    }

    /// Removes the file, and the tokens from the system's store; an absent file is fine.
    public func clear() throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw SessionFileError(path: url.path, reason: String(cString: strerror(errno)))
        }
        if let system, let name = Self.tokensName { try system.remove(name) }
    }

    // MARK: Helpers

    private func readAll(_ fd: Int32) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw AuthError.sessionFileUnreadable(path: url.path, reason: String(cString: strerror(errno)))
            }
            data.append(contentsOf: buffer[..<count])
        }
    }

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(dateStyle))
        }
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = (try? dateStyle.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "The date is not in ISO 8601 format.")
        }
        return decoder
    }
}
