import Foundation

/// A parser for the HTTP `Link` header (RFC 8288), as used for paging:
/// `<https://api.example.com/items?page=2>; rel="next", <https://api.example.com/items?page=5>; rel="last"`.
public enum LinkHeader {
    /// The link targets by relation type, lower-cased (`next`, `prev`, `first`, `last`, …).
    ///
    /// Tolerant: spaces around `;`, `,` and `=` and quoted or bare values are accepted; a link with
    /// several relations (`rel="next last"`) is listed under each; commas inside `<…>` or quotes do not
    /// split links; a malformed link (no `<…>`, no `rel`, an unusable URL) is skipped; for a relation
    /// given twice the first link wins. Relative targets resolve against `base`, or are skipped without one.
    public static func parse(_ value: String, relativeTo base: URL? = nil) -> [String: URL] {
        var result: [String: URL] = [:]
        for link in links(in: value) {
            guard let rel = link.parameters["rel"], let url = resolve(link.target, against: base) else { continue }
            for relation in rel.lowercased().split(whereSeparator: \.isWhitespace) where result[String(relation)] == nil {
                result[String(relation)] = url
            }
        }
        return result
    }

    /// One link: its target as written and its parameters (names lower-cased; the first of a name wins).
    struct Link: Equatable {
        var target: String
        var parameters: [String: String]
    }

    /// Every well-formed `<target>; params` element of the header, in order.
    static func links(in value: String) -> [Link] {
        var scanner = Cursor(Array(value))
        var links: [Link] = []
        while !scanner.isAtEnd {
            scanner.skip { $0.isWhitespace || $0 == "," }
            guard scanner.peek == "<" else {
                scanner.skipElement()
                continue
            }
            scanner.advance()
            guard let target = scanner.read(until: ">") else { break } // unterminated: nothing more to read
            scanner.advance()
            var parameters: [String: String] = [:]
            var wellFormed = true
            while true {
                scanner.skip(\.isWhitespace)
                guard scanner.peek == ";" else { break }
                scanner.advance()
                scanner.skip(\.isWhitespace)
                let name = scanner.readToken().lowercased()
                scanner.skip(\.isWhitespace)
                var parameterValue = ""
                if scanner.peek == "=" {
                    scanner.advance()
                    scanner.skip(\.isWhitespace)
                    if scanner.peek == "\"" {
                        guard let quoted = scanner.readQuoted() else {
                            wellFormed = false
                            break
                        }
                        parameterValue = quoted
                    } else {
                        parameterValue = scanner.readToken()
                    }
                }
                if !name.isEmpty, parameters[name] == nil { parameters[name] = parameterValue }
            }
            scanner.skip(\.isWhitespace)
            if !scanner.isAtEnd && scanner.peek != "," {
                wellFormed = false
                scanner.skipElement()
            }
            let trimmed = target.trimmingCharacters(in: .whitespaces)
            if wellFormed, !trimmed.isEmpty { links.append(Link(target: trimmed, parameters: parameters)) }
        }
        return links
    }

    private static func resolve(_ target: String, against base: URL?) -> URL? {
        guard let url = URL(string: target, relativeTo: base)?.absoluteURL, url.scheme != nil, url.host != nil
        else { return nil }
        return url
    }

    /// A cursor over the header's characters.
    private struct Cursor {
        private let characters: [Character]
        private var index = 0

        init(_ characters: [Character]) { self.characters = characters }

        var isAtEnd: Bool { index >= characters.count }
        var peek: Character? { isAtEnd ? nil : characters[index] }

        mutating func advance() { index += 1 }

        mutating func skip(_ predicate: (Character) -> Bool) {
            while let character = peek, predicate(character) { advance() }
        }

        /// The characters up to (not including) `terminator`, or `nil` if it never comes.
        mutating func read(until terminator: Character) -> String? {
            guard let end = characters[index...].firstIndex(of: terminator) else {
                index = characters.count
                return nil
            }
            defer { index = end }
            return String(characters[index..<end])
        }

        /// A bare value: up to whitespace, `;` or `,`.
        mutating func readToken() -> String {
            let start = index
            skip { !($0.isWhitespace || $0 == ";" || $0 == "," || $0 == "=") }
            return String(characters[start..<index])
        }

        /// A quoted string with `\` escapes, the opening quote at the cursor; `nil` if unterminated.
        mutating func readQuoted() -> String? {
            advance()
            var value = ""
            while let character = peek {
                advance()
                switch character {
                case "\"": return value
                case "\\":
                    if let escaped = peek {
                        value.append(escaped)
                        advance()
                    }
                default: value.append(character)
                }
            }
            return nil
        }

        /// Moves past the rest of a malformed element: to the next `,` outside quotes and `<…>`.
        mutating func skipElement() {
            var inQuotes = false
            var inAngles = false
            while let character = peek {
                if character == "\\" && inQuotes {
                    advance()
                } else if character == "\"" && !inAngles {
                    inQuotes.toggle()
                } else if character == "<" && !inQuotes {
                    inAngles = true
                } else if character == ">" && !inQuotes {
                    inAngles = false
                } else if character == "," && !inQuotes && !inAngles {
                    return
                }
                advance()
            }
        }
    }
}
