/// An ordered list of HTTP header fields whose names compare case-insensitively (RFC 9110 §5.1).
///
/// `headers["etag"]` and `headers["ETag"]` find the same field. Setting a value through the
/// subscript replaces every field of that name; `nil` removes them.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field, with its name as it was given.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    public init() { fields = [] }

    public init(_ fields: [Field]) { self.fields = fields }

    /// Headers from a dictionary, sorted by name so that the order is deterministic.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the field `name`, whatever its case; setting replaces all fields of that name.
    public subscript(name: String) -> String? {
        get { fields.first { Self.sameName($0.name, name) }?.value }
        set {
            guard let newValue else {
                fields.removeAll { Self.sameName($0.name, name) }
                return
            }
            guard let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) else {
                fields.append(Field(name: name, value: newValue))
                return
            }
            fields[index].value = newValue
            fields = fields.enumerated()
                .filter { $0.offset == index || !Self.sameName($0.element.name, name) }
                .map(\.element)
        }
    }

    /// Every value of the field `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// Adds a field, keeping any existing field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// These headers with every field of `other` replacing the fields of the same name.
    public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var result = HTTPHeaders(fields.filter { !other.contains($0.name) })
        result.fields.append(contentsOf: other.fields)
        return result
    }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Order-sensitive, with names compared case-insensitively.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { sameName($0.name, $1.name) && $0.value == $1.value }
    }

    /// `Name: value` lines with secret values redacted, safe to log.
    public var description: String {
        Redactor.redact(self).map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    static func sameName(_ a: String, _ b: String) -> Bool {
        a.count == b.count && a.lowercased() == b.lowercased()
    }
}
