import APIServing
import ArchiveDomain
import AuthInterface
import Registry

/// The operations tagged Archive, as `moa-server` registers them (``ArchiveServerModule``).
public enum ArchiveRoutesKey: ServiceKey { public typealias Service = any ServedRoutes }

extension ArchiveHandlers: ServedRoutes {}

/// What Archive adds to `moa-server`: its handlers, on the request's user's tickets and preferences.
public struct ArchiveServerModule: FeatureModule {
    public let name = "Archive"

    public init() {}

    public var providers: [Provider] {
        [
            .singleton(
                ArchiveRoutesKey.self, requires: TicketStoreKey.self, PreferenceStoreKey.self, SessionProviderKey.self, WallClockKey.self
            ) { tickets, preferences, session, clock in
                ArchiveHandlers(tickets: tickets, preferences: preferences, session: session, clock: clock)
            }
        ]
    }
}
