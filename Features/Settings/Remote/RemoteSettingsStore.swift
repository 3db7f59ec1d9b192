import APIClient
import Foundation
import Money
import SettingsAPI
import SettingsDomain
import SharedKit

/// Settings' store when `moa` is a client: the settings that protect money
/// (`transfer.per-transfer-limit`, `transfer.daily-limit`, `notifications.large-transfer`) are the
/// logged-in user's on `moa-server`, where they bind what the server does; every other setting, and
/// the device's, stay in this machine's store. ``SettingsManager`` above it is unchanged.
public struct RemoteSettingsStore: SettingsStore {
    let local: any SettingsStore
    /// Calls that carry the session.
    let api: RemoteAPI

    /// The settings the server keeps (docs/api/openapi.yaml, `SettingKey`).
    public static let served = Set(Components.Schemas.SettingKey.allCases.map(\.rawValue))

    public init(local: any SettingsStore, api: RemoteAPI) {
        self.local = local
        self.api = api
    }

    public func values(in scope: SettingsScope) async throws -> StoredSettings {
        var values = try await local.values(in: scope)
        guard !scope.isDevice else { return values }
        values.own = values.own.filter { !Self.served.contains($0.key) }.merging(try await serverValues()) { _, server in server }
        // The server's user falls back to the server's defaults, never to this device's values.
        values.fallback = values.fallback.filter { !Self.served.contains($0.key) }
        return values
    }

    /// This machine's values only: the money settings bind on the server, which applies the user's
    /// own, and nothing in `moa` reads them from a snapshot — so a command asks the server nothing
    /// for its settings (their values here are the defaults; `moa settings` shows the user's).
    public func snapshotValues(in scope: SettingsScope) async throws -> StoredSettings {
        var values = try await local.values(in: scope)
        guard !scope.isDevice else { return values }
        values.own = values.own.filter { !Self.served.contains($0.key) }
        values.fallback = values.fallback.filter { !Self.served.contains($0.key) }
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
        for key in Self.writeOrder(from: before.own, to: after.own) { try await write(key, after.own[key]) }
        let localAfter = after.own.filter { !Self.served.contains($0.key) }
        _ = try await local.modify(scope) { stored in
            stored.own = stored.own.filter { Self.served.contains($0.key) }.merging(localAfter) { _, new in new }
        }
        return result
    }

    /// The served keys that changed, in an order whose every step the server accepts: it refuses a
    /// daily limit below the per-transfer limit after each write, so when both change, the one
    /// whose new value fits beside the other's old value goes first (one always does, since both the
    /// old and the new pair are valid).
    static func writeOrder(from old: [String: String], to new: [String: String]) -> [String] {
        let perTransfer = SettingKey.transferPerTransferLimit.name
        let daily = SettingKey.transferDailyLimit.name
        func effective(_ key: String, _ values: [String: String]) -> Int64 {
            if let text = values[key], let minor = Int64(text) { return minor }
            if case .money(let fallback)? = SettingKey(rawValue: key)?.defaultValue { return fallback.minorUnits }
            return 0
        }
        var changed = served.sorted().filter { old[$0] != new[$0] }
        if changed.contains(perTransfer), changed.contains(daily),
            effective(perTransfer, new) > effective(daily, old)
        {
            // The new per-transfer limit would not fit under the old daily one: the daily limit first.
            changed.removeAll { $0 == daily }
            changed.insert(daily, at: 0)
        } else if changed.contains(perTransfer), changed.contains(daily) {
            changed.removeAll { $0 == perTransfer }
            changed.insert(perTransfer, at: 0)
        }
        return changed
    }

    /// The values the user set on the server (money as minor units, as the local store keeps them).
    private func serverValues() async throws -> [String: String] {
        try await api.call { client in
            guard case .ok(let ok) = try await client.listSettings() else { throw RemoteAPI.unexpected("the settings") }
            var values: [String: String] = [:]
            for setting in try ok.body.json {
                // Only a served key's KRW is the server's to say, set by the user or its default.
                guard Self.served.contains(setting.key), case .money(let money) = setting.value, money.currency == .krw,
                    ["user", "default"].contains(setting.source)
                else { throw RemoteAPI.unexpected("the settings") }
                if setting.source == "user" { values[setting.key] = values[setting.key] ?? String(money.minorUnits) }
            }
            return values
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

extension RemoteAPI {
    /// One call of SettingsAPI's generated client, on this API's server, connections and credentials.
    func call<T: Sendable>(_ work: @escaping @Sendable (Client) async throws -> T) async throws -> T {
        let client = Client(serverURL: address.url, configuration: .moa, transport: transport, middlewares: middlewares)
        return try await call { try await work(client) }
    }
}
