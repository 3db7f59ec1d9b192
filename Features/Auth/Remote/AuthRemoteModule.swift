import APIClient
import AuthDomain
import AuthInterface
import Persistence
import Registry
import SharedKit

/// What changes in Auth when `moa` is a client of `moa-server`: the session's rules, sign-up,
/// password reset and deletion are the server's; the session itself and the PIN stay on this
/// machine. Auth also adds the signed-in connection every other feature's remote use cases share.
public enum AuthRemoteModule {
    /// `SignedInAPIKey`, which the embedded app does not have: `api` with the session's access
    /// token on every request (refreshed once on a 401).
    public static func signedIn(_ api: RemoteAPI) -> Provider {
        .singleton(SignedInAPIKey.self, requires: SessionManagerKey.self) { api.authorized(by: $0) }
    }

    /// The replacements of `SessionManagerKey`, `RegistrationKey`, `PasswordResetKey`,
    /// `AccountDeletionKey` and `PinStoreKey`.
    /// - Parameter onSignedUp: runs once a sign-up or a login on the server succeeded.
    public static func replacements(_ api: RemoteAPI, onSignedUp: @escaping @Sendable () throws -> Void) -> [Provider] {
        [
            .singleton(SessionManagerKey.self, requires: SessionStoreKey.self, WallClockKey.self) { store, clock in
                SessionManager(
                    authority: RemoteSessionAuthority(api: api, clock: clock, onLoggedIn: onSignedUp), store: store, clock: clock,
                    origin: api.address.url.absoluteString)
            },
            .singleton(RegistrationKey.self) { RemoteRegistration(api: api, onSignedUp: onSignedUp) },
            .singleton(PasswordResetKey.self) { RemotePasswordReset(api: api) },
            .singleton(
                AccountDeletionKey.self, requires: SessionManagerKey.self, SignedInAPIKey.self, SessionStoreKey.self, AuthStoreKey.self,
                UnitOfWorkKey.self, UserDataOwnersKey.self
            ) { sessions, signedIn, store, repository, unitOfWork, owners in
                // After the server, this machine's share (Archive, settings): the embedded deletion, on the local database.
                let local = AccountDeletion(
                    sessions: sessions, repository: repository, store: store, unitOfWork: unitOfWork, owners: owners)
                return RemoteAccountDeletion(api: signedIn, sessions: sessions, local: local)
            },
            .singleton(PinStoreKey.self) { RemotePins() },
        ]
    }
}
