import ArgumentParser
import AuthDomain
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Registry

/// What Auth's Feature layer provides: its commands.
public struct AuthFeatureModule: FeatureModule {
    public let name = "Auth"

    public init() {}

    public var providers: [Provider] {
        [
            .singleton(
                AuthCommandsKey.self, requires: RegistrationKey.self, SessionManagerKey.self, PinServiceKey.self,
                PasswordResetKey.self, AccountDeletionKey.self
            ) { registration, sessions, pins, reset, deletion in
                FeatureCommands(
                    AuthCommand.self,
                    environment: AuthEnvironment(
                        registration: registration, sessions: sessions, pins: pins,
                        passwordReset: reset, deletion: deletion))
            },
            .singleton(
                AuthSignInEntryKey.self, requires: RegistrationKey.self, SessionManagerKey.self, PinServiceKey.self,
                PasswordResetKey.self, AccountDeletionKey.self
            ) {
                AuthHome.signIn(AuthEnvironment(registration: $0, sessions: $1, pins: $2, passwordReset: $3, deletion: $4))
            },
            .singleton(
                AuthSignOutEntryKey.self, requires: RegistrationKey.self, SessionManagerKey.self, PinServiceKey.self,
                PasswordResetKey.self, AccountDeletionKey.self
            ) {
                AuthHome.signOut(AuthEnvironment(registration: $0, sessions: $1, pins: $2, passwordReset: $3, deletion: $4))
            },
        ]
    }
}
