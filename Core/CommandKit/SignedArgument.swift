import ArgumentParser

/// A positional value that may start with `-`, such as a negative amount.
///
/// ArgumentParser takes anything that starts with `-` for an option, so `moa account deposit A -5` would
/// fail with "Missing expected argument". Such an argument collects what ArgumentParser does not
/// recognise (`@Argument(parsing: .allUnrecognized) var amount: [String]`), and ``single(_:name:)``
/// asks for exactly one value: a negative amount reaches the use case, which refuses it with its own
/// sentence, while an unknown option is still a usage error (64).
public enum SignedArgument {
    /// The one value given.
    /// - Throws: `ValidationError` (a usage error) for none, several, or an unknown option.
    public static func single(_ values: [String], name: String = "amount") throws -> String {
        if let option = values.first(where: isOption) { throw ValidationError("Unknown option '\(option)'.") }
        guard let value = values.first else { throw ValidationError("Missing expected argument '<\(name)>'.") }
        guard values.count == 1 else {
            throw ValidationError("Give one \(name), not \(values.count): \(values.map { "'\($0)'" }.joined(separator: ", ")).")
        }
        return value
    }

    /// `--name` and `-x` are options; `-5`, `-1,000` and `-.5` are negative numbers, and `-` alone is a value.
    public static func isOption(_ value: String) -> Bool {
        guard value.hasPrefix("-"), value.count > 1 else { return false }
        let second = value[value.index(after: value.startIndex)]
        return !(second.isNumber || second == "." || second == ",")
    }
}
