/// Semantic colour tokens: components say what a piece of text *means*; the ``Theme`` decides
/// how that looks (and whether it is coloured at all).
public enum ColorToken: Sendable, CaseIterable {
    /// Money coming in: green.
    case credit
    /// Money going out: the default foreground (no colour on purpose).
    case debit
    /// Highlights, progress: cyan.
    case accent
    /// Secondary text, labels, empty states: dim.
    case muted
    /// Errors: red.
    case danger
    /// Warnings: yellow.
    case warning
    /// Success messages: green.
    case success
    /// Titles and table headers: bold.
    case heading

    /// The ANSI SGR parameters of the token (empty: default rendition).
    var sgrParameters: [Int] {
        switch self {
        case .credit, .success: return [32]
        case .debit: return []
        case .accent: return [36]
        case .muted: return [2]
        case .danger: return [31]
        case .warning: return [33]
        case .heading: return [1]
        }
    }
}

/// Text styles that can be combined with a colour token or used alone.
public struct TextStyle: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextStyle(rawValue: 1 << 0)
    public static let dim = TextStyle(rawValue: 1 << 1)
    public static let underline = TextStyle(rawValue: 1 << 2)

    /// The ANSI SGR parameters, in a fixed order.
    var sgrParameters: [Int] {
        var result: [Int] = []
        if contains(.bold) { result.append(1) }
        if contains(.dim) { result.append(2) }
        if contains(.underline) { result.append(4) }
        return result
    }
}

/// Spacing constants, in terminal columns.
public enum Spacing {
    /// Indentation of nested content.
    public static let indent = 2
    /// The gap between table columns and between a key and its value.
    public static let columnGap = 2
    /// The space between a card's border and its content, on each side.
    public static let cardPadding = 1
}

/// The characters used for rules, boxes, bars and truncation.
public struct Glyphs: Sendable, Equatable {
    public var horizontal: String
    public var vertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    public var barFilled: String
    public var barEmpty: String
    public var ellipsis: String

    /// Box-drawing characters (`┌─┐│└┘`), `█░` bars and `…`.
    public static let unicode = Glyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        barFilled: "█", barEmpty: "░", ellipsis: "…")

    /// Plain ASCII (`+-|`, `#.` bars, `...`), for terminals without Unicode.
    public static let ascii = Glyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        barFilled: "#", barEmpty: ".", ellipsis: "...")
}
