import APIClient
import Foundation
import Registry
import SettingsDomain
import SettingsInterface

/// What changes in Settings when `moa` is a client of `moa-server`: the settings that protect money
/// are the server's (``RemoteSettingsStore``), and no `MOA_…` variable or flag of this machine
/// changes them here either; every other setting stays in this machine's store.
public enum SettingsRemoteModule {
    /// The replacements of `SettingsStoreKey` and `SettingsManagerKey`.
    public static var replacements: [Provider] {
        [
            .singleton(SettingsStoreKey.self, requires: LocalSettingsStoreKey.self, SignedInAPIKey.self) {
                RemoteSettingsStore(local: $0, api: $1)
            },
            .singleton(SettingsManagerKey.self, requires: SettingsStoreKey.self, SettingsScopeSourceKey.self, SettingsOverridesKey.self) {
                store, scopes, overrides in
                let served = SettingKey.allCases.filter { RemoteSettingsStore.served.contains($0.name) }
                let variables = Set(served.map(\.environmentVariable))
                return SettingsManager(
                    store: store, scopes: scopes,
                    overrides: SettingsOverrides(overrides.values.filter { !RemoteSettingsStore.served.contains($0.key) }),
                    environment: ProcessInfo.processInfo.environment.filter { !variables.contains($0.key) })
            },
        ]
    }
}
