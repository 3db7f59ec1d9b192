import AuthDomain
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
public struct FileSessionStore: SessionStore {
    public let url: URL

    public init(url: URL) {
        self.url = url
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
        do {
            return try Self.decoder.decode(StoredSession.self, from: data)
        } catch {
            // The decoder's own message may quote the content, which holds tokens.
            throw AuthError.sessionFileUnreadable(path: url.path, reason: "it is not a valid session file")
        }
    }

    /// Replaces the file atomically; the new file is created with mode 0600.
    public func save(_ session: StoredSession) throws {
        let data: Data
        do {
            data = try Self.encoder.encode(session)
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

    /// Removes the file; an absent file is fine.
    public func clear() throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw SessionFileError(path: url.path, reason: String(cString: strerror(errno)))
        }
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
