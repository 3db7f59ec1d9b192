import Foundation
import SharedKit

/// The rules of a quick-unlock PIN.
///
/// A PIN is exactly 6 ASCII digits (surrounding spaces are ignored). Refused, because they are the
/// first ones anybody tries:
/// - one digit repeated: `000000`, `111111`, … `999999`;
/// - a run of consecutive digits, up or down, where 9 wraps round to 0 and 0 back to 9:
///   `123456`, `987654`, `890123`, `901234`, `210987`, …
///
/// Six digits are only a million possibilities, and a stolen database can be searched through
/// despite scrypt: the PIN protects the interactive mode against a person at the keyboard, who
/// gets ``attemptsBeforeSessionEnds`` tries before the session ends and the password is needed.
public struct PinPolicy: Sendable {
    public static let length = 6
    /// Wrong PINs in a row that end the session.
    public var attemptsBeforeSessionEnds = 5

    public init() {}

    /// The PIN as it is hashed, or the first rule it breaks.
    public func check(_ raw: String) throws(PinError) -> String {
        let pin = try wellFormed(raw)
        let digits = pin.unicodeScalars.map { Int($0.value) - 48 }
        if Set(digits).count == 1 { throw .repeatedDigit }
        let steps = zip(digits.dropFirst(), digits).map { ($0 - $1 + 10) % 10 }
        if steps.allSatisfy({ $0 == 1 }) || steps.allSatisfy({ $0 == 9 }) { throw .sequential }
        return pin
    }

    /// `raw` without surrounding spaces, if it can be a PIN at all (6 ASCII digits); it may still be a
    /// weak one. The unlock prompt uses this: a typo that cannot be a PIN is not counted as a wrong one.
    public func wellFormed(_ raw: String) throws(PinError) -> String {
        let pin = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard pin.unicodeScalars.allSatisfy({ (48...57).contains($0.value) }) else { throw .notDigits }
        guard pin.unicodeScalars.count == Self.length else { throw .wrongLength(Self.length) }
        return pin
    }
}

/// Why a PIN was refused, each one sentence (never containing the PIN).
public enum PinError: Error, UserFacingError, Equatable {
    case notDigits
    case wrongLength(Int)
    case repeatedDigit
    case sequential
    case mismatch
    case wrongPin(triesLeft: Int)
    case tooManyWrongPins
    /// Removing a PIN without the PIN or the password.
    case confirmationNeeded

    public var message: String {
        switch self {
        case .notDigits: "A PIN is made of the digits 0 to 9 only."
        case .wrongLength(let length): "A PIN is exactly \(length) digits long."
        case .repeatedDigit: "The PIN must not be one digit repeated (like 111111)."
        case .sequential: "The PIN must not be a run of consecutive digits (like 123456, 987654 or 890123)."
        case .mismatch: "The two PINs do not match."
        case .wrongPin(let triesLeft): "The PIN is wrong (\(triesLeft) \(triesLeft == 1 ? "try" : "tries") left)."
        case .tooManyWrongPins: "Too many wrong PINs — sign in with your password."
        case .confirmationNeeded: "Removing the PIN needs your current PIN or your password."
        }
    }

    public var hint: String? {
        switch self {
        case .wrongPin(let triesLeft) where triesLeft == 1: "One more wrong PIN ends the session."
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .notDigits, .wrongLength, .repeatedDigit, .sequential, .mismatch: .dataError
        case .wrongPin, .tooManyWrongPins, .confirmationNeeded: .noPermission
        }
    }
}
