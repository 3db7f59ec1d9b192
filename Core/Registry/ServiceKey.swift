/// The name of one service in the registry: a dedicated key type, never a string.
///
/// Declare one key per interface, next to the interface it names:
///
/// ```swift
/// public enum AccountDirectoryKey: ServiceKey {
///     public typealias Service = any AccountDirectory
/// }
/// ```
///
/// The registry identifies keys by `ObjectIdentifier(Key.self)`, so two keys with the same
/// service type are still two different keys, and a key cannot be mistyped.
public protocol ServiceKey<Service>: SendableMetatype {
    /// What the key resolves to. Main-actor types keep their isolation: a `@MainActor` class
    /// (or a `@MainActor @Sendable` factory closure) is `Sendable` and stays main-actor here.
    associatedtype Service: Sendable

    /// The feature (or Core module) that is expected to provide this key, named in diagnostics.
    /// Defaults to the owner of the module that declares the key: `AccountInterface` → `Account`.
    static var expectedProvider: String { get }
}

extension ServiceKey {
    public static var expectedProvider: String { KeyInfo.owner(ofModule: KeyInfo.moduleName(of: Self.self)) }
}

/// A key described for diagnostics: its identity, name, interface and expected provider.
public struct KeyInfo: Hashable, Sendable, CustomStringConvertible {
    let id: ObjectIdentifier
    /// The key's type name, e.g. `AccountDirectoryKey`.
    public let name: String
    /// The interface (service type) it resolves to, e.g. `any AccountDirectory`.
    public let interface: String
    /// Who is expected to provide it, e.g. `Account`.
    public let expectedProvider: String

    /// Describes `key`.
    public init<K: ServiceKey>(_ key: K.Type) {
        id = ObjectIdentifier(key)
        name = String(describing: key)
        interface = String(describing: K.Service.self)
        expectedProvider = K.expectedProvider
    }

    public var description: String { name }

    public static func == (lhs: KeyInfo, rhs: KeyInfo) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    static func moduleName(of type: Any.Type) -> String {
        let full = String(reflecting: type)
        return full.split(separator: ".", maxSplits: 1).first.map(String.init) ?? full
    }

    /// `AccountInterface` → `Account`; a Core or Shared module names itself (`Storage`).
    static func owner(ofModule module: String) -> String {
        for layer in ["Interface", "Domain", "Data", "Feature", "Testing", "Postgres", "Server", "Remote"]
        where module.hasSuffix(layer) && module.count > layer.count {
            return String(module.dropLast(layer.count))
        }
        return module
    }
}
