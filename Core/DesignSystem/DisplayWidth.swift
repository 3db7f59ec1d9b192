/// The number of terminal columns `s` occupies.
///
/// - East Asian Wide and Fullwidth characters count 2: Hangul syllables and leading jamo, CJK
///   ideographs, Hiragana, Katakana, CJK symbols and punctuation, fullwidth forms, and the common
///   emoji ranges (an emoji sequence — ZWJ family, flag, keycap, `U+FE0F` presentation — counts 2).
/// - Combining marks, format and zero-width characters, Hangul medial vowels / final consonants
///   and control characters count 0; ANSI escape sequences count 0.
/// - Everything else, including East Asian *Ambiguous* characters (`…`, box drawing, `█`), counts 1.
///
/// Width is computed per grapheme cluster (a `Character`), as the widest of its scalars.
public func displayWidth(_ s: String) -> Int {
    TextWidth.width(of: s)
}

/// How text is placed inside a wider field.
public enum TextAlignment: Sendable, Equatable {
    case left
    case right
    case center
}

extension StringProtocol {
    /// The number of terminal columns the text occupies (see ``displayWidth(_:)``).
    public var displayWidth: Int { TextWidth.width(of: String(self)) }
}

extension String {
    /// The string without ANSI escape sequences.
    public var strippingANSI: String { TextWidth.strippingANSI(self) }

    /// The string cut to at most `width` columns, ending in `ellipsis` when it was cut.
    ///
    /// Never splits a wide character: the result may be one column narrower than `width`.
    /// ANSI sequences are kept; if the string was cut after one, a reset is added before the ellipsis.
    public func truncated(toDisplayWidth width: Int, ellipsis: String = "…") -> String {
        TextWidth.truncate(self, toWidth: width, ellipsis: ellipsis)
    }

    /// The string padded with spaces to `width` columns (unchanged when already as wide or wider).
    public func padded(toDisplayWidth width: Int, alignment: TextAlignment = .left) -> String {
        TextWidth.pad(self, toWidth: width, alignment: alignment)
    }

    /// The string truncated and then padded to exactly `width` columns.
    public func fitted(toDisplayWidth width: Int, alignment: TextAlignment = .left, ellipsis: String = "…") -> String {
        TextWidth.pad(TextWidth.truncate(self, toWidth: width, ellipsis: ellipsis), toWidth: width, alignment: alignment)
    }
}

/// The implementation behind ``displayWidth(_:)`` and the `String` helpers.
enum TextWidth {
    enum Segment: Equatable {
        case text(String)
        case escape(String)
    }

    static func width(of s: String) -> Int {
        var total = 0
        for segment in segments(s) {
            guard case .text(let text) = segment else { continue }
            for character in text { total += width(of: character) }
        }
        return total
    }

    static func strippingANSI(_ s: String) -> String {
        var result = ""
        for segment in segments(s) {
            if case .text(let text) = segment { result += text }
        }
        return result
    }

    static func truncate(_ s: String, toWidth maxWidth: Int, ellipsis: String) -> String {
        guard maxWidth > 0 else { return "" }
        guard width(of: s) > maxWidth else { return s }
        let ellipsisWidth = width(of: ellipsis)
        guard ellipsisWidth <= maxWidth else { return truncate(s, toWidth: maxWidth, ellipsis: "") }
        let budget = maxWidth - ellipsisWidth
        var result = ""
        var used = 0
        var sawEscape = false
        cutting: for segment in segments(s) {
            switch segment {
            case .escape(let sequence):
                result += sequence
                sawEscape = true
            case .text(let text):
                for character in text {
                    let w = width(of: character)
                    if used + w > budget { break cutting }
                    result.append(character)
                    used += w
                }
            }
        }
        if sawEscape { result += ANSI.reset }
        return result + ellipsis
    }

    static func pad(_ s: String, toWidth target: Int, alignment: TextAlignment) -> String {
        let missing = target - width(of: s)
        guard missing > 0 else { return s }
        switch alignment {
        case .left: return s + spaces(missing)
        case .right: return spaces(missing) + s
        case .center: return spaces(missing / 2) + s + spaces(missing - missing / 2)
        }
    }

