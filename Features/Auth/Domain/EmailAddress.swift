/// An e-mail address, normalised (trimmed, domain lower-cased) and validated.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The normalised address: `Ada.Lovelace@example.com`.
    public let value: String
    /// The part before `@`, as typed.
    public let localPart: String

    /// Parses what a person typed; throws `.invalidEmail` with the reason.
    public init(_ raw: String) throws(AuthError) {
        let trimmed = String(raw.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard let at = trimmed.lastIndex(of: "@") else { throw .invalidEmail(trimmed, reason: "it has no “@”") }
        let local = String(trimmed[..<at])
        let domain = String(trimmed[trimmed.index(after: at)...]).lowercased()
        guard !local.isEmpty else { throw .invalidEmail(trimmed, reason: "nothing comes before the “@”") }
        guard local.utf8.count <= 64 else { throw .invalidEmail(trimmed, reason: "the part before “@” is longer than 64 characters") }
        guard trimmed.utf8.count <= 254 else { throw .invalidEmail(trimmed, reason: "it is longer than 254 characters") }
        guard !trimmed.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw .invalidEmail(trimmed, reason: "it contains a space")
        }
        guard !local.contains("@"), !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else {
            throw .invalidEmail(trimmed, reason: "the part before “@” is not valid")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { throw .invalidEmail(trimmed, reason: "the domain has no “.”") }
        for label in labels {
            guard !label.isEmpty, label.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-"),
                label.unicodeScalars.allSatisfy({ Self.domainCharacters.contains($0) })
            else { throw .invalidEmail(trimmed, reason: "the domain “\(domain)” is not valid") }
        }
        value = local + "@" + domain
        localPart = local
    }

    public var description: String { value }

    private static let domainCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-".unicodeScalars)
}
