import APIServing
import AccountDomain
import Registry

/// The operations tagged Account, as `moa-server` registers them (``AccountServerModule``).
public enum AccountRoutesKey: ServiceKey { public typealias Service = any ServedRoutes }

extension AccountHandlers: ServedRoutes {}

/// What Account adds to `moa-server`: its use cases (as `moa` composes them) and its handlers, on the account use cases `moa` runs.
public struct AccountServerModule: FeatureModule {
    public let name = "Account"

    public init() {}

    public var providers: [Provider] {
        AccountService.providers + [.singleton(AccountRoutesKey.self, requires: AccountServiceKey.self) { AccountHandlers(accounts: $0) }]
    }
}
