/// What a feature (or Core, or the App) contributes to the composition: a name for diagnostics and
/// its providers. What it *requires* is derived from its providers' declared requirements, so the
/// declaration can never drift from the code.
public protocol FeatureModule: Sendable {
    /// The name used in diagnostics: `Account`, `Core`, `App`.
    var name: String { get }
    var providers: [Provider] { get }
}

extension FeatureModule {
    /// The keys this module provides.
    public var provides: [KeyInfo] { providers.map(\.key) }

    /// The keys this module needs from other modules.
    public var requires: [KeyInfo] {
        let own = Set(provides)
        var seen = Set<KeyInfo>()
        return providers.flatMap(\.requirements).filter { !own.contains($0) && seen.insert($0).inserted }
    }
}

/// A module made of a name and a list of providers, for tests, overrides and small compositions.
public struct ModuleOf: FeatureModule {
    public let name: String
    public let providers: [Provider]

    public init(_ name: String, _ providers: [Provider]) {
        self.name = name
        self.providers = providers
    }
}
