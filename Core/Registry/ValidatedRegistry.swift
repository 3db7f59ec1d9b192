/// A composition that passed validation. It is the only thing that can resolve, and resolving
/// cannot fail: every requirement was bound to its provider when the registry was validated.
///
/// Immutable and `Sendable`; singletons are created lazily, once per validated registry.
public struct ValidatedRegistry<Root: ServiceKey>: Sendable {
    let builder: RegistryBuilder
    let rootNode: Node<Root.Service>

    /// Every provider, in declaration order: key, module, scope and requirements.
    public let catalogue: [ProviderInfo]

    /// The root service, with everything it needs made on the way.
    public func resolve() -> Root.Service {
        rootNode.instance()
    }

    /// A copy of this registry in which some providers are replaced, typically by fakes in a test.
    ///
    /// Replacing a key that nothing provides is a problem, not a silent addition (an addition is
    /// said as one, ``Overrides/add(_:)``, and must be new); the copy is validated again and has its
    /// own singletons.
    public func overriding(_ edit: (inout Overrides) -> Void) throws(RegistryProblems) -> ValidatedRegistry<Root> {
        var overrides = Overrides()
        edit(&overrides)
        let registered = Set(builder.entries.map(\.provider.key))
        let unknown = overrides.replacements.map(\.key).filter { !registered.contains($0) }
        let known = overrides.additions.map(\.key).filter { registered.contains($0) }
        var seen = Set<KeyInfo>()
        var repeated: [KeyInfo] = []
        for key in (overrides.replacements + overrides.additions).map(\.key) where !seen.insert(key).inserted && !repeated.contains(key) {
            repeated.append(key)
        }
        guard unknown.isEmpty, known.isEmpty, repeated.isEmpty else {
            throw RegistryProblems(
                problems: unknown.map(RegistryProblem.overrideOfUnregistered) + known.map(RegistryProblem.additionOfRegistered)
                    + repeated.map(RegistryProblem.repeatedOverride))
        }

        let replaced = Dictionary(overrides.replacements.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let entries = builder.entries.map { entry in
            replaced[entry.provider.key].map { RegistryBuilder.Entry(module: "override", provider: $0) } ?? entry
        }
        let added = overrides.additions.map { RegistryBuilder.Entry(module: "override", provider: $0) }
        return try RegistryBuilder(entries: entries + added).validate(root: Root.self)
    }
}

/// The replacements collected by ``ValidatedRegistry/overriding(_:)``.
public struct Overrides: Sendable {
    var replacements: [Provider] = []
    var additions: [Provider] = []

    /// Replaces the provider of `provider.key` (which must already be registered).
    public mutating func replace(_ provider: Provider) {
        replacements.append(provider)
    }

    /// Adds a provider of a key nothing registers yet — something the replacements share (`moa`'s
    /// signed-in connection to `moa-server`).
    public mutating func add(_ provider: Provider) {
        additions.append(provider)
    }
}
