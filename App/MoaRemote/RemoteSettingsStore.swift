import Foundation
import MoaAPI
import SettingsDomain

/// Settings' store when `moa` is a client: the settings that protect money
/// (`transfer.per-transfer-limit`, `transfer.daily-limit`, `notifications.large-transfer`) are the
/// logged-in user's on `moa-server`, where they bind what the server does; every other setting, and
/// the device's, stay in this machine's store. ``SettingsManager`` above it is unchanged.
public struct RemoteSettingsStore: SettingsStore {
    let local: any SettingsStore
    /// Calls that carry the session.
    let api: RemoteAPI

    /// The settings the server keeps (docs/api/openapi.yaml, `SettingKey`).
    static let served = Set(Components.Schemas.SettingKey.allCases.map(\.rawValue))

    public init(local: any SettingsStore, api: RemoteAPI) {
        self.local = local
        self.api = api
    }

    public func values(in scope: SettingsScope) async throws -> StoredSettings {
        var values = try await local.values(in: scope)
        guard !scope.isDevice else { return values }
        values.own = values.own.filter { !Self.served.contains($0.key) }.merging(try await serverValues()) { _, server in server }
        return values
    }

    /// Runs `change` on the user's values as a whole (the server's and this machine's), then writes
    /// the money settings it changed to the server — which checks them again, the daily limit against
    /// the per-transfer one included — and the others here. Nothing is written when `change` throws.
    public func modify<T: Sendable>(
        _ scope: SettingsScope, _ change: @escaping @Sendable (inout StoredSettings) throws -> T
    ) async throws -> T {
        guard !scope.isDevice else { return try await local.modify(scope, change) }
        let before = try await values(in: scope)
        var after = before
        let result = try change(&after)
        for key in Self.served.sorted() where before.own[key] != after.own[key] {
            try await write(key, after.own[key])
        }
        let localAfter = after.own.filter { !Self.served.contains($0.key) }
        _ = try await local.modify(scope) { stored in
            stored.own = stored.own.filter { Self.served.contains($0.key) }.merging(localAfter) { _, new in new }
        }
        return result
    }

    /// The values the user set on the server (money as minor units, as the local store keeps them).
    private func serverValues() async throws -> [String: String] {
        try await api.call { client in
            guard case .ok(let ok) = try await client.listSettings() else { throw RemoteAPI.unexpected("the settings") }
            return Dictionary(
                try ok.body.json.filter { $0.source == .user }.map { ($0.key.rawValue, String($0.value.minorUnits)) },
                uniquingKeysWith: { first, _ in first })
        }
    }

    private func write(_ name: String, _ value: String?) async throws {
        guard let key = Components.Schemas.SettingKey(rawValue: name) else { return }
        try await api.call { client in
            if let value {
                guard case .ok = try await client.putSetting(path: .init(key: key), body: .json(.init(value: value))) else {
                    throw RemoteAPI.unexpected("the setting")
                }
            } else {
                guard case .ok = try await client.resetSetting(path: .init(key: key)) else { throw RemoteAPI.unexpected("the setting") }
            }
        }
    }
}
