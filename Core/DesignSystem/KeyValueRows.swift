/// Aligned `key  value` lines, keys padded to the widest key (by display width).
///
/// ```
/// Account   생활비 통장
/// Balance   10,000 KRW
/// ```
/// Keys are muted when colour is on. A value with line breaks continues under the value column.
public struct KeyValueRows: Sendable {
    /// One `key  value` line.
    public struct Row: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public var rows: [Row]
    /// Columns of indentation before every line.
    public var indent: Int

    public init(_ rows: [Row], indent: Int = 0) {
        self.rows = rows
        self.indent = indent
    }

    /// Rows from a literal: `KeyValueRows(["Owner": "홍길동", "Balance": "10,000 KRW"])`, in order.
    public init(_ pairs: KeyValuePairs<String, String>, indent: Int = 0) {
        self.init(pairs.map { Row($0.key, $0.value) }, indent: indent)
    }

    /// The rows as lines joined by `\n` (no trailing newline, no trailing spaces).
    public func render(theme: Theme = .plain) -> String {
        let keyWidth = rows.reduce(0) { max($0, $1.key.displayWidth) }
        let lead = TextWidth.spaces(indent)
        let continuation = TextWidth.spaces(indent + keyWidth + Spacing.columnGap)
        var lines: [String] = []
        for row in rows {
            let key = theme.paint(row.key, .muted)
            let valueLines = row.value.split(separator: "\n", omittingEmptySubsequences: false)
            guard let first = valueLines.first, !row.value.isEmpty else {
                lines.append(lead + key)
                continue
            }
            let gap = TextWidth.spaces(keyWidth - row.key.displayWidth + Spacing.columnGap)
            lines.append(lead + key + gap + first)
            lines += valueLines.dropFirst().map { continuation + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
