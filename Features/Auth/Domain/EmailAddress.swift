import Foundation

/// An e-mail address in its one canonical form: the form it is stored, compared and looked up in.
///
/// What a person typed is trimmed, normalised to Unicode NFKC and lower-cased (``canonical(_:)``),
/// so `ａｄａ@example.com` (full-width letters), `Ada@Example.com` and `ada@example.com` are one
/// address, whether signing up, logging in, verifying or resetting a password. An address holding a
/// control or format character (a bidi override, a zero-width character) is refused: it could look
/// like another one.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The canonical address: `ada.lovelace@example.com`.
    public let value: String
    /// The part before `@`, canonical.
    public let localPart: String

    /// Parses what a person typed; throws `.invalidEmail` with the reason.
    public init(_ raw: String) throws(AuthError) {
        let trimmed = String(raw.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !trimmed.unicodeScalars.contains(where: Self.isInvisible) else {
            throw .invalidEmail(Self.shown(trimmed), reason: "it contains a control or invisible formatting character")
        }
        let address = Self.canonical(trimmed)
        let shown = Self.shown(address)
        guard let at = address.lastIndex(of: "@") else { throw .invalidEmail(shown, reason: "it has no “@”") }
        let local = String(address[..<at])
        let domain = String(address[address.index(after: at)...])
        guard !local.isEmpty else { throw .invalidEmail(shown, reason: "nothing comes before the “@”") }
        guard local.utf8.count <= 64 else { throw .invalidEmail(shown, reason: "the part before “@” is longer than 64 characters") }
        guard address.utf8.count <= 254 else { throw .invalidEmail(shown, reason: "it is longer than 254 characters") }
        guard !address.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw .invalidEmail(shown, reason: "it contains a space")
        }
        guard !local.contains("@"), !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else {
            throw .invalidEmail(shown, reason: "the part before “@” is not valid")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { throw .invalidEmail(shown, reason: "the domain has no “.”") }
        for label in labels {
            guard !label.isEmpty, label.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-"),
                label.unicodeScalars.allSatisfy({ Self.domainCharacters.contains($0) })
            else { throw .invalidEmail(shown, reason: "the domain “\(Self.shown(domain))” is not valid") }
        }
        value = address
        localPart = local
    }

    public var description: String { value }

    /// `text` in the canonical form of addresses, without any validation: Unicode NFKC, lower-cased
    /// (and NFKC again, since lower-casing may decompose). Two addresses are the same exactly when
    /// their canonical forms are equal.
    public static func canonical(_ text: String) -> String {
        text.precomposedStringWithCompatibilityMapping.lowercased().precomposedStringWithCompatibilityMapping
    }

    private static let domainCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-".unicodeScalars)

    /// Control characters (C0, C1, DEL) and format characters (bidi controls, zero-width characters,
    /// the byte-order mark), and line or paragraph separators: nothing an address may hold.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: true
        default: false
        }
    }

    /// How an address that is refused is quoted back: invisible characters as `<U+202E>`, and at most
    /// 80 characters (an address is at most 254 bytes; what is longer is cut).
    static func shown(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                shown += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown.count > 80 ? String(shown.prefix(79)) + "…" : shown
    }
}
