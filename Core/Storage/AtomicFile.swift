import Foundation

/// Owner-only files written atomically: a temporary file created with the final mode in the same
/// folder, flushed, then renamed over the destination. Readers never see a partial file.
public enum AtomicFile {
    /// Why a file operation failed, in words (the system's message; never the file's content).
    public struct Failure: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }

        public init(reason: String) {
            self.reason = reason
        }

        static func system(_ operation: String) -> Failure {
            Failure(reason: "\(operation) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `data` to `url` with `mode` (0600 by default), replacing any existing file.
    public static func save(_ data: Data, to url: URL, mode: mode_t = 0o600) throws(Failure) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.lowercased()).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .system("creating a file in \(folder.path)") }
        var closed = false
        defer {
            if !closed { _ = close(fd) }
        }
        do throws(Failure) {
            // The umask may have removed bits from `mode`; set it exactly.
            guard fchmod(fd, mode) == 0 else { throw Failure.system("setting permissions") }
            try writeAll(data, to: fd)
            guard fsync(fd) == 0 else { throw Failure.system("flushing") }
            closed = true
            guard close(fd) == 0 else { throw Failure.system("closing") }
            guard rename(temporary.path, url.path) == 0 else { throw Failure.system("renaming into place") }
        } catch {
            _ = unlink(temporary.path)
            throw error
        }
    }

    /// Creates `folder` (and its parents) with mode 0700 when it does not exist.
    public static func ensureFolder(_ folder: URL) throws(Failure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Failure(reason: "it exists but is not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(reason: (error as NSError).localizedDescription)
        }
    }

    private static func writeAll(_ data: Data, to fd: Int32) throws(Failure) {
        let failure: Failure? = data.withUnsafeBytes { buffer -> Failure? in
            guard var pointer = buffer.baseAddress else { return nil }
            var remaining = buffer.count
            while remaining > 0 {
                let written = write(fd, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return .system("writing")
                }
                remaining -= written
                pointer += written
            }
            return nil
        }
        if let failure { throw failure }
    }
}
