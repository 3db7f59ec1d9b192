import AuthInterface
import InboxInterface
import Persistence
import Registry
import SharedKit

// The providers of Auth's use cases that need other features' Interfaces (Inbox's publisher) or
// Core's unit of work. They live in the Domain because AuthData may not see InboxInterface;
// `AuthDataModule` lists them.

extension SessionManager {
    /// `SessionManagerKey`: log in and out, the current session, password change; security notices
    /// go to `InboxPublisherKey`.
    public static var provider: Provider {
        .singleton(
            SessionManagerKey.self, requires: AuthStoreKey.self, PasswordHasherKey.self, SecretGeneratorKey.self,
            SessionStoreKey.self, WallClockKey.self, InboxPublisherKey.self
        ) { repository, hasher, secrets, store, clock, inbox in
            SessionManager(repository: repository, hasher: hasher, secrets: secrets, store: store, clock: clock, inbox: inbox)
        }
    }
}

extension SessionTokens {
    /// `SessionTokensKey`: the token-based session use cases `moa-server` serves; security notices
    /// go to `InboxPublisherKey`.
    public static var provider: Provider {
        .singleton(
            SessionTokensKey.self, requires: AuthStoreKey.self, PasswordHasherKey.self, SecretGeneratorKey.self,
            WallClockKey.self, InboxPublisherKey.self, ClientOriginKey.self
        ) { repository, hasher, secrets, clock, inbox, origin in
            SessionTokens(repository: repository, hasher: hasher, secrets: secrets, clock: clock, inbox: inbox, origin: origin)
        }
    }

    /// `SessionTokensKey` on a server: the same, with the server's ``AccessCache`` (`AccessCacheKey`)
    /// remembering live access tokens, and every revocation forgetting them (``ForgettingAuthStore``).
    public static var serverProvider: Provider {
        .singleton(
            SessionTokensKey.self, requires: AuthStoreKey.self, PasswordHasherKey.self, SecretGeneratorKey.self,
            WallClockKey.self, InboxPublisherKey.self, ClientOriginKey.self, AccessCacheKey.self
        ) { repository, hasher, secrets, clock, inbox, origin, cache in
            SessionTokens(
                repository: ForgettingAuthStore(repository, cache: cache), hasher: hasher, secrets: secrets, clock: clock, inbox: inbox,
                origin: origin, accessCache: cache)
        }
    }
}

extension PinService {
    /// `PinServiceKey`: the PIN lockout and PIN removal notices go to `InboxPublisherKey`.
    public static var provider: Provider {
        .singleton(
            PinServiceKey.self, requires: PinStoreKey.self, PasswordHasherKey.self, SessionManagerKey.self,
            AuthStoreKey.self, WallClockKey.self, InboxPublisherKey.self
        ) { pins, hasher, sessions, events, clock, inbox in
            PinService(pins: pins, hasher: hasher, sessions: sessions, events: events, clock: clock, inbox: inbox)
        }
    }
}

extension PasswordReset {
    /// `PasswordResetKey`: codes go through `MailSenderKey`, the notice to `InboxPublisherKey`;
    /// wrong codes count against `ClientOriginKey`'s client.
    public static var provider: Provider {
        .singleton(
            PasswordResetKey.self, requires: AuthStoreKey.self, PasswordHasherKey.self, SecretGeneratorKey.self,
            MailSenderKey.self, WallClockKey.self, InboxPublisherKey.self, ClientOriginKey.self
        ) { repository, hasher, secrets, mail, clock, inbox, origin in
            PasswordReset(
                repository: repository, hasher: hasher, secrets: secrets, mail: mail, clock: clock, inbox: inbox, origin: origin)
        }
    }

    /// `PasswordResetKey` on a server: a reset forgets the user's remembered tokens (``ForgettingAuthStore``).
    public static var serverProvider: Provider {
        .singleton(
            PasswordResetKey.self, requires: AuthStoreKey.self, PasswordHasherKey.self, SecretGeneratorKey.self,
            MailSenderKey.self, WallClockKey.self, InboxPublisherKey.self, ClientOriginKey.self, AccessCacheKey.self
        ) { repository, hasher, secrets, mail, clock, inbox, origin, cache in
            PasswordReset(
                repository: ForgettingAuthStore(repository, cache: cache), hasher: hasher, secrets: secrets, mail: mail, clock: clock,
                inbox: inbox, origin: origin)
        }
    }
}

extension AccountDeletion {
    /// `AccountDeletionKey`: deletes the terminal's user (`SessionProviderKey`, then its session
    /// file), with every feature's owner from `UserDataOwnersKey` (the App lists them), in one
    /// `UnitOfWorkKey` transaction.
    public static var provider: Provider {
        .singleton(
            AccountDeletionKey.self, requires: SessionProviderKey.self, AuthStoreKey.self, SessionStoreKey.self,
            UnitOfWorkKey.self, UserDataOwnersKey.self
        ) { sessions, repository, store, unitOfWork, owners in
            AccountDeletion(sessions: sessions, repository: repository, store: store, unitOfWork: unitOfWork, owners: owners)
        }
    }

    /// `AccountDeletionKey` on a server: deletes the request's user (`SessionProviderKey`); there is
    /// no session file, and the user's sessions are erased with the user.
    public static var serverProvider: Provider {
        .singleton(
            AccountDeletionKey.self, requires: SessionProviderKey.self, AuthStoreKey.self, UnitOfWorkKey.self,
            UserDataOwnersKey.self, AccessCacheKey.self
        ) { sessions, repository, unitOfWork, owners, cache in
            AccountDeletion(
                sessions: sessions, repository: ForgettingAuthStore(repository, cache: cache), store: nil, unitOfWork: unitOfWork,
                owners: owners)
        }
    }
}
