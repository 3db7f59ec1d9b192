import APIClient
import APITransport
import AccountDomain
import AccountRemote
import ArchiveDomain
import ArchiveRemote
import AuthDomain
import AuthInterface
import AuthRemote
import Foundation
import InboxDomain
import InboxRemote
import Persistence
import Registry
import SettingsData
import SettingsDomain
import SettingsInterface
import SettingsRemote
import SharedKit
import Storage
import TransferDomain
import TransferInterface
import TransferRemote

/// The providers that make `moa` a client of `moa-server`: the same keys the embedded app
/// registers — Auth's session rules, sign-up, reset and deletion; Account's, Transfer's and Inbox's
/// use cases; Settings' store; Archive's tickets and preferences — each replaced by its remote
/// implementation, through the registry's validated overriding (a key that nothing registers cannot
/// be replaced). Search, Archive's catalogue, the PIN and the display settings stay on this machine.
public enum RemoteComposition {
    /// - Parameter onSignedUp: runs once a sign-up or a login on the server succeeded (`moa` then
    ///   remembers a server given with `--server`: a mistyped one is never remembered).
    public static func replacements(
        for address: ServerAddress, onSignedUp: @escaping @Sendable () throws -> Void = {}
    ) -> [Provider] {
        let api = RemoteAPI(address: address)
        return [
            .singleton(SessionManagerKey.self, requires: SessionStoreKey.self, WallClockKey.self) { store, clock in
                SessionManager(
                    authority: RemoteSessionAuthority(api: api, clock: clock, onLoggedIn: onSignedUp), store: store, clock: clock,
                    origin: address.url.absoluteString)
            },
            .singleton(RegistrationKey.self) { RemoteRegistration(api: api, onSignedUp: onSignedUp) },
            .singleton(PasswordResetKey.self) { RemotePasswordReset(api: api) },
            .singleton(
                AccountDeletionKey.self, requires: SessionManagerKey.self, SessionStoreKey.self, AuthStoreKey.self,
                UnitOfWorkKey.self, UserDataOwnersKey.self
            ) { sessions, store, repository, unitOfWork, owners in
                // After the server, this machine's share (Archive, settings): the embedded deletion, on the local database.
                let local = AccountDeletion(
                    sessions: sessions, repository: repository, store: store, unitOfWork: unitOfWork, owners: owners)
                return RemoteAccountDeletion(api: api.authorized(by: sessions), sessions: sessions, local: local)
            },
            .singleton(PinStoreKey.self) { RemotePins() },
            .singleton(AccountServiceKey.self, requires: SessionManagerKey.self) {
                RemoteAccounts(api: api.authorized(by: $0), sessions: $0)
            },
            .singleton(SendMoneyKey.self, requires: SessionManagerKey.self) { RemoteTransfers(api: api.authorized(by: $0)) },
            .singleton(TransferStarterKey.self, requires: SessionManagerKey.self) { RemoteTransfers(api: api.authorized(by: $0)) },
            .singleton(TransferReadingKey.self, requires: SessionManagerKey.self) { RemoteTransfers(api: api.authorized(by: $0)) },
            .singleton(RecipientBookKey.self, requires: SessionManagerKey.self) { RemoteTransfers(api: api.authorized(by: $0)) },
            .singleton(InboxServiceKey.self, requires: SessionManagerKey.self) { RemoteInbox(api: api.authorized(by: $0)) },
            // A person's tickets and preferences follow them to every machine; the catalogue is each machine's own.
            .singleton(TicketStoreKey.self, requires: SessionManagerKey.self) { RemoteTicketStore(api: api.authorized(by: $0)) },
            .singleton(PreferenceStoreKey.self, requires: SessionManagerKey.self) { RemotePreferenceStore(api: api.authorized(by: $0)) },
            // The money settings are the server's: no MOA_… variable or flag of this machine changes them here either.
            .singleton(SettingsManagerKey.self, requires: SettingsStoreKey.self, SettingsScopeSourceKey.self, SettingsOverridesKey.self) {
                store, scopes, overrides in
                let served = SettingKey.allCases.filter { RemoteSettingsStore.served.contains($0.name) }
                let variables = Set(served.map(\.environmentVariable))
                return SettingsManager(
                    store: store, scopes: scopes,
                    overrides: SettingsOverrides(overrides.values.filter { !RemoteSettingsStore.served.contains($0.key) }),
                    environment: ProcessInfo.processInfo.environment.filter { !variables.contains($0.key) })
            },
            .singleton(SettingsStoreKey.self, requires: DatabaseKey.self, WallClockKey.self, SessionManagerKey.self) {
                database, clock, sessions in
                RemoteSettingsStore(local: SQLiteSettingsStore(database: database, clock: clock), api: api.authorized(by: sessions))
            },
        ]
    }
}
