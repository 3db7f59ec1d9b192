import ArchiveDomain
import Foundation

/// The `culturalEventInfo` JSON shape, decoded leniently:
///
///     {"culturalEventInfo": {"list_total_count": 3999, "RESULT": {"CODE": "INFO-000", "MESSAGE": "…"},
///                            "row": [{"CODENAME": "…", "TITLE": "…", …}, …]}}
///
/// Keys are matched in any case; every row field is optional and may be a string, a number, a
/// boolean or null; an element of `row` that is not an object becomes `nil` (a skipped row). Also
/// accepted: the data portal's file download (`{"DATA": [{"codename": …}]}`) and a bare array of rows.
/// An error envelope of the live API (`{"RESULT": {"CODE": "INFO-100", …}}`) decodes with no rows.
enum CatalogueJSON {
    struct Page: Decodable {
        var total: Int?
        var resultCode: String?
        var resultMessage: String?
        var rows: [RawEvent?]?

        init(from decoder: any Decoder) throws {
            if let array = try? decoder.singleValueContainer().decode([LenientRow].self) {
                rows = array.map(\.raw)
                return
            }
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys {
                switch key.stringValue.lowercased() {
                case "culturaleventinfo":
                    let body = try container.decode(Body.self, forKey: key)
                    total = body.total
                    resultCode = body.resultCode ?? resultCode
                    resultMessage = body.resultMessage ?? resultMessage
                    rows = body.rows
                case "data", "row":
                    rows = try container.decode([LenientRow].self, forKey: key).map(\.raw)
                case "result":
                    let result = try? container.decode(ResultInfo.self, forKey: key)
                    resultCode = resultCode ?? result?.code
                    resultMessage = resultMessage ?? result?.message
                default:
                    continue
                }
            }
        }
    }

