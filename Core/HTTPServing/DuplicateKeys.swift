import APIServing
import Foundation

/// JSON that names a key twice in one object (`{"amount":"5","amount":"7"}`) means two things;
/// Foundation's decoder quietly keeps one of them. The server refuses such a body instead (400
/// `malformed-request`, naming the key): a client, a proxy and the server must never read one body
/// two ways.
enum DuplicateKeys {
    /// The JSON Pointer (`/amount`, `/a/b`) of the first key that an object of `bytes` names twice,
    /// keys compared after their escapes are decoded (`"a"` and `"\u0061"` are one key), or nesting
    /// past ``maximumDepth``; `nil` when there is neither — or when the text is not JSON, which the
    /// decoder then refuses in its words.
    static func first(in bytes: [UInt8]) -> Finding? {
        var frames: [Frame] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard frames.count < maximumDepth else { return .tooDeep }
                frames.append(Frame(isObject: bytes[index] == UInt8(ascii: "{"), key: frames.last?.lastKey))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = frames.popLast()
            case UInt8(ascii: ","): if frames.last?.isObject == true { frames[frames.count - 1].expectingKey = true }
            case UInt8(ascii: "\""):
                guard let end = closingQuote(in: bytes, after: index) else { return nil }
                if let frame = frames.last, frame.isObject, frame.expectingKey {
                    guard let key = decoded(bytes[index...end]) else { return nil }
                    if !frames[frames.count - 1].keys.insert(key).inserted {
                        // The pointer is made only now: making one for every key costs the square of the depth.
                        return .duplicate(pointer(frames.compactMap(\.key) + [key]))
                    }
                    frames[frames.count - 1].expectingKey = false
                    frames[frames.count - 1].lastKey = key
                }
                index = end
            default: break
            }
            index += 1
        }
        return nil
    }

    /// What ``first(in:)`` found.
    enum Finding: Equatable {
        /// The JSON Pointer of a key given twice in one object.
        case duplicate(String)
        /// Objects and arrays nested deeper than ``maximumDepth`` (no request of the API nests more than 3).
        case tooDeep
    }

    static let maximumDepth = 64

    private static func pointer(_ keys: [String]) -> String {
        keys.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined()
    }

    private struct Frame {
        var keys: Set<String> = []
        let isObject: Bool
        var expectingKey: Bool
        /// The key whose value this object or array is (`nil` at the top and in arrays).
        let key: String?
        /// The key read last in this object (the key of a value that opens a frame).
        var lastKey: String?

        init(isObject: Bool, key: String?) {
            self.isObject = isObject
            self.expectingKey = isObject
            self.key = key
        }
    }

    /// The index of the quote that closes the string opened at `start`.
    private static func closingQuote(in bytes: [UInt8], after start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return nil
    }

    /// A JSON string literal (with its quotes) as the text it stands for.
    private static func decoded(_ literal: ArraySlice<UInt8>) -> String? {
        if !literal.contains(UInt8(ascii: "\\")) { return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self) }
        return (try? JSONSerialization.jsonObject(with: Data(literal), options: .fragmentsAllowed)) as? String
    }
}
