import AuthDomain
import AuthInterface
import Persistence
import Registry
import SharedKit
import Storage

/// What Auth's Data layer provides: its repository, hasher, secrets, mail sender and session file,
/// and from them the use cases — one ``SessionManager`` shared by Auth's commands and, as
/// `SessionProviderKey`, by every other feature; password reset; account deletion.
///
/// Requires `DatabaseKey`, `MoaHomeKey`, `WallClockKey`, `UnitOfWorkKey`, `CredentialStoreKey` (Core; the
/// terminal's session only),
/// `InboxPublisherKey` (Inbox) and `UserDataOwnersKey` (App: every feature's `UserDataOwner`).
public struct AuthDataModule: FeatureModule {
    /// Whose sessions the composition serves.
    public enum Sessions: Sendable {
        /// One person at a terminal (`moa`): the session file, ``SessionManager`` as
        /// `SessionProviderKey`, the PIN.
        case terminal
        /// Every request its own user (`moa-server`): ``SessionTokens`` (`SessionTokensKey`) with an
        /// ``AccessCache`` (`AccessCacheKey`: how long a token revoked elsewhere may pass); the
        /// composition root provides `SessionProviderKey` (the request's user) and `ClientOriginKey`
        /// (the request's client), and there is no session file and no PIN.
        case perRequest
    }

    public let name = "Auth"
    private let sessions: Sessions
    private let stores: StoreEngine
    private let passwordCost: ScryptParameters

    /// - Parameters:
    ///   - stores: SQLite, or `.providedByRoot` (the root provides ``sqliteStores``' key itself).
    ///   - passwordCost: scrypt's cost for passwords and PINs (``ScryptParameters/owasp``; tests may lower it).
    public init(sessions: Sessions = .terminal, stores: StoreEngine = .sqlite, passwordCost: ScryptParameters = .owasp) {
        self.sessions = sessions
        self.stores = stores
        self.passwordCost = passwordCost
    }

    /// Auth's store on SQLite (requiring `DatabaseKey`): `AuthStoreKey`. (The PIN's, terminal
    /// only, stays with the terminal's providers.)
    public static var sqliteStores: [Provider] {
        [.singleton(AuthStoreKey.self, requires: DatabaseKey.self) { SQLiteAuthStore(database: $0) }]
    }

    public var providers: [Provider] {
        let shared: [Provider] =
            (stores == .sqlite ? Self.sqliteStores : []) + [
                .singleton(PasswordHasherKey.self) { [passwordCost] in ScryptPasswordHasher(parameters: passwordCost) },
                .singleton(SecretGeneratorKey.self) { RandomSecretGenerator() },
                .singleton(MailSenderKey.self, requires: MoaHomeKey.self, WallClockKey.self) { home, clock in
                    OutboxMailSender(folder: home.outboxURL, clock: clock)
                },
            ]
        switch sessions {
        case .perRequest:
            // One AccessCache: live access tokens let requests in without a read; revocations forget them.
            // Every use case that can revoke a session gets the store through ForgettingAuthStore: a
            // verification redeems a reset code too (replacing the password, ending every session).
            return shared + [
                .singleton(AccessCacheKey.self) { AccessCache() }, SessionTokens.serverProvider, PasswordReset.serverProvider,
                AccountDeletion.serverProvider,
                .singleton(
                    RegistrationKey.self,
                    requires: AuthStoreKey.self, PasswordHasherKey.self, SecretGeneratorKey.self, MailSenderKey.self, WallClockKey.self,
                    ClientOriginKey.self, AccessCacheKey.self
                ) { repository, hasher, secrets, mail, clock, origin, cache in
                    Registration(
                        repository: ForgettingAuthStore(repository, cache: cache), hasher: hasher, secrets: secrets, mail: mail,
                        clock: clock, origin: origin)
                },
            ]
        case .terminal:
            return shared + [
                PasswordReset.provider,
                .singleton(
                    RegistrationKey.self,
                    requires: AuthStoreKey.self, PasswordHasherKey.self, SecretGeneratorKey.self, MailSenderKey.self, WallClockKey.self,
                    ClientOriginKey.self
                ) { repository, hasher, secrets, mail, clock, origin in
                    Registration(repository: repository, hasher: hasher, secrets: secrets, mail: mail, clock: clock, origin: origin)
                },
            ] + terminal
        }
    }

    private var terminal: [Provider] {
        [
            .instance(ClientOriginKey.self, ThisTerminal()),
            .singleton(SessionStoreKey.self, requires: MoaHomeKey.self, CredentialStoreKey.self) {
                FileSessionStore(url: $0.sessionURL, credentials: $1)
            },
            SessionManager.provider, // requires InboxPublisherKey: in the Domain, which may see InboxInterface
            .singleton(SessionProviderKey.self, requires: SessionManagerKey.self) { $0 },
            .singleton(PinStoreKey.self, requires: DatabaseKey.self) { SQLitePinStore(database: $0) },
            PinService.provider, // requires InboxPublisherKey, like the session manager
            .singleton(SessionUnlockerKey.self, requires: PinServiceKey.self) { $0 },
            AccountDeletion.provider, // requires UnitOfWorkKey (Core) and UserDataOwnersKey (App)
        ]
    }
}
