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
///
/// The three names are made when a diagnostic asks for them, never when a key is registered: the
/// first `String(describing:)` of a type makes the runtime search every protocol conformance of the
/// binary (is it `CustomStringConvertible`? `TextOutputStreamable`?), and every process composes a
/// hundred keys on start — that search was 40 % of a release `moa transfer send`.
public struct KeyInfo: Hashable, Sendable, CustomStringConvertible {
    let id: ObjectIdentifier
    private let names: @Sendable () -> (name: String, interface: String, expectedProvider: String)

    /// The key's type name, e.g. `AccountDirectoryKey`.
    public var name: String { names().name }
    /// The interface (service type) it resolves to, e.g. `any AccountDirectory`.
    public var interface: String { names().interface }
    /// Who is expected to provide it, e.g. `Account`.
    public var expectedProvider: String { names().expectedProvider }

    /// Describes `key`.
    public init<K: ServiceKey>(_ key: K.Type) {
        id = ObjectIdentifier(key)
        names = { (String(describing: K.self), String(describing: K.Service.self), K.expectedProvider) }
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
