/// How often a provider's factory runs.
public enum Scope: String, Sendable {
    /// Created on first use, exactly once per validated registry, even under concurrent first access.
    case singleton
    /// Created anew on every resolution.
    case transient
}

/// One entry of a module: the key it provides, the keys it requires, and how to make the service.
///
/// Requirements are declared as key types and handed to the factory as typed values, so a factory
/// can only use what it declared (checked by the compiler), and the registry knows every edge of
/// the graph before anything is created (checked by ``RegistryBuilder/validate(root:)``).
///
/// ```swift
/// .singleton(TransferServiceKey.self, requires: AccountPostingKey.self, SettingsReaderKey.self) { posting, settings in
///     TransferService(posting: posting, limits: settings)
/// }
/// ```
public struct Provider: Sendable {
    public let key: KeyInfo
    public let requirements: [KeyInfo]
    public let scope: Scope
    let link: @Sendable (NodeTable) throws(LinkFailure) -> any AnyNode

    /// A service created once, on first use.
    public static func singleton<K: ServiceKey, each D: ServiceKey>(
        _ key: K.Type,
        requires dependencies: repeat (each D).Type,
        make: @escaping @Sendable (repeat (each D).Service) -> K.Service
    ) -> Provider {
        Provider(key, scope: .singleton, requires: repeat each dependencies, make: make)
    }

    /// A service created on every resolution.
    public static func transient<K: ServiceKey, each D: ServiceKey>(
        _ key: K.Type,
        requires dependencies: repeat (each D).Type,
        make: @escaping @Sendable (repeat (each D).Service) -> K.Service
    ) -> Provider {
        Provider(key, scope: .transient, requires: repeat each dependencies, make: make)
    }

    /// A service made from a list of requirements that all resolve to the same type, in order —
    /// for example every feature's command group, which the App's root collects.
    public static func singleton<K: ServiceKey, Element: Sendable>(
        _ key: K.Type,
        requiresEach dependencies: [any ServiceKey<Element>.Type],
        make: @escaping @Sendable ([Element]) -> K.Service
    ) -> Provider {
        Provider(key, scope: .singleton, requiresEach: dependencies, make: make)
    }

    /// An already-made value (for example a database opened before composition).
    public static func instance<K: ServiceKey>(_ key: K.Type, _ value: K.Service) -> Provider {
        Provider(key, scope: .singleton) { value }
    }

    private init<K: ServiceKey, Element: Sendable>(
        _ key: K.Type,
        scope: Scope,
        requiresEach dependencies: [any ServiceKey<Element>.Type],
        make: @escaping @Sendable ([Element]) -> K.Service
    ) {
        self.key = KeyInfo(key)
        self.scope = scope
        self.requirements = dependencies.map { KeyInfo($0) }
        self.link = { table throws(LinkFailure) in
            var linked: [Node<Element>] = []
            for dependency in dependencies {
                linked.append(try table.node(for: dependency))
            }
            let nodes = linked
            return Node<K.Service>(scope: scope) { make(nodes.map { $0.instance() }) }
        }
    }

    private init<K: ServiceKey, each D: ServiceKey>(
        _ key: K.Type,
        scope: Scope,
        requires dependencies: repeat (each D).Type,
        make: @escaping @Sendable (repeat (each D).Service) -> K.Service
    ) {
        self.key = KeyInfo(key)
        self.scope = scope
        var requirements: [KeyInfo] = []
        for dependency in repeat each dependencies {
            requirements.append(KeyInfo(dependency))
        }
        self.requirements = requirements
        self.link = { table throws(LinkFailure) in
            let nodes = (repeat try table.node(for: (each D).self))
            return Node<K.Service>(scope: scope) { make(repeat (each nodes).instance()) }
        }
    }
}
