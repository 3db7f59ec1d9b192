import APIServing
import InboxDomain
import Registry

/// The operations tagged Inbox, as `moa-server` registers them (``InboxServerModule``).
public enum InboxRoutesKey: ServiceKey { public typealias Service = any ServedRoutes }

extension InboxHandlers: ServedRoutes {}

/// What Inbox adds to `moa-server`: its use cases (as `moa` composes them) and its handlers, on the inbox use cases `moa` runs.
public struct InboxServerModule: FeatureModule {
    public let name = "Inbox"

    public init() {}

    public var providers: [Provider] {
        InboxService.providers + [.singleton(InboxRoutesKey.self, requires: InboxServiceKey.self) { InboxHandlers(inbox: $0) }]
    }
}
