import Foundation

/// The password rules of the OWASP Authentication Cheat Sheet (for accounts without MFA).
public struct PasswordPolicy: Sendable {
    public static let minimumLength = 15
    public static let maximumLength = 128

    public init() {}

    /// The password as it will be hashed (Unicode NFKC), or the first rule it breaks.
    public func check(_ password: String, for email: EmailAddress) throws(AuthError) -> String {
        let normalized = password.precomposedStringWithCompatibilityMapping
        guard normalized.count >= Self.minimumLength else { throw .weakPassword(.tooShort(minimum: Self.minimumLength)) }
        guard normalized.count <= Self.maximumLength else { throw .weakPassword(.tooLong(maximum: Self.maximumLength)) }
        let lowered = normalized.lowercased()
        let local = email.localPart.precomposedStringWithCompatibilityMapping.lowercased()
        if local.count >= 3, lowered.contains(local) { throw .weakPassword(.containsEmail) }
        if Set(lowered).count <= 2 || CommonPasswords.contains(lowered) { throw .weakPassword(.common) }
        return normalized
    }
}

/// Which password rule failed.
public enum PasswordRule: Sendable, Equatable {
    case tooShort(minimum: Int)
    case tooLong(maximum: Int)
    case containsEmail
    case common

    public var sentence: String {
        switch self {
        case .tooShort(let minimum): "The password must be at least \(minimum) characters long."
        case .tooLong(let maximum): "The password must be at most \(maximum) characters long."
        case .containsEmail: "The password must not contain the name part of your e-mail address."
        case .common: "The password is too common; choose one that is not on lists of leaked passwords."
        }
    }
}
