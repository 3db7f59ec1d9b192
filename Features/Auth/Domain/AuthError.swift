import Foundation
import SharedKit

/// Auth's refusals and failures, each one sentence without any secret.
public enum AuthError: Error, UserFacingError, Equatable {
    case invalidEmail(String, reason: String)
    case emailTaken(String)
    case weakPassword(PasswordRule)
    case passwordsDoNotMatch
    /// Wrong e-mail or password: the same answer whether or not the address exists.
    case wrongCredentials
    case notVerified(String)
    case throttled(until: Date)
    case noPendingVerification(String)
    /// Not 6 digits: no code Moa mails (refused before any lookup, and no try is used up).
    case malformedCode
    case wrongCode(triesLeft: Int)
    case codeExpired
    case tooManyCodeAttempts
    /// Too many wrong verification codes for the address (counted like failed logins, across new codes).
    case codesLocked(until: Date)
    /// A verification code was mailed to the address less than the resend interval ago.
    case resendTooSoon(until: Date)
    /// The session file can be read by other users.
    case sessionFileExposed(path: String)
    case sessionFileUnreadable(path: String, reason: String)

    public var message: String {
        switch self {
        case .invalidEmail(let email, let reason): "“\(email)” is not a valid e-mail address: \(reason)."
        case .emailTaken(let email): "An account with \(email) already exists."
        case .weakPassword(let rule): rule.sentence
        case .passwordsDoNotMatch: "The two passwords do not match."
        case .wrongCredentials: "The e-mail address or the password is wrong."
        case .notVerified(let email): "\(email) is not verified yet: enter the code from the verification e-mail first."
        case .throttled(let until): "Too many failed logins for this address: try again after \(Self.time(until))."
        case .noPendingVerification(let email): "There is no verification waiting for \(email)."
        case .malformedCode: "A code is the 6 digits from the e-mail, and this one is not."
        case .wrongCode(let triesLeft): "The code is wrong (\(triesLeft) \(triesLeft == 1 ? "try" : "tries") left)."
        case .codeExpired: "The code has expired."
        case .tooManyCodeAttempts: "Too many wrong codes: this code no longer works."
        case .codesLocked(let until): "Too many wrong codes for this address: try again after \(Self.time(until))."
        case .resendTooSoon(let until):
            "A code was mailed to this address less than a minute ago: use it, or ask for another after \(Self.time(until))."
        case .sessionFileExposed(let path): "The session file \(path) can be read by other users, so it is not used."
        case .sessionFileUnreadable(let path, let reason): "The session file \(path) cannot be read: \(reason)."
        }
    }

    public var hint: String? {
        switch self {
        case .emailTaken: "Log in with `moa auth login --email …`."
        case .notVerified(let email): "Run `moa auth verify --email \(email) --code CODE`, or `--resend` for a new code."
        case .codeExpired, .tooManyCodeAttempts: "Ask for a new code with `moa auth verify --email … --resend`."
        case .sessionFileExposed(let path): "Run `chmod 600 \(path)`, or delete it and log in again."
        case .sessionFileUnreadable: "Delete it and log in again."
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidEmail, .weakPassword, .passwordsDoNotMatch, .malformedCode: .dataError
        case .emailTaken: .refused
        case .wrongCredentials, .notVerified, .wrongCode, .codeExpired, .tooManyCodeAttempts,
            .sessionFileExposed, .sessionFileUnreadable:
            .noPermission
        case .noPendingVerification: .unavailable
        case .throttled, .codesLocked, .resendTooSoon: .temporaryFailure
        }
    }

    /// `2026-01-01 09:30:00`, in the local time zone: when a lockout ends.
    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }
}
