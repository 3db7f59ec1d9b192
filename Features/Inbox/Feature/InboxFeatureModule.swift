import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import InboxDomain
import InboxInterface
import Registry
import SharedKit

/// What Inbox's Feature layer provides: its use cases (bound to the session), its commands, and its
/// share in deleting a user.
public struct InboxFeatureModule: FeatureModule {
    public let name = "Inbox"

    public init() {}

    public var providers: [Provider] {
        InboxService.providers + [
            .singleton(InboxCommandsKey.self, requires: InboxServiceKey.self) { service in
                FeatureCommands(InboxCommand.self, environment: InboxEnvironment(service: service))
            },
            .singleton(InboxHomeEntryKey.self, requires: InboxServiceKey.self) { InboxHome.entry(service: $0) },
        ]
    }
}
