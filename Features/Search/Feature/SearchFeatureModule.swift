import ArchiveInterface
import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Registry
import SearchDomain
import SearchInterface
import SettingsInterface
import SharedKit

/// What Search's Feature layer provides: the use cases (bound to Settings and Archive's catalogue,
/// through their Interfaces) and the commands.
public struct SearchFeatureModule: FeatureModule {
    public let name = "Search"

    public init() {}

    public var providers: [Provider] {
        [
            .singleton(UserSearchServiceKey.self, requires: SettingsReaderKey.self, UserSearchStoreKey.self) {
                UserSearchService(settings: $0, repository: $1)
            },
            .singleton(UserProfileLookupKey.self, requires: UserSearchServiceKey.self) { $0 },
            .singleton(EventSearchServiceKey.self, requires: EventCatalogueKey.self, SettingsReaderKey.self) {
                EventSearchService(catalogue: $0, settings: $1)
            },
            .singleton(SearchCommandsKey.self, requires: UserSearchServiceKey.self, EventSearchServiceKey.self) { users, events in
                FeatureCommands(SearchCommand.self, environment: SearchEnvironment(users: users, events: events))
            },
            // The interactive home's entry; "archive this event" goes through Archive's Interface.
            .singleton(SearchHomeEntryKey.self, requires: UserSearchServiceKey.self, EventSearchServiceKey.self, EventArchivingKey.self) {
                SearchHome.entry(users: $0, events: $1, archiving: $2)
            },
        ]
    }
}
