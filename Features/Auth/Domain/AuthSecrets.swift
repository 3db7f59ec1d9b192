import Foundation
import Registry

// The secrets Auth makes and checks; AuthData implements both.

/// Hashes and checks passwords with a memory-hard KDF. The stored string carries its own salt and
/// parameters, so parameters can be raised later and old hashes upgraded at the next login.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) throws -> String
    /// Constant-time comparison of the derived key.
    func verify(_ password: String, against stored: String) -> Bool
    /// Whether `stored` was made with weaker parameters than the current ones.
    func needsRehash(_ stored: String) -> Bool
    /// Spends the work of one verification, so an unknown address costs as much as a known one.
    func verifyAgainstNothing(_ password: String)
}

/// Random secrets and their digests.
public protocol SecretGenerator: Sendable {
    /// A token of at least 256 random bits, URL-safe text.
    func token() -> String
    /// A verification code of 6 random digits.
    func verificationCode() -> String
    /// A new random identifier.
    func identifier() -> String
    /// The digest under which a secret is stored (never the secret itself).
    func digest(_ secret: String) -> String
}

public enum PasswordHasherKey: ServiceKey { public typealias Service = any PasswordHasher }
public enum SecretGeneratorKey: ServiceKey { public typealias Service = any SecretGenerator }
