import DesignSystem
import Foundation
import Logging

/// `moa`'s log lines (warnings, and every level with `--verbose`) on standard error, through the
/// same terminal-safe filter as everything else `moa` shows: a log line can carry text from the
/// network or the database — a server's sentence, a catalogue's title, a file name — and none of
/// it reaches the terminal raw. One line per event: time, level, label, message, then the metadata
/// as `key=value`, each line's own newlines shown as `\n` so that a value cannot start a line.
struct TerminalLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level
    private let label: String
    private let output: any TextOutput

    init(label: String, level: Logger.Level, output: any TextOutput = StreamOutput.standardError) {
        self.label = label
        self.logLevel = level
        self.output = TerminalSafeOutput(output, keepsStyle: false)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadataProvider?.get() ?? [:]
        fields.merge(metadata) { _, new in new }
        fields.merge(event.metadata ?? [:]) { _, new in new }
        let time = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let rest = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let line = "\(time) \(event.level) \(label): \(event.message)\(rest)"
        output.write(line.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n") + "\n")
    }
}
