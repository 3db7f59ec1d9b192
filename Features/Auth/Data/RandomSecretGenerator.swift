import AuthDomain
import Crypto
import Foundation

/// ``SecretGenerator`` on the system's cryptographically secure random source and SHA-256.
public struct RandomSecretGenerator: SecretGenerator {
    public init() {}

    /// 32 random bytes (256 bits), base64url without padding: 43 characters.
    public func token() -> String {
        Data(RandomBytes.make(32)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Six digits, uniformly distributed (no modulo bias), zero-padded.
    public func verificationCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = String(UInt32.random(in: 0..<1_000_000, using: &generator))
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// A lowercase UUID (version 4).
    public func identifier() -> String {
        UUID().uuidString.lowercased()
    }

    /// SHA-256 of the UTF-8 text, as 64 lowercase hex digits.
    public func digest(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// Bytes from the system's cryptographically secure random source.
enum RandomBytes {
    static func make(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
