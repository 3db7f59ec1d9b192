import Foundation
import SharedKit

/// The rules for short text that one person stores and others read (account names, memos): it is
/// trimmed, normalised to NFC (so that the same word typed two ways is stored once), limited in
/// length, and holds no character that could change how a terminal shows it.
public enum SafeText {
    /// `text` without leading and trailing whitespace, in Unicode Normalization Form C.
    public static func normalized(_ text: String) -> String {
        text.trimmingWhitespace.precomposedStringWithCanonicalMapping
    }

    /// Whether `scalar` is refused in stored text: a C0 control (U+0000–U+001F, the line feed and tab
    /// among them), DEL (U+007F), a C1 control (U+0080–U+009F), a line or paragraph separator
    /// (U+2028, U+2029), a bidirectional formatting character that can reorder what follows
    /// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), or an invisible formatting character
    /// that makes two texts look alike (the soft hyphen U+00AD, U+180E, the zero-width space U+200B,
    /// the word joiner and invisible operators U+2060–U+2064, the deprecated U+206A–U+206F, the byte
    /// order mark U+FEFF, the annotation marks U+FFF9–U+FFFB). The zero-width joiner and non-joiner
    /// (U+200C, U+200D) stay: emoji sequences and Persian and Indic words need them.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x00AD, 0x180E, 0x200B, 0x2060...0x2064, 0x206A...0x206F, 0xFEFF, 0xFFF9...0xFFFB: true
        default: false
        }
    }

    /// The first forbidden scalar of `text`, if any.
    public static func firstForbidden(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isForbidden)
    }

    /// How a message names a refused character: "a line break (U+000A)", "U+202E".
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let code =
            "U+" + String(repeating: "0", count: max(0, 4 - String(scalar.value, radix: 16).count))
            + String(scalar.value, radix: 16, uppercase: true)
        switch scalar.value {
        case 0x0A, 0x0D, 0x2028, 0x2029: return "a line break (\(code))"
        case 0x09: return "a tab (\(code))"
        default: return code
        }
    }

    /// Checks normalised `text` against a length range (in characters) and the forbidden characters.
    public static func check(_ text: String, length: ClosedRange<Int>) -> TextProblem? {
        if let scalar = firstForbidden(in: text) { return .forbiddenCharacter(scalar) }
        let count = text.count
        if count < length.lowerBound { return .empty }
        if count > length.upperBound { return .tooLong(count) }
        return nil
    }
}

/// What is wrong with a name or a memo.
public enum TextProblem: Sendable, Hashable {
    /// Nothing is left once trimmed.
    case empty
    /// More characters than allowed (how many it has).
    case tooLong(Int)
    /// A character ``SafeText/isForbidden(_:)`` refuses (the first one).
    case forbiddenCharacter(Unicode.Scalar)
}

/// A memo on a deposit, a withdrawal or a transfer: one line of at most ``maximumLength`` characters,
/// trimmed and in NFC, without control or bidirectional formatting characters.
public struct Memo: Sendable, Hashable {
    /// The most characters a memo may have.
    public static let maximumLength = 140

    /// The memo as stored.
    public let text: String

    /// The memo a person gave, checked; `nil` when none was given or it is blank.
    /// - Throws: ``MemoError`` for a memo that is too long or holds a refused character.
    public static func parse(_ text: String?) throws(MemoError) -> Memo? {
        guard let text else { return nil }
        let normalized = SafeText.normalized(text)
        guard !normalized.isEmpty else { return nil }
        if let problem = SafeText.check(normalized, length: 1...maximumLength) { throw MemoError(problem: problem) }
        return Memo(text: normalized)
    }

    private init(text: String) {
        self.text = text
    }
}

/// Why a memo was refused: bad data, exit status 65.
public struct MemoError: Error, UserFacingError, Equatable {
    public let problem: TextProblem

    public init(problem: TextProblem) {
        self.problem = problem
    }

    public var message: String {
        switch problem {
        case .empty: "The memo is empty."
        case .tooLong(let count): "A memo has at most \(Memo.maximumLength) characters, and this one has \(count)."
        case .forbiddenCharacter(let scalar):
            "A memo is one line without control or bidirectional formatting characters, and this one has \(SafeText.describe(scalar))."
        }
    }

    public var exitStatus: ExitStatus { .dataError }
}
