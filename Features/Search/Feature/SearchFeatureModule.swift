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
    private let loginSleep: @Sendable (Duration) async throws -> Void

    /// - Parameter loginSleep: how `moa search login` waits between polls (`Task.sleep`; tests pass a quicker one).
    public init(loginSleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.loginSleep = loginSleep
    }

    public var providers: [Provider] {
        let loginSleep = loginSleep
        return [
            .singleton(UserSearchServiceKey.self, requires: SettingsReaderKey.self, UserSearchStoreKey.self, SearchTokenVaultKey.self) {
                UserSearchService(settings: $0, repository: $1, vault: $2)
            },
            .singleton(GitHubLoginKey.self, requires: SettingsReaderKey.self, GitHubOAuthKey.self, SearchTokenVaultKey.self) {
                GitHubLogin(settings: $0, oauth: $1, vault: $2, sleep: loginSleep)
            },
            .singleton(UserProfileLookupKey.self, requires: UserSearchServiceKey.self) { $0 },
            .singleton(EventSearchServiceKey.self, requires: EventCatalogueKey.self, SettingsReaderKey.self) {
                EventSearchService(catalogue: $0, settings: $1)
            },
            .singleton(SearchCommandsKey.self, requires: UserSearchServiceKey.self, EventSearchServiceKey.self, GitHubLoginKey.self) {
                users, events, login in
                FeatureCommands(SearchCommand.self, environment: SearchEnvironment(users: users, events: events, login: login))
            },
            // The interactive home's entry; "archive this event" goes through Archive's Interface.
            .singleton(SearchHomeEntryKey.self, requires: UserSearchServiceKey.self, EventSearchServiceKey.self, EventArchivingKey.self) {
                SearchHome.entry(users: $0, events: $1, archiving: $2)
            },
        ]
    }
}
