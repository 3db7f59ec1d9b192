import Foundation
import SettingsDomain
import Storage

/// The settings store whose secrets (`search.api-token`, `archive.api-key`) live in the system's
/// credential store when the machine has one: the database row of a secret then holds only
/// ``marker``, and the secret is the store's item `settings.<scope>.<key>`.
///
/// Nothing is lost moving between the two. A secret still in the database is moved into the
/// system's store the first time it is read; a marker whose item the store no longer has (or a
/// machine without a system store any more) reads as unset. Without a system store, secrets stay in
/// the database, as before (owner-only, `moa doctor` checks it).
///
/// Every other setting passes through unchanged; so does everything when no row holds a secret, so
/// a command that touches no secret never asks the system's store.
public struct CredentialKeepingSettingsStore: SettingsStore {
    /// What a secret's row holds when the secret is in the credential store. It has a space, which
    /// no secret may hold, so it can never be taken for one.
    public static let marker = "(kept in the credential store)"

    private let inner: any SettingsStore
    private let credentials: any CredentialStore

    public init(_ inner: any SettingsStore, credentials: any CredentialStore) {
        self.inner = inner
        self.credentials = credentials
    }

    /// The item of `key` in `scope`: `settings.device.search.api-token`, `settings.<user id>.archive.api-key`.
    static func name(_ key: SettingKey, scope: String) throws(CredentialStoreError) -> CredentialName {
        guard let name = CredentialName("settings.\(scope.lowercased()).\(key.rawValue)") else {
            throw CredentialStoreError("The settings scope “\(scope.prefix(40))” cannot name a secret.", exitStatus: .software)
        }
        return name
    }

    public func values(in scope: SettingsScope) async throws -> StoredSettings {
        try await revealed(try await inner.values(in: scope), scope: scope)
    }

    public func snapshotValues(in scope: SettingsScope) async throws -> StoredSettings {
        try await revealed(try await inner.snapshotValues(in: scope), scope: scope)
    }

    public func modify<T: Sendable>(
        _ scope: SettingsScope, _ change: @escaping @Sendable (inout StoredSettings) throws -> T
    ) async throws -> T {
        let credentials = credentials
        return try await inner.modify(scope) { stored in
            var view = stored
            var before: [SettingKey: String] = [:]
            for key in SettingKey.secretKeys {
                guard let text = stored.own[key.name] else { continue }
                // A marker whose item cannot be read stays visible as the marker: a reset still
                // removes the row (and the item, if the store has it after all).
                let secret =
                    text == Self.marker
                    ? (credentials.backend.isSystem ? try credentials.secret(Self.name(key, scope: scope.storageKey)) : nil) ?? text
                    : text
                view.own[key.name] = secret
                before[key] = secret
            }
            let result = try change(&view)
            var own = view.own
            for key in SettingKey.secretKeys {
                let after = view.own[key.name]
                guard after != before[key] else {
                    own[key.name] = stored.own[key.name] // unchanged: as it was kept
                    continue
                }
                let name = try Self.name(key, scope: scope.storageKey)
                if let after, credentials.backend.isSystem {
                    try credentials.store(after, as: name)
                    own[key.name] = Self.marker
                } else if stored.own[key.name] == Self.marker, credentials.backend.isSystem {
                    try credentials.remove(name)
                }
            }
            stored.own = own
            return result
        }
    }

    /// `stored` with each marker replaced by its secret, and each secret still in the database
    /// moved into the system's store.
    private func revealed(_ stored: StoredSettings, scope: SettingsScope) async throws -> StoredSettings {
        let secretNames = Set(SettingKey.secretKeys.map(\.name))
        let ownSecrets = stored.own.keys.filter(secretNames.contains)
        let fallbackSecrets = stored.fallback.keys.filter(secretNames.contains)
        guard !ownSecrets.isEmpty || !fallbackSecrets.isEmpty else { return stored }
        var shown = stored
        let system = credentials.backend.isSystem
        var moving: [(SettingsScope, SettingKey, String)] = []
        for (keys, place) in [(ownSecrets, scope), (fallbackSecrets, SettingsScope.device)] {
            let isOwn = place == scope
            for keyName in keys {
                guard let key = SettingKey(rawValue: keyName), let text = isOwn ? stored.own[keyName] : stored.fallback[keyName] else {
                    continue
                }
                var value: String? = text
                if text == Self.marker {
                    value = system ? try credentials.secret(Self.name(key, scope: place.storageKey)) : nil
                } else if system {
                    moving.append((place, key, text))
                }
                if isOwn { shown.own[keyName] = value } else { shown.fallback[keyName] = value }
            }
        }
        for (place, key, secret) in moving {
            try credentials.store(secret, as: Self.name(key, scope: place.storageKey))
            // The row changes only if it still holds the secret just moved.
            try await inner.modify(place) { stored in
                if stored.own[key.name] == secret { stored.own[key.name] = Self.marker }
            }
        }
        return shown
    }
}