    static func spaces(_ count: Int) -> String { String(repeating: " ", count: max(0, count)) }

    // MARK: ANSI escape sequences

    /// Splits `s` into plain text and ANSI escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL`
    /// or `ESC ] … ESC \`, and two-character `ESC x`).
    static func segments(_ s: String) -> [Segment] {
        guard s.unicodeScalars.contains(ANSI.escape) else { return [.text(s)] }
        let scalars = Array(s.unicodeScalars)
        var result: [Segment] = []
        var text = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            // The theme's own sequences start with its signature (zero width, part of the sequence).
            let signed = ANSI.signature(in: scalars, at: index)
            let escape = signed ? index + ANSI.signatureScalars.count : index
            guard escape < scalars.count, scalars[escape] == ANSI.escape else {
                text.append(scalars[index])
                index += 1
                continue
            }
            if !text.isEmpty {
                result.append(.text(String(text)))
                text = String.UnicodeScalarView()
            }
            let end = escapeEnd(scalars, start: escape)
            result.append(.escape(String(String.UnicodeScalarView(scalars[index..<end]))))
            index = end
        }
        if !text.isEmpty { result.append(.text(String(text))) }
        return result
    }

    /// The index just after the escape sequence that starts at `start`.
    private static func escapeEnd(_ scalars: [Unicode.Scalar], start: Int) -> Int {
        var index = start + 1
        guard index < scalars.count else { return index }
        switch scalars[index] {
        case "[":
            index += 1
            while index < scalars.count {
                let value = scalars[index].value
                index += 1
                if (0x40...0x7E).contains(value) { return index }
            }
            return index
        case "]":
            index += 1
            while index < scalars.count {
                if scalars[index] == "\u{07}" { return index + 1 }
                if scalars[index] == ANSI.escape, index + 1 < scalars.count, scalars[index + 1] == "\\" {
                    return index + 2
                }
                index += 1
            }
            return index
        default:
            return index + 1
        }
    }

    // MARK: Character and scalar widths

    static func width(of character: Character) -> Int {
        var widest = 0
        var emojiPresentation = false
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F { emojiPresentation = true }
            widest = max(widest, width(of: scalar))
        }
        return emojiPresentation && widest > 0 ? 2 : widest
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        if isZeroWidth(scalar) { return 0 }
        return isWide(value) ? 2 : 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        // Hangul Jungseong/Jongseong: they join the preceding leading consonant.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// East Asian Wide / Fullwidth ranges and the common emoji blocks, sorted, non-overlapping.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, // Hangul Jamo leading consonants
        0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693,
        0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE,
        0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA,
        0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728, 0x274C...0x274C,
        0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797, 0x27B0...0x27B0,
        0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, // CJK radicals, Kangxi, CJK symbols and punctuation
        0x3041...0x33FF, // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, CJK compatibility
        0x3400...0x4DBF, // CJK extension A
        0x4E00...0x9FFF, // CJK unified ideographs
        0xA000...0xA4CF, // Yi
        0xA960...0xA97F, // Hangul Jamo extended A
        0xAC00...0xD7A3, // Hangul syllables
        0xF900...0xFAFF, // CJK compatibility ideographs
        0xFE10...0xFE19, 0xFE30...0xFE6F, // vertical, CJK compatibility and small forms
        0xFF00...0xFF60, // fullwidth forms
        0xFFE0...0xFFE6, // fullwidth signs
        0x1B000...0x1B2FF, // Kana supplement and extensions
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F1E6...0x1F1FF, // regional indicators (flags)
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,
        0x1F300...0x1F64F, // pictographs, emoticons
        0x1F680...0x1F6FF, // transport and map symbols
        0x1F7E0...0x1F7EB, // coloured circles and squares
        0x1F90C...0x1F9FF, // supplemental symbols and pictographs
        0x1FA70...0x1FAFF, // symbols and pictographs extended A
        0x20000...0x2FFFD, 0x30000...0x3FFFD, // CJK extensions B and later
    ]
}
