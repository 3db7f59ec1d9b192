import SharedKit

/// One thing wrong with a composition. Each names the interface, who needs it and who should provide it.
public enum RegistryProblem: Hashable, Sendable, CustomStringConvertible {
    /// Nobody provides `key`, which `requiredBy` needs (module, and the key it was making).
    case missing(KeyInfo, requiredBy: String, forKey: KeyInfo?)
    /// More than one module provides `key`.
    case duplicate(KeyInfo, providers: [String])
    /// The keys form a cycle (first key repeated at the end).
    case cycle([KeyInfo])
    /// `overriding` replaced a key that nothing provides: a test override must replace something real.
    case overrideOfUnregistered(KeyInfo)
    /// `overriding` added a key that something already provides: an addition must be new.
    case additionOfRegistered(KeyInfo)
    /// `overriding` replaced (or added) one key more than once: which one wins would be an accident of order.
    case repeatedOverride(KeyInfo)

    public var description: String {
        switch self {
        case .missing(let key, let module, let forKey):
            let purpose = forKey.map { " to make \($0.name)" } ?? ""
            return "missing \(key.name) (\(key.interface)): required by \(module)\(purpose), "
                + "expected from \(key.expectedProvider), which does not provide it"
        case .duplicate(let key, let providers):
            return "duplicate \(key.name) (\(key.interface)): provided by \(providers.joined(separator: " and ")); "
                + "provide it once (expected from \(key.expectedProvider)), or replace it with overriding { } in tests"
        case .cycle(let keys):
            return "cycle: " + keys.map(\.name).joined(separator: " → ")
        case .overrideOfUnregistered(let key):
            return "override of \(key.name) (\(key.interface)), which nothing provides: overriding may only replace a registered key"
        case .additionOfRegistered(let key):
            return "addition of \(key.name) (\(key.interface)), which is already provided: replace it instead"
        case .repeatedOverride(let key):
            return "\(key.name) (\(key.interface)) is overridden more than once: one override per key"
        }
    }
}

/// Every problem found in one validation, all at once.
public struct RegistryProblems: Error, UserFacingError, CustomStringConvertible {
    public let problems: [RegistryProblem]

    public var message: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "The app's composition is broken (\(count)): " + problems.map(\.description).joined(separator: "; ") + "."
    }

    public var hint: String? { "Run `moa doctor` to see who provides what." }
    public var exitStatus: ExitStatus { .software }
    public var description: String { message }
}
