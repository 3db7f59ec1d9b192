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
    /// This client guessed wrong too often (at this address, or at many): it waits, nobody else does.
    case throttled(until: Date)
    /// Many wrong passwords for this address from everywhere: the next attempt waits a few seconds.
    case loginDelayed(until: Date)
    /// A store found no pending code where the use case expected one (a concurrent verification).
    case noPendingVerification(String)
    /// Not 6 digits: no code Moa mails (refused before any lookup, and no try is used up).
    case malformedCode
    /// Wrong, expired or used up — or nothing waits for a code at this address: one answer for all,
    /// so it tells nobody whether the address has an account.
    case codeRejected
    /// Too many wrong codes for the address from this client.
    case codesLocked(until: Date)
    /// The session file can be read by other users.
    case sessionFileExposed(path: String)
    case sessionFileUnreadable(path: String, reason: String)

    public var message: String {
        switch self {
        case .invalidEmail(let email, let reason): "“\(email)” is not a valid e-mail address: \(reason)."
        case .emailTaken(let email): "An account with \(email) already exists."
        case .weakPassword(let rule): rule.sentence
        case .passwordsDoNotMatch: "The two passwords do not match."
        case .wrongCredentials: "The e-mail address or the password is wrong, or the address is not verified yet."
        case .throttled(let until): "Too many failed attempts from here: try again after \(Self.time(until))."
        case .loginDelayed(let until):
            "Logins to this address are slowed after many wrong passwords: try again after \(Self.time(until))."
        case .noPendingVerification(let email): "There is no verification waiting for \(email)."
        case .malformedCode: "A code is the 6 digits from the e-mail, and this one is not."
        case .codeRejected: "The code is wrong, has expired or was used up, or no code was mailed for this address."
        case .codesLocked(let until): "Too many wrong codes for this address from here: try again after \(Self.time(until))."
        case .sessionFileExposed(let path): "The session file \(path) can be read by other users, so it is not used."
        case .sessionFileUnreadable(let path, let reason): "The session file \(path) cannot be read: \(reason)."
        }
    }

    public var hint: String? {
        switch self {
        case .emailTaken: "Log in with `moa auth login --email …`."
        case .wrongCredentials: "Signed up but not verified? Run `moa auth verify --email … --code CODE` first."
        case .codeRejected: "Ask for a new code with `moa auth verify --email … --resend`, and use the newest one."
        case .sessionFileExposed(let path): "Run `chmod 600 \(path)`, or delete it and log in again."
        case .sessionFileUnreadable: "Delete it and log in again."
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidEmail, .weakPassword, .passwordsDoNotMatch, .malformedCode: .dataError
        case .emailTaken: .refused
        case .wrongCredentials, .codeRejected, .sessionFileExposed, .sessionFileUnreadable: .noPermission
        case .noPendingVerification: .unavailable
        case .throttled, .loginDelayed, .codesLocked: .temporaryFailure
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
