import APIServing
import AuthInterface
import Foundation
import Money
import OpenAPIRuntime
import SettingsAPI
import SettingsDomain

/// The operations of docs/api/openapi.yaml tagged Settings (SettingsAPI's `APIProtocol`): only the
/// settings that protect money live on the server, the request's user's own.
public struct SettingsHandlers: APIProtocol {
    let settings: SettingsManager
    /// Who acts: a request without a user is refused here too, where the settings would otherwise
    /// fall back to the server's defaults.
    let session: any SessionProvider

    public init(settings: SettingsManager, session: any SessionProvider) {
        self.settings = settings
        self.session = session
    }

    public func listSettings(_ input: Operations.ListSettings.Input) async throws -> Operations.ListSettings.Output {
        _ = try await session.requireUser()
        var served: [SettingRecord] = []
        for key in Components.Schemas.SettingKey.allCases {
            served.append(try Self.served(try await settings.entry(named: key.rawValue).entry))
        }
        return .ok(.init(body: .json(served)))
    }

    public func getSetting(_ input: Operations.GetSetting.Input) async throws -> Operations.GetSetting.Output {
        _ = try await session.requireUser()
        return .ok(.init(body: .json(try Self.served(try await settings.entry(named: input.path.key.rawValue).entry))))
    }

    public func putSetting(_ input: Operations.PutSetting.Input) async throws -> Operations.PutSetting.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        _ = try await session.requireUser()
        let setting = try await settings.set(input.path.key.rawValue, to: try Bound.text(body.value, "/value", 64))
        return .ok(.init(body: .json(try Self.served(setting.entry))))
    }

    public func resetSetting(_ input: Operations.ResetSetting.Input) async throws -> Operations.ResetSetting.Output {
        _ = try await session.requireUser()
        let (setting, _) = try await settings.reset(input.path.key.rawValue)
        return .ok(.init(body: .json(try Self.served(setting.entry))))
    }
}

extension SettingsHandlers {
    /// One of the money-protecting settings (the only ones the server serves: their values are KRW),
    /// as `moa settings get --json` shows it.
    static func served(_ entry: SettingEntry) throws -> SettingRecord {
        guard Components.Schemas.SettingKey(rawValue: entry.key.name) != nil, case .money? = entry.value, case .money? = entry.defaultValue
        else {
            throw Problem.invalidParameter("The setting \(entry.key.name) is not served by moa-server.")
        }
        // The server keeps no device or run layer of its own: a value is the user's or the default.
        return SettingRecord(entry, source: entry.source == .user ? "user" : "default")
    }
}
