import ArchiveInterface
import Foundation
import SharedKit

/// The stable id of an event: FNV-1a (64 bit) of its natural key, as 16 lowercase hex digits.
///
/// Why FNV-1a here rather than SHA-256 in the Data layer: the id is a domain rule (the same event
/// must get the same id from a file, the live API, a test or a fake), so it lives in the pure
/// Domain, which may not use a crypto package; nothing about it is secret or adversarial; and 16
/// hex digits stay short enough to type in `moa archive add ID`. At 100,000 events the chance of
/// any two keys colliding in 64 bits is about 3 × 10⁻¹⁰, and a collision is still detected (the
/// natural key is stored next to the id) and reported as a skipped row, never merged.
public enum EventIdentity {
    /// The normalised `title · place · start date` key.
    public static func naturalKey(title: String, place: String, startsOn: Day) -> String {
        naturalKey(cleanTitle: EventNormalizer.clean(title), cleanPlace: EventNormalizer.clean(place), startsOn: startsOn)
    }

    /// The key of already cleaned text (``EventNormalizer/clean(_:)``).
    static func naturalKey(cleanTitle: String, cleanPlace: String, startsOn: Day) -> String {
        cleanTitle.lowercased() + "\u{1F}" + cleanPlace.lowercased() + "\u{1F}" + startsOn.description
    }

    public static func id(forKey key: String) -> EventID {
        EventID(hex(fnv1a64(key)))
    }

    public static func id(title: String, place: String, startsOn: Day) -> EventID {
        id(forKey: naturalKey(title: title, place: place, startsOn: startsOn))
    }

    /// FNV-1a, 64 bit, over the UTF-8 bytes.
    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Turns a published row into a catalogue event, or says why it cannot be one.
public enum EventNormalizer {
    public static func normalize(_ raw: RawEvent) -> Result<CatalogueEntry, SkipReason> {
        let title = clean(raw.title)
        guard !title.isEmpty else { return .failure(.noTitle) }
        let dateParts = (raw.date ?? "").split(separator: "~", maxSplits: 1).map { String($0) }
        let startText = nonEmpty(raw.startDate) ?? dateParts.first.flatMap(nonEmpty)
        guard let startText else { return .failure(.noStartDate) }
        guard let start = day(startText) else { return .failure(.invalidStartDate(startText)) }
        let end: Day
        if let endText = nonEmpty(raw.endDate) ?? (dateParts.count > 1 ? nonEmpty(dateParts[1]) : nil) {
            guard let parsed = day(endText) else { return .failure(.invalidEndDate(endText)) }
            end = parsed
        } else {
            end = start
        }
        guard end >= start else { return .failure(.endBeforeStart(start: start, end: end)) }
        let place = clean(raw.place)
        let fee = clean(raw.fee)
        let key = EventIdentity.naturalKey(cleanTitle: title, cleanPlace: place, startsOn: start)
        let event = CulturalEvent(
            id: EventIdentity.id(forKey: key), title: title, category: clean(raw.category), district: clean(raw.district), place: place,
            audience: clean(raw.audience), fee: fee, isFree: isFree(flag: clean(raw.isFree), fee: fee), startsOn: start, endsOn: end,
            organization: clean(raw.organization), link: url(raw.link) ?? url(raw.homepage), imageURL: url(raw.image))
        return .success(CatalogueEntry(event: event, naturalKey: key))
    }

    /// A date as the catalogue writes it: `2025-05-01 00:00:00.0`, `2025-05-01`, `2025.05.01` or `20250501`.
    public static func day(_ text: String) -> Day? {
        if let day = Day(text) { return day } // the usual `2025-05-01 00:00:00.0`
        let trimmed = trim(text)
        let characters = Array(trimmed.prefix(9))
        if characters.count >= 8, characters[0..<8].allSatisfy(\.isASCIIDigit), characters.count == 8 || !characters[8].isASCIIDigit {
            return Day(
                year: Int(String(characters[0..<4])) ?? 0, month: Int(String(characters[4..<6])) ?? 0,
                day: Int(String(characters[6..<8])) ?? 0)
        }
        return Day(trimmed.replacingOccurrences(of: ".", with: "-").replacingOccurrences(of: "/", with: "-"))
    }

    /// IS_FREE says it; without it, a fee text that says "무료"/"free" (or is "0") means free.
    static func isFree(flag: String, fee: String) -> Bool {
        switch flag {
        case "무료": return true
        case "유료": return false
        default:
            let lower = fee.lowercased()
            return lower.contains("무료") || lower.contains("free") || lower == "0" || lower == "0원"
        }
    }

    /// An http(s) URL, or `nil`.
    static func url(_ text: String?) -> URL? {
        let trimmed = trim(text ?? "")
        guard !trimmed.isEmpty, let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = trim(text)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `text` without leading and trailing whitespace.
    static func trim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }), let last = scalars.lastIndex(where: { !isWhitespace($0) })
        else {
            return ""
        }
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }

    /// HTML entities decoded (the published data has `&#39;` and `&amp;`), NFC, control and
    /// bidirectional-formatting characters dropped (``isHostile(_:)``), whitespace runs collapsed to one
    /// space, trimmed. (On Unicode scalars, not Characters: an import cleans
    /// a dozen fields of every row.)
    public static func clean(_ text: String?) -> String {
        guard var text, !text.isEmpty else { return "" }
        if text.utf8.contains(UInt8(ascii: "&")) { text = decodeEntities(text) }
        return tidy(text)
    }

    /// ``clean(_:)`` without decoding HTML entities: NFC, control and bidirectional-formatting
    /// characters dropped, whitespace runs collapsed, trimmed. Tidying tidy text changes nothing, so a
    /// client and a server may both tidy a ticket's text and agree on it (decoding belongs to import:
    /// `&amp;amp;` decoded twice is not what was decoded once).
    public static func tidy(_ text: String) -> String {
        var text = text
        guard !text.isEmpty else { return "" }
        if !isCertainlyNFC(text) { text = text.precomposedStringWithCanonicalMapping }
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isHostile(scalar) { continue }
            if isWhitespace(scalar) {
                pendingSpace = !scalars.isEmpty
            } else {
                if pendingSpace { scalars.append(" ") }
                pendingSpace = false
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// A character no catalogue text needs and a terminal would act on: C0 controls but whitespace,
    /// DEL, C1 controls but NEL, and the bidirectional marks, embeddings, overrides and isolates.
    static func isHostile(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x85: false
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    /// True when no scalar of `text` can change under NFC: ASCII and Latin-1, general punctuation
    /// and symbols, CJK punctuation, kana, Hangul compatibility jamo, precomposed Hangul syllables,
    /// CJK ideographs and full-width forms. (Conjoining jamo and combining marks need the real work.)
    static func isCertainlyNFC(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0..<0x300, 0x2000...0x2BFF, 0x3000...0x3098, 0x309D...0x318F, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF00...0xFFEF: true
            default: false
            }
        }
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "middot": "·", "lsquo": "‘", "rsquo": "’",
        "ldquo": "“", "rdquo": "”",
    ]

    static func decodeEntities(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            guard let semicolon = rest[afterAmp...].prefix(10).firstIndex(of: ";") else {
                result += "&"
                rest = rest[afterAmp...]
                continue
            }
            let name = rest[afterAmp..<semicolon]
            var decoded: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if name.hasPrefix("#") {
                decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = namedEntities[String(name)]
            }
            if let decoded {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmp...]
            }
        }
        return result + rest
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
