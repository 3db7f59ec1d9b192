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
    /// Replacing a key that nothing provides is a problem, not a silent addition; the copy is
    /// validated again and has its own singletons.
    public func overriding(_ edit: (inout Overrides) -> Void) throws(RegistryProblems) -> ValidatedRegistry<Root> {
        var overrides = Overrides()
        edit(&overrides)
        let registered = Set(builder.entries.map(\.provider.key))
        let unknown = overrides.replacements.map(\.key).filter { !registered.contains($0) }
        guard unknown.isEmpty else { throw RegistryProblems(problems: unknown.map(RegistryProblem.overrideOfUnregistered)) }

        let replaced = Dictionary(overrides.replacements.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
        let entries = builder.entries.map { entry in
            replaced[entry.provider.key].map { RegistryBuilder.Entry(module: "override", provider: $0) } ?? entry
        }
        return try RegistryBuilder(entries: entries).validate(root: Root.self)
    }
}

/// The replacements collected by ``ValidatedRegistry/overriding(_:)``.
public struct Overrides: Sendable {
    var replacements: [Provider] = []

    /// Replaces the provider of `provider.key` (which must already be registered).
    public mutating func replace(_ provider: Provider) {
        replacements.append(provider)
    }
}
