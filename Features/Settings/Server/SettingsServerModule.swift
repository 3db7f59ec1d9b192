import APIServing
import AuthInterface
import Registry
import SettingsDomain

/// The operations tagged Settings, as `moa-server` registers them (``SettingsServerModule``).
public enum SettingsRoutesKey: ServiceKey { public typealias Service = any ServedRoutes }

extension SettingsHandlers: ServedRoutes {}

/// What Settings adds to `moa-server`: its handlers, on the request's user's settings.
public struct SettingsServerModule: FeatureModule {
    public let name = "Settings"

    public init() {}

    public var providers: [Provider] {
        [
            .singleton(SettingsRoutesKey.self, requires: SettingsManagerKey.self, SessionProviderKey.self) {
                SettingsHandlers(settings: $0, session: $1)
            }
        ]
    }
}
