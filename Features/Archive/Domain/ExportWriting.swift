import Foundation
import Registry

/// Writes exports to disk.
public protocol ExportWriting: Sendable {
    /// Writes `data` to `path` atomically (readers never see half a file), readable by its owner only.
    func write(_ data: Data, to path: String) async throws
}

public enum ExportWriterKey: ServiceKey { public typealias Service = any ExportWriting }
