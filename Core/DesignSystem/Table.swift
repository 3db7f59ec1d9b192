/// A table: a header, a rule under it, and rows aligned by display width (Hangul and CJK count 2).
///
/// ```
/// Account  Owner   Balance
/// ───────  ──────  ───────
/// 생활비   홍길동   10,000
/// ```
/// Columns are padded to the same width (the last one only when right-aligned: no trailing blanks). Cells may already contain ANSI styling (e.g. a
/// rendered ``AmountText``): escape sequences do not count toward the width. Line breaks and tabs
/// in cells become spaces. With no rows, only ``emptyMessage`` is rendered (muted).
public struct Table: Sendable {
    /// A column: its title, how its cells align, and an optional maximum width (cut with "…").
    public struct Column: Sendable, Equatable {
        public var title: String
        public var alignment: TextAlignment
        public var maxWidth: Int?

        public init(_ title: String, alignment: TextAlignment = .left, maxWidth: Int? = nil) {
            self.title = title
            self.alignment = alignment
            self.maxWidth = maxWidth
        }
    }

    public var columns: [Column]
    /// Rows of cells; missing cells are blank, extra cells are ignored.
    public var rows: [[String]]
    /// The line shown instead of the table when there are no rows.
    public var emptyMessage: String

    public init(columns: [Column], rows: [[String]] = [], emptyMessage: String = "Nothing to show.") {
        self.columns = columns
        self.rows = rows
        self.emptyMessage = emptyMessage
    }

    /// Appends a row.
    public mutating func append(_ row: [String]) { rows.append(row) }

    /// The table as lines joined by `\n` (no trailing newline).
    public func render(theme: Theme = .plain) -> String {
        guard !rows.isEmpty, !columns.isEmpty else { return theme.paint(emptyMessage, .muted) }
        let cells = rows.map { row in
            columns.indices.map { index in index < row.count ? Self.singleLine(row[index]) : "" }
        }
        let widths = columns.indices.map { index -> Int in
            let natural = cells.reduce(columns[index].title.displayWidth) { max($0, $1[index].displayWidth) }
            guard let limit = columns[index].maxWidth else { return natural }
            return min(natural, max(1, limit))
        }
        let gap = TextWidth.spaces(Spacing.columnGap)
        let ellipsis = theme.glyphs.ellipsis

        var lines: [String] = []
        lines.append(
            columns.indices.map { index in
                let column = columns[index]
                let title = column.title.truncated(toDisplayWidth: widths[index], ellipsis: ellipsis)
                return theme.paint(title, .heading).padded(toDisplayWidth: widths[index], alignment: column.alignment)
            }.joined(separator: gap))
        lines.append(
            widths.map { theme.paint(String(repeating: theme.glyphs.horizontal, count: $0), .muted) }
                .joined(separator: gap))
        for row in cells {
            lines.append(
                columns.indices.map { index in
                    row[index].fitted(toDisplayWidth: widths[index], alignment: columns[index].alignment, ellipsis: ellipsis)
                }.joined(separator: gap))
        }
        // No trailing blanks: a left-aligned last column is not padded (copy-paste and diffs stay clean).
        return lines.map(Self.droppingTrailingSpaces).joined(separator: "\n")
    }

    private static func droppingTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }

    private static func singleLine(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" }) else { return cell }
        return String(cell.map { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
    }
}
