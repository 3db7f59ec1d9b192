import ArchiveDomain
import Foundation
import Storage

/// Writes exports atomically and owner-only (Storage's ``AtomicFile``): a reader sees the old file
/// or the new one, never half of one; a failure leaves no temporary file behind.
public struct AtomicExportWriter: ExportWriting {
    public init() {}

    public func write(_ data: Data, to path: String) async throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ArchiveError.cannotWrite(path: path, reason: "it is a folder")
        }
        do {
            try AtomicFile.save(data, to: URL(fileURLWithPath: path), mode: 0o600)
        } catch {
            throw ArchiveError.cannotWrite(path: path, reason: error.reason)
        }
    }
}
