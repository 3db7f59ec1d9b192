import Registry

/// The stored values that matter for one scope, as storage text keyed by setting name.
public struct StoredSettings: Sendable, Equatable {
    /// Values stored in the scope itself.
    public var own: [String: String]
    /// The device's values, which a user's unset keys fall back to (empty for the device itself).
    public var fallback: [String: String]

    public init(own: [String: String] = [:], fallback: [String: String] = [:]) {
        self.own = own
        self.fallback = fallback
    }
}

/// Where settings are kept (SQLite in SettingsData).
public protocol SettingsStore: Sendable {
    /// The values of `scope` and, for a user, of the device.
    func values(in scope: SettingsScope) async throws -> StoredSettings

    /// The values the snapshot other features read is made of (``SettingsManager/snapshot()``): all
    /// of ``values(in:)``, unless some are kept where they alone bind and no feature here reads them
    /// (a client's money settings, on the server), which a store may then leave out.
    func snapshotValues(in scope: SettingsScope) async throws -> StoredSettings

    /// Reads the values of `scope`, lets `change` edit `own` (and refuse by throwing), and writes
    /// the difference — all in one transaction: nothing is written when `change` throws.
    func modify<T: Sendable>(
        _ scope: SettingsScope, _ change: @escaping @Sendable (inout StoredSettings) throws -> T
    ) async throws -> T
}

extension SettingsStore {
    /// Every value.
    public func snapshotValues(in scope: SettingsScope) async throws -> StoredSettings {
        try await values(in: scope)
    }
}

public enum SettingsStoreKey: ServiceKey {
    public typealias Service = any SettingsStore
}

/// This machine's own settings store, whatever ``SettingsStoreKey`` is: when `moa` is a client of
/// `moa-server`, the settings the server does not keep stay here.
public enum LocalSettingsStoreKey: ServiceKey {
    public typealias Service = any SettingsStore
}
