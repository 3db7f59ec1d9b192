import APIServing
import AuthDomain
import AuthInterface
import Registry

/// The operations tagged Auth, as `moa-server` registers them (``AuthServerModule``).
public enum AuthRoutesKey: ServiceKey { public typealias Service = any ServedRoutes }

extension AuthHandlers: ServedRoutes {}

/// What Auth adds to `moa-server`: its handlers, and who a request acts for — the user of its
/// bearer token (``RequestSession`` as `SessionProviderKey`) from the client it came from
/// (``RequestClientOrigin``).
public struct AuthServerModule: FeatureModule {
    public let name = "Auth"

    public init() {}

    public var providers: [Provider] {
        [
            .instance(SessionProviderKey.self, RequestSession()),
            .instance(ClientOriginKey.self, RequestClientOrigin()),
            .singleton(
                AuthRoutesKey.self, requires: SessionTokensKey.self, RegistrationKey.self, PasswordResetKey.self, AccountDeletionKey.self
            ) { tokens, registration, reset, deletion in
                AuthHandlers(
                    tokens: tokens, registration: registration, passwordReset: reset, deletion: deletion, passwordWork: PasswordWork())
            },
        ]
    }
}
