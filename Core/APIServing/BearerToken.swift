import Foundation

/// The bearer token of an `Authorization` header (RFC 6750).
public enum BearerToken {
    /// Tokens are URL-safe base64 of 32 random bytes; anything much longer, or of other characters,
    /// is refused without a lookup.
    public static let maximumLength = 512

    /// The token of `Bearer <token>` (the scheme's case ignored), if it is plausible.
    public static func parse(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.utf8.count <= maximumLength, token.unicodeScalars.allSatisfy(isTokenCharacter) else { return nil }
        return token
    }

    /// RFC 6750's b64token characters.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", ".", "_", "~", "+", "/", "=": true
        default: false
        }
    }
}
