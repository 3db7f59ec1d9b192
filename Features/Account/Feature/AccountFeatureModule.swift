import AccountDomain
import AccountInterface
import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferInterface

/// What Account's Feature layer provides: its use cases (bound to the session), its commands, and its
/// share in deleting a user.
public struct AccountFeatureModule: FeatureModule {
    public let name = "Account"

    public init() {}

    public var providers: [Provider] {
        AccountService.providers + [
            .singleton(AccountCommandsKey.self, requires: AccountServiceKey.self) { service in
                FeatureCommands(AccountCommand.self, environment: AccountEnvironment(service: service))
            },
            .singleton(AccountHomeEntryKey.self, requires: AccountServiceKey.self, TransferStarterKey.self, RecipientsReadingKey.self) {
                AccountHome.entry(service: $0, transfers: $1, recipients: $2)
            },
        ]
    }
}