    struct Body: Decodable {
        var total: Int?
        var resultCode: String?
        var resultMessage: String?
        var rows: [RawEvent?]?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys {
                switch key.stringValue.lowercased() {
                case "list_total_count": total = lenientString(container, key).flatMap { Int($0) }
                case "result":
                    let result = try? container.decode(ResultInfo.self, forKey: key)
                    resultCode = result?.code
                    resultMessage = result?.message
                case "row": rows = try container.decode([LenientRow].self, forKey: key).map(\.raw)
                default: continue
                }
            }
        }
    }

    struct ResultInfo: Decodable {
        var code: String?
        var message: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys {
                switch key.stringValue.lowercased() {
                case "code": code = lenientString(container, key)
                case "message": message = lenientString(container, key)
                default: continue
                }
            }
        }
    }

    /// One element of the row list: its fields as text, or `nil` when it is not an object.
    struct LenientRow: Decodable {
        let raw: RawEvent?

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: AnyKey.self) else {
                raw = nil
                return
            }
            var fields: [String: String] = [:]
            for key in container.allKeys {
                if let value = lenientString(container, key) { fields[key.stringValue] = value }
            }
            raw = RawEvent(fields: fields)
        }
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(stringValue: String) {
            self.stringValue = stringValue
            intValue = nil
        }
        init(intValue: Int) {
            stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    /// A string, a number or a boolean as text; `nil` for null, an object or an array.
    static func lenientString(_ container: KeyedDecodingContainer<AnyKey>, _ key: AnyKey) -> String? {
        if let text = try? container.decode(String.self, forKey: key) { return text }
        if let number = try? container.decode(Int.self, forKey: key) { return String(number) }
        if let number = try? container.decode(Double.self, forKey: key) { return String(number) }
        if let flag = try? container.decode(Bool.self, forKey: key) { return String(flag) }
        return nil
    }

    /// Decodes a page; throws ``Failure`` saying what is wrong and where.
    static func decodePage(_ data: Data) throws(Failure) -> Page {
        // Our scanner first: it places every syntax error, nesting too deep and invalid UTF-8 included,
        // which the decoder would report at the start of the file or as a missing value.
        let found = data.withUnsafeBytes { buffer in JSONSyntaxScanner.firstError(in: buffer.bindMemory(to: UInt8.self)) }
        if let (offset, detail) = found {
            let (line, column) = position(of: offset, in: data)
            throw .syntax(SyntaxError(offset: offset, line: line, column: column, detail: detail))
        }
        do {
            return try JSONDecoder().decode(Page.self, from: data)
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                let offset = (context.underlyingError as NSError?)?.userInfo["NSJSONSerializationErrorIndex"] as? Int
                throw .syntax(locate(data, knownOffset: offset))
            case .typeMismatch(let type, let context):
                throw .shape("expected \(describe(type)) at \(path(context.codingPath))")
            case .valueNotFound(let type, let context):
                throw .shape("found null where \(describe(type)) was expected at \(path(context.codingPath))")
            case .keyNotFound(let key, let context):
                throw .shape("missing \"\(key.stringValue)\" at \(path(context.codingPath))")
            case .dataCorrupted(let context):
                throw .shape("\(context.debugDescription) at \(path(context.codingPath))")
            @unknown default:
                throw .shape(String(describing: error))
            }
        } catch {
            throw .shape(String(describing: error))
        }
    }

    enum Failure: Error, Equatable {
        case syntax(SyntaxError)
        case shape(String)
    }

    struct SyntaxError: Equatable {
        let offset: Int
        let line: Int
        let column: Int
        let detail: String
    }

    /// Where the first syntax error is: the decoder's offset when it gives one, else our own scan.
    static func locate(_ data: Data, knownOffset: Int?) -> SyntaxError {
        let (offset, detail) = data.withUnsafeBytes { buffer -> (Int, String) in
            let bytes = buffer.bindMemory(to: UInt8.self)
            if let found = JSONSyntaxScanner.firstError(in: bytes) { return found }
            return (min(knownOffset ?? 0, bytes.count), "the JSON parser refused it")
        }
        let (line, column) = position(of: offset, in: data)
        return SyntaxError(offset: offset, line: line, column: column, detail: detail)
    }

    /// 1-based line and column (in characters) of a byte offset.
    static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 { // not a UTF-8 continuation byte: a new character
                column += 1
            }
        }
        return (line, column)
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var result = ""
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += (result.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return result.isEmpty ? "the top level" : result
    }

    static func describe(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array") || name.hasPrefix("[") { return "a list" }
        if name.contains("Dictionary") || name.contains("KeyedDecodingContainer") { return "an object" }
        return name
    }
}

/// A small JSON syntax checker (RFC 8259), used only to say where a file stops being JSON.
enum JSONSyntaxScanner {
    private enum Container { case array, object }

    /// How deep arrays and objects may nest (the catalogue needs 4 levels; JSON parsers stop at about 512).
    static let maximumDepth = 64
    static let tooDeep = "arrays and objects nested more than \(maximumDepth) levels deep"

    /// The byte offset and a description of the first syntax error, or `nil` when the bytes are JSON.
    static func firstError(in bytes: UnsafeBufferPointer<UInt8>) -> (Int, String)? {
        let count = bytes.count
        var index = 0
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 } // UTF-8 byte-order mark
        var stack: [Container] = []
        var expectingValue = true

