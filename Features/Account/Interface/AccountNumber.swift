import SharedKit

/// An account number: a 3-digit product code, 8 digits, and a Luhn check digit, shown as
/// `110-1234-5678-9`. A mistyped digit is caught by the check digit, before any lookup.
public struct AccountNumber: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The 12 digits, without dashes.
    public let digits: String

    /// Parses what a person typed (dashes and spaces are ignored).
    public init(_ text: String) throws(AccountNumberError) {
        let digits = String(text.filter { $0 != "-" && $0 != " " })
        guard digits.count == 12, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .malformed(text)
        }
        guard Self.checkDigit(for: digits.dropLast()) == digits.last else { throw .checkDigitMismatch(text) }
        self.digits = digits
    }

    /// A number from its 11 leading digits and their computed check digit.
    public init(prefix: String) throws(AccountNumberError) {
        guard prefix.count == 11, prefix.allSatisfy({ $0.isASCII && $0.isNumber }), let check = Self.checkDigit(for: Substring(prefix))
        else {
            throw .malformed(prefix)
        }
        digits = prefix + String(check)
    }

    /// `110-1234-5678-9`
    public var description: String {
        let d = Array(digits)
        return String(d[0..<3]) + "-" + String(d[3..<7]) + "-" + String(d[7..<11]) + "-" + String(d[11])
    }

    public static func < (lhs: AccountNumber, rhs: AccountNumber) -> Bool { lhs.digits < rhs.digits }

    /// The Luhn check digit of `body`.
    static func checkDigit(for body: Substring) -> Character? {
        var sum = 0
        for (index, character) in body.reversed().enumerated() {
            guard let digit = character.wholeNumberValue else { return nil }
            let weighted = index.isMultiple(of: 2) ? digit * 2 : digit
            sum += weighted > 9 ? weighted - 9 : weighted
        }
        return Character(String((10 - sum % 10) % 10))
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
