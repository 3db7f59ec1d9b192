import Registry
import SettingsInterface
import SharedKit

/// Settings' use cases: read, set and reset validated settings in the current scope, and — as
/// ``SettingsReader`` — give other features the typed snapshot and a stream of changes.
///
/// Layers, highest first: command-line flags of this run (``SettingsOverrides``), `MOA_…`
/// environment variables, the value stored for the logged-in user, the value stored for the device,
/// the default. Before login the device's values are read and written.
public final class SettingsManager: SettingsReader {
    private let store: any SettingsStore
    private let scopes: any SettingsScopeSource
    private let overrides: SettingsOverrides
    private let environment: [String: String]
    private let cache: SnapshotCache?
    private let subscribers = Locked(Subscribers())

    private struct Subscribers {
        var next = 0
        var continuations: [Int: AsyncStream<SettingsSnapshot>.Continuation] = [:]
    }

    /// - Parameters:
    ///   - overrides: this run's command-line values (highest precedence).
    ///   - environment: the process environment; only `MOA_<KEY>` variables are read.
    ///   - cache: where a server remembers snapshots (``SnapshotCache``); `nil`, every read reads the store.
    public init(
        store: any SettingsStore, scopes: any SettingsScopeSource,
        overrides: SettingsOverrides = SettingsOverrides(), environment: [String: String] = [:], cache: SnapshotCache? = nil
    ) {
        self.cache = cache
        self.store = store
        self.scopes = scopes
        self.overrides = overrides
        self.environment = environment
    }

    private func resolver(_ flags: SettingsOverrides) -> SettingsResolver {
        SettingsResolver(flags: overrides.merging(flags).values, environment: environment)
    }

    // MARK: Reading

    /// Every setting of the current scope. `flags`: extra command-line values of this command
    /// (merged over the composed ``SettingsOverrides``).
    public func report(flags: SettingsOverrides = SettingsOverrides()) async throws -> SettingsReport {
        let scope = try await scopes.currentScope()
        let stored = try await store.values(in: scope)
        return try resolver(flags).report(stored: stored, scope: scope)
    }

    /// One setting, by name (an unknown name suggests the closest known one).
    public func entry(named name: String, flags: SettingsOverrides = SettingsOverrides()) async throws -> ScopedSetting {
        try await entry(try SettingKey.named(name), flags: flags)
    }

    private func entry(_ key: SettingKey, flags: SettingsOverrides = SettingsOverrides()) async throws -> ScopedSetting {
        let resolver = resolver(flags)
        try resolver.checkFlags()
        let scope = try await scopes.currentScope()
        let stored = try await store.values(in: scope)
        var ignored: [LocalizedText] = []
        return ScopedSetting(entry: try resolver.resolve(key, stored: stored, scope: scope, warnings: &ignored), scope: scope)
    }

    /// How many values are stored in the current scope (what `reset` without a key removes).
    public func storedCount() async throws -> (scope: SettingsScope, count: Int) {
        let scope = try await scopes.currentScope()
        return (scope, try await store.values(in: scope).own.count)
    }

    // MARK: Changing (each change is one transaction)

    /// Validates `text` for the setting `name` and stores it in the current scope.
    /// - Returns: the setting as it now reads (a flag or an environment variable may still win).
    public func set(_ name: String, to text: String?) async throws -> ScopedSetting {
        let key = try SettingKey.named(name)
        guard let text else { throw SettingsError.missingValue(key) }
        let value: SettingValue
        do { value = try key.parse(text) } catch { throw SettingsError.invalidValue(key, value: text, origin: .argument) }
        let scope = try await scopes.currentScope()
        try await modify(scope) { stored in
            var changed = stored
            changed.own[key.name] = value.storageText
            try SettingsResolver.checkLimits(after: changed, changed: key, byReset: false)
            stored = changed
        }
        await publish()
        return try await entry(key)
    }

    /// Removes the stored value of `name` in the current scope (a user's then falls back to the
    /// device's, the device's to the default).
    /// - Returns: the setting as it now reads, and whether anything was stored.
    public func reset(_ name: String) async throws -> (setting: ScopedSetting, removed: Bool) {
        let key = try SettingKey.named(name)
        let scope = try await scopes.currentScope()
        let removed = try await modify(scope) { stored in
            var changed = stored
            let removed = changed.own.removeValue(forKey: key.name) != nil
            try SettingsResolver.checkLimits(after: changed, changed: key, byReset: true)
            stored = changed
            return removed
        }
        if removed { await publish() }
        return (try await entry(key), removed)
    }

    /// Removes every value stored in the current scope.
    /// - Returns: the scope and how many values were removed.
    public func resetAll() async throws -> (scope: SettingsScope, removed: Int) {
        let scope = try await scopes.currentScope()
        let removed = try await modify(scope) { stored in
            let count = stored.own.count
            stored.own = [:]
            return count
        }
        if removed > 0 { await publish() }
        return (scope, removed)
    }

    /// The store's `modify`, then the scope's remembered snapshot forgotten (written or not).
    private func modify<T: Sendable>(
        _ scope: SettingsScope, _ change: @escaping @Sendable (inout StoredSettings) throws -> T
    ) async throws -> T {
        defer { cache?.forget(scope) }
        return try await store.modify(scope, change)
    }

    // MARK: SettingsReader

    /// From the ``SnapshotCache`` when one is given and remembers the scope's.
    /// Made of the store's ``SettingsStore/snapshotValues(in:)`` (a client's leaves out the money
    /// settings the server keeps: reading its snapshot asks the server nothing).
    public func snapshot() async throws -> SettingsSnapshot {
        let scope = try await scopes.currentScope()
        guard let cache else {
            return try resolver(SettingsOverrides()).report(stored: try await store.snapshotValues(in: scope), scope: scope).snapshot
        }
        let now = cache.clock.now()
        if let remembered = cache.snapshot(of: scope, at: now) { return remembered }
        let generation = cache.generation
        let snapshot = try resolver(SettingsOverrides()).report(stored: try await store.snapshotValues(in: scope), scope: scope).snapshot
        cache.remember(snapshot, of: scope, readAt: now, since: generation)
        return snapshot
    }

    public func changes() -> AsyncStream<SettingsSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: SettingsSnapshot.self, bufferingPolicy: .bufferingNewest(16))
        let id = subscribers.withLock { subscribers in
            subscribers.next += 1
            subscribers.continuations[subscribers.next] = continuation
            return subscribers.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends the new snapshot to every `changes()` stream (none is sent if it cannot be read, e.g.
    /// an invalid environment variable: the next read reports that).
    private func publish() async {
        guard subscribers.withLock({ !$0.continuations.isEmpty }) else { return }
        guard let snapshot = try? await snapshot() else { return }
        for continuation in subscribers.withLock({ Array($0.continuations.values) }) {
            continuation.yield(snapshot)
        }
    }
}

public enum SettingsManagerKey: ServiceKey {
    public typealias Service = SettingsManager
}
