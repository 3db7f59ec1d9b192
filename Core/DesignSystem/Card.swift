/// A titled box around lines of text, sized by display width.
///
/// ```
/// ┌─ 생활비 통장 ──────┐
/// │ Balance  10,000 KRW │
/// └─────────────────────┘
/// ```
/// The title sits in the top border (bold when colour is on); an empty title gives a plain border.
/// With ``Theme/glyphs`` set to ``Glyphs/ascii`` the box is drawn with `+-|`.
public struct Card: Sendable {
    public var title: String
    /// The body; a line containing `\n` is split into several lines.
    public var lines: [String]
    /// The widest the whole card (borders included) may be; longer lines are cut with "…".
    public var maxWidth: Int?

    public init(title: String = "", lines: [String], maxWidth: Int? = nil) {
        self.title = title
        self.lines = lines
        self.maxWidth = maxWidth
    }

    /// The card as lines joined by `\n` (no trailing newline).
    public func render(theme: Theme = .plain) -> String {
        let glyphs = theme.glyphs
        let padding = Spacing.cardPadding
        let body = lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        let widestLine = body.reduce(0) { max($0, $1.displayWidth) }
        let titleWidth = title.displayWidth
        // Inside the vertical borders. A title needs "─ " + title + " " + at least one "─".
        var inner = max(widestLine + 2 * padding, title.isEmpty ? 0 : titleWidth + 4)
        if let maxWidth { inner = max(2 * padding + 1, min(inner, maxWidth - 2)) }
        let contentWidth = inner - 2 * padding

        let horizontal = { (count: Int) in String(repeating: glyphs.horizontal, count: max(0, count)) }
        var top = glyphs.topLeft + horizontal(inner) + glyphs.topRight
        if !title.isEmpty, inner - 4 >= 1 {
            let shown = title.truncated(toDisplayWidth: inner - 4, ellipsis: glyphs.ellipsis)
            top =
                glyphs.topLeft + horizontal(1) + " " + theme.paint(shown, .heading) + " "
                + horizontal(inner - 3 - shown.displayWidth) + glyphs.topRight
        }
        var result = [top]
        let side = TextWidth.spaces(padding)
        for line in body {
            let content = line.fitted(toDisplayWidth: contentWidth, ellipsis: glyphs.ellipsis)
            result.append(glyphs.vertical + side + content + side + glyphs.vertical)
        }
        result.append(glyphs.bottomLeft + horizontal(inner) + glyphs.bottomRight)
        return result.joined(separator: "\n")
    }
}
