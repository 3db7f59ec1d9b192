/// Reading what `moa` printed, for assertions on screens: cards and tables are matched line by line.
enum ScreenText {
    /// Whether one line of `text` contains every fragment.
    static func line(in text: String, containing fragments: [String]) -> Bool {
        text.components(separatedBy: "\n").contains { line in fragments.allSatisfy(line.contains) }
    }

    /// The text between two markers (to the end when `end` is missing).
    static func section(of text: String, from start: String, to end: String) -> String {
        guard let from = text.range(of: start) else { return "" }
        let rest = text[from.upperBound...]
        return String(rest[..<(rest.range(of: end)?.lowerBound ?? rest.endIndex)])
    }
}
