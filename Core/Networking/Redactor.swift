import Foundation

/// Hides secrets before anything is logged or shown: header values, query values and URL user-info.
///
/// Pure functions, so the rules are unit-testable. A redacted value reads ``mask`` (`***`).
public enum Redactor {
    /// What a secret value is replaced with.
    public static let mask = "***"

    /// Header names whose values are always secret (compared case-insensitively).
    public static let sensitiveHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]

    /// Words that make a query item secret when they form its whole name or one `_`/`-`/`.`-separated part
    /// of it: `token`, `access_token`, `api_key`, `apiKey`, `client_secret`, `code`, …
    public static let sensitiveQueryWords: Set<String> = [
        "token", "accesstoken", "key", "apikey", "password", "passwd", "secret", "code",
        "signature", "sig", "credential", "credentials", "auth",
    ]

    /// Whether a header's value must be hidden: the names above, and any name with a part
    /// `token`, `secret`, `password` or `apikey` (`X-Auth-Token`, `Private-Token`, …).
    public static func isSensitiveHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        if sensitiveHeaderNames.contains(lower) { return true }
        let parts = Set(words(lower))
        return !parts.isDisjoint(with: ["token", "secret", "password", "apikey"])
    }

    /// Whether a query item's value must be hidden: see ``sensitiveQueryWords``; a name ending in
    /// `token`, `secret`, `password` or `apikey` (`refreshToken`) is secret as well.
    public static func isSensitiveQueryName(_ name: String) -> Bool {
        let lower = name.lowercased()
        let joined = lower.filter { $0.isLetter || $0.isNumber }
        return sensitiveQueryWords.contains(joined)
            || words(lower).contains { sensitiveQueryWords.contains($0) }
            || ["token", "secret", "password", "apikey"].contains { joined.hasSuffix($0) }
    }

    /// The headers with every sensitive value replaced by ``mask``.
    public static func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(
            headers.map { field in
                isSensitiveHeader(field.name) ? HTTPHeaders.Field(name: field.name, value: mask) : field
            })
    }

    /// The query items with every sensitive value replaced by ``mask``.
    public static func redact(_ items: [URLQueryItem]) -> [URLQueryItem] {
        items.map { item in
            guard item.value != nil, isSensitiveQueryName(item.name) else { return item }
            return URLQueryItem(name: item.name, value: mask)
        }
    }

    /// The URL as text with sensitive query values and any user-info password replaced by ``mask``;
    /// everything else is kept exactly as encoded.
    public static func redact(_ url: URL) -> String {
        redact(urlString: url.absoluteString)
    }

    /// The URL with sensitive query values masked and, in addition, every occurrence of `secrets`
    /// (values that travel in the path, such as an API key in `…/{KEY}/json/…`) replaced by ``mask``.
    public static func redact(_ url: URL, hiding secrets: [String]) -> String {
        hide(secrets, in: redact(url))
    }

    /// `text` with every occurrence of `secrets` (and of their percent-encoded forms) masked.
    public static func hide(_ secrets: [String], in text: String) -> String {
        var text = text
        for secret in secrets where !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: mask)
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed), encoded != secret {
                text = text.replacingOccurrences(of: encoded, with: mask)
            }
        }
        return text
    }

    /// ``redact(_:)-(URL)`` for a URL held as text.
    public static func redact(urlString: String) -> String {
        var text = Substring(urlString)
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = text[..<hash]
        }
        var query: Substring?
        if let mark = text.firstIndex(of: "?") {
            query = text[text.index(after: mark)...]
            text = text[..<mark]
        }
        var result = redactUserInfo(String(text))
        if let query {
            result +=
                "?"
                + query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name =
                        parts[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding
                        ?? String(parts[0])
                    guard parts.count == 2, isSensitiveQueryName(name) else { return String(pair) }
                    return parts[0] + "=" + mask
                }.joined(separator: "&")
        }
        return result + fragment
    }

    /// `scheme://user:secret@host/…` → `scheme://user:***@host/…`.
    private static func redactUserInfo(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
        let authority = text[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return text }
        let userInfo = authority[..<at]
        let redactedUserInfo: String
        if let colon = userInfo.firstIndex(of: ":") {
            redactedUserInfo = userInfo[..<colon] + ":" + mask
        } else {
            redactedUserInfo = mask
        }
        return text[..<authorityStart] + redactedUserInfo + text[at...]
    }

    /// `x-auth_token.v2` → `["x", "auth", "token", "v2"]`; camel case is not split (`apiKey` → `apikey`).
    private static func words(_ lowercased: String) -> [String] {
        lowercased.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
}
