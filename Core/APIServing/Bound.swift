/// The transport bounds of docs/api/openapi.yaml (`maxLength`, in Unicode code points), checked
/// before any Domain parser sees the text; the Domain's own rules are stricter and come next.
public enum Bound {
    public static func text(_ value: String, _ pointer: String, _ maximum: Int) throws -> String {
        guard value.unicodeScalars.count <= maximum else { throw Problem.tooLong(pointer, maximum: maximum) }
        return value
    }

    public static func email(_ value: String) throws -> String { try text(value, "/email", 320) }
    public static func password(_ value: String, _ pointer: String) throws -> String { try text(value, pointer, 1_024) }
    public static func memo(_ value: String?) throws -> String? { try value.map { try text($0, "/memo", 1_024) } }
    /// A page's cursor, as a query parameter.
    public static func cursor(_ value: String?) throws -> String? { try value.map { try text($0, "cursor", 128) } }
}
