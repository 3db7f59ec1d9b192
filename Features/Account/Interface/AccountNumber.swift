import SharedKit

/// An account number: a 3-digit product code, 8 digits, and a Luhn check digit, shown as
/// `110-1234-5678-9`. A mistyped digit is caught by the check digit, before any lookup.
public struct AccountNumber: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The 12 digits, without dashes.
    public let digits: String

    /// Parses what a person typed (dashes and spaces are ignored).
    public init(_ text: String) throws(AccountNumberError) {
        // Byte by byte: a digit is one ASCII byte, and any other byte but a dash or a space (a
        // letter, a byte of a character outside ASCII, of a combining mark on a digit) makes the
        // text no number — as Characters would, at a fraction of the cost (every row read has one).
        var digits = [UInt8]()
        digits.reserveCapacity(12)
        for byte in text.utf8 where byte != UInt8(ascii: "-") && byte != UInt8(ascii: " ") {
            guard Self.isDigit(byte), digits.count < 12 else { throw .malformed(text) }
            digits.append(byte)
        }
        guard digits.count == 12 else { throw .malformed(text) }
        guard Self.checkDigit(for: digits[..<11]) == digits[11] else { throw .checkDigitMismatch(text) }
        self.digits = String(decoding: digits, as: UTF8.self)
    }

    /// A number from its 11 leading digits and their computed check digit.
    public init(prefix: String) throws(AccountNumberError) {
        let body = Array(prefix.utf8)
        guard body.count == 11, body.allSatisfy(Self.isDigit) else { throw .malformed(prefix) }
        digits = String(decoding: body + [Self.checkDigit(for: body[...])], as: UTF8.self)
    }

    /// `110-1234-5678-9`
    public var description: String {
        let d = Array(digits.utf8)
        var shown = [UInt8]()
        shown.reserveCapacity(15)
        for (index, digit) in d.enumerated() {
            if index == 3 || index == 7 || index == 11 { shown.append(UInt8(ascii: "-")) }
            shown.append(digit)
        }
        return String(decoding: shown, as: UTF8.self)
    }

    public static func < (lhs: AccountNumber, rhs: AccountNumber) -> Bool { lhs.digits < rhs.digits }

    /// The Luhn check digit of `body` (ASCII digits), as an ASCII digit.
    static func checkDigit(for body: ArraySlice<UInt8>) -> UInt8 {
        var sum = 0
        for (index, byte) in body.reversed().enumerated() {
            let digit = Int(byte - UInt8(ascii: "0"))
            let weighted = index.isMultiple(of: 2) ? digit * 2 : digit
            sum += weighted > 9 ? weighted - 9 : weighted
        }
        return UInt8(ascii: "0") + UInt8((10 - sum % 10) % 10)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why a typed account number was refused.
public enum AccountNumberError: Error, UserFacingError, Equatable {
    case malformed(String)
    case checkDigitMismatch(String)

    public var message: String {
        switch self {
        case .malformed(let text):
            let digits = text.filter { $0.isASCII && $0.isNumber }.count
            if text.contains(where: { !($0.isASCII && $0.isNumber) && $0 != "-" && $0 != " " }) {
                return
                    "\(Self.shown(text)) is not an account number: write only its 12 digits, with dashes or spaces if you like, as in 110-1234-5678-9."
            }
            if digits == 0 { return "No account number was given: one has 12 digits, like 110-1234-5678-9." }
            return
                "\(Self.shown(text)) is not an account number: it has \(digits) digit\(digits == 1 ? "" : "s") and an account number has 12, like 110-1234-5678-9."
        case .checkDigitMismatch(let text):
            return "\(Self.shown(text)) is not a valid account number: a digit is mistyped (the check digit does not match)."
        }
    }

    /// The text as a message quotes it, cut to 40 characters.
    static func shown(_ text: String) -> String {
        "“" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "”"
    }

    public var exitStatus: ExitStatus { .dataError }
}
