import ArchiveDomain
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes exports atomically and owner-only: a temporary file created with mode 0600 next to the
/// destination, written, flushed, then renamed over it. A reader sees the old file or the new
/// one, never half of one; a failure leaves no temporary file behind.
public struct AtomicExportWriter: ExportWriting {
    public init() {}

    public func write(_ data: Data, to path: String) async throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ArchiveError.cannotWrite(path: path, reason: "it is a folder")
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.lowercased()).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ArchiveError.cannotWrite(path: path, reason: Self.lastError()) }
        var isOpen = true
        defer {
            if isOpen { _ = close(fd) }
        }
        do {
            guard fchmod(fd, 0o600) == 0 else { throw ArchiveError.cannotWrite(path: path, reason: Self.lastError()) }
            let failure: String? = data.withUnsafeBytes { buffer in
                guard var pointer = buffer.baseAddress else { return nil }
                var remaining = buffer.count
                while remaining > 0 {
                    let written = systemWrite(fd, pointer, remaining)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return Self.lastError()
                    }
                    remaining -= written
                    pointer += written
                }
                return nil
            }
            if let failure { throw ArchiveError.cannotWrite(path: path, reason: failure) }
            guard fsync(fd) == 0 else { throw ArchiveError.cannotWrite(path: path, reason: Self.lastError()) }
            isOpen = false
            guard close(fd) == 0 else { throw ArchiveError.cannotWrite(path: path, reason: Self.lastError()) }
            guard rename(temporary.path, url.path) == 0 else { throw ArchiveError.cannotWrite(path: path, reason: Self.lastError()) }
        } catch {
            _ = unlink(temporary.path)
            throw error
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    return Darwin.write(descriptor, pointer, count)
    #elseif canImport(Musl)
    return Musl.write(descriptor, pointer, count)
    #else
    return Glibc.write(descriptor, pointer, count)
    #endif
}
