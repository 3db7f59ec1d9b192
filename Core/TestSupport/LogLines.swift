import Logging
import SharedKit

/// Every log line a test's logger wrote, rendered as text (level, message, metadata sorted by key):
/// `LogLines().logger(label:)` gives the logger, ``all`` and ``text`` what it wrote.
public final class LogLines: Sendable {
    private let lines = Locked<[String]>([])

    public init() {}

    public func append(_ line: String) { lines.withLock { $0.append(line) } }
    public var all: [String] { lines.withLock { $0 } }
    public var text: String { all.joined(separator: "\n") }

    /// A logger, at trace level, whose every line comes here.
    public func logger(label: String) -> Logger {
        Logger(label: label) { _ in CapturingLogHandler(sink: self) }
    }
}

/// A swift-log handler that renders each event (level, message, metadata) into ``LogLines``.
public struct CapturingLogHandler: LogHandler {
    let sink: LogLines
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(sink: LogLines) {
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        sink.append("\(event.level) \(event.message) \(rendered)")
    }
}