        func skipWhitespace() {
            while index < count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }
        func unexpected() -> (Int, String) {
            guard index < count else { return (count, "unexpected end of file") }
            let byte = bytes[index]
            if byte >= 0x21, byte < 0x7F { return (index, "unexpected character '\(Character(Unicode.Scalar(byte)))'") }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            if length > 1, index + length <= count,
                let character = String(validating: bytes[index..<(index + length)], as: UTF8.self), !character.isEmpty
            {
                return (index, "unexpected character '\(character)'")
            }
            return (index, "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))")
        }
        /// Scans a string starting at its opening quote.
        func scanString() -> (Int, String)? {
            index += 1
            while index < count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return nil
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < count else { return (count, "unterminated string") }
                    switch bytes[index] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        for offset in 1...4 {
                            guard index + offset < count, isHexDigit(bytes[index + offset]) else {
                                return (index - 1, "invalid \\u escape")
                            }
                        }
                        index += 5
                    default:
                        return (index - 1, "invalid escape in a string")
                    }
                case 0..<0x20:
                    return (
                        index, byte == 0x0A ? "line break inside a string (missing closing quote?)" : "control character inside a string"
                    )
                case 0x80...:
                    guard let length = utf8SequenceLength(bytes, at: index) else {
                        return (index, "a string that is not valid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))")
                    }
                    index += length
                default:
                    index += 1
                }
            }
            return (count, "unterminated string")
        }
        func scanNumber() -> (Int, String)? {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < count, isDigit(bytes[index]) else { return (start, "invalid number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < count, isDigit(bytes[index]) { index += 1 }
            }
            if index < count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < count, isDigit(bytes[index]) else { return (start, "invalid number") }
                while index < count, isDigit(bytes[index]) { index += 1 }
            }
            if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < count, isDigit(bytes[index]) else { return (start, "invalid number") }
                while index < count, isDigit(bytes[index]) { index += 1 }
            }
            return nil
        }
        func scanLiteral(_ word: String) -> (Int, String)? {
            let start = index
            for byte in word.utf8 {
                guard index < count, bytes[index] == byte else {
                    return (start, "unexpected word (expected \(word), a string, a number, an object or a list)")
                }
                index += 1
            }
            return nil
        }
        /// After `{` or `,` in an object: a key, then `:`.
        func scanKey() -> (Int, String)? {
            skipWhitespace()
            guard index < count, bytes[index] == UInt8(ascii: "\"") else {
                return index < count ? (index, "expected a quoted key") : (count, "unexpected end of file")
            }
            if let error = scanString() { return error }
            skipWhitespace()
            guard index < count, bytes[index] == UInt8(ascii: ":") else {
                return index < count ? (index, "expected ':' after a key") : (count, "unexpected end of file")
            }
            index += 1
            return nil
        }

        while true {
            skipWhitespace()
            if expectingValue {
                guard index < count else { return (count, "unexpected end of file") }
                switch bytes[index] {
                case UInt8(ascii: "{"):
                    guard stack.count < maximumDepth else { return (index, tooDeep) }
                    stack.append(.object)
                    index += 1
                    skipWhitespace()
                    if index < count, bytes[index] == UInt8(ascii: "}") {
                        stack.removeLast()
                        index += 1
                        expectingValue = false
                    } else if let error = scanKey() {
                        return error
                    }
                case UInt8(ascii: "["):
                    guard stack.count < maximumDepth else { return (index, tooDeep) }
                    stack.append(.array)
                    index += 1
                    skipWhitespace()
                    if index < count, bytes[index] == UInt8(ascii: "]") {
                        stack.removeLast()
                        index += 1
                        expectingValue = false
                    }
                case UInt8(ascii: "\""):
                    if let error = scanString() { return error }
                    expectingValue = false
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if let error = scanNumber() { return error }
                    expectingValue = false
                case UInt8(ascii: "t"):
                    if let error = scanLiteral("true") { return error }
                    expectingValue = false
                case UInt8(ascii: "f"):
                    if let error = scanLiteral("false") { return error }
                    expectingValue = false
                case UInt8(ascii: "n"):
                    if let error = scanLiteral("null") { return error }
                    expectingValue = false
                default:
                    return unexpected()
                }
            } else {
                guard let top = stack.last else {
                    return index == count ? nil : (index, "unexpected text after the end of the JSON document")
                }
                guard index < count else { return (count, "unexpected end of file (a \(top == .object ? "'}'" : "']'") is missing)") }
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") {
                    index += 1
                    if top == .object, let error = scanKey() { return error }
                    expectingValue = true
                } else if (byte == UInt8(ascii: "]") && top == .array) || (byte == UInt8(ascii: "}") && top == .object) {
                    stack.removeLast()
                    index += 1
                } else {
                    let expected = top == .object ? "',' or '}'" : "',' or ']'"
                    let (offset, what) = unexpected()
                    return (offset, "\(what) (expected \(expected))")
                }
            }
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index` (2 to 4 bytes, no overlong form, no
    /// surrogate, at most U+10FFFF), or `nil`.
    static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return nil
        }
        guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
