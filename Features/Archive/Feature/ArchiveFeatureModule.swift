import ArchiveDomain
import ArchiveInterface
import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Registry
import SettingsInterface
import SharedKit
import Synchronization

/// What Archive's Feature layer provides: the ticket use cases (bound to the session), "archive
/// this event" for other features, Archive's share of deleting a user (`ArchiveUserDataKey`, for the
/// App's `UserDataOwnersKey`), and the commands.
public struct ArchiveFeatureModule: FeatureModule {
    public let name = "Archive"
    private let timeZone: TimeZone

    /// - Parameter timeZone: where "today" is decided (the user's, by default).
    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    public var providers: [Provider] {
        let timeZone = timeZone
        return [
            .singleton(
                ArchiveServiceKey.self, requires: TicketStoreKey.self, CatalogueStoreKey.self, PreferenceStoreKey.self,
                SessionProviderKey.self,
                WallClockKey.self
            ) {
                ArchiveService(tickets: $0, catalogue: $1, preferences: $2, session: $3, clock: $4, timeZone: timeZone)
            },
            .singleton(EventArchivingKey.self, requires: ArchiveServiceKey.self) { $0 },
            ArchiveUserData.provider,
            .singleton(
                ArchiveCommandsKey.self, requires: ArchiveServiceKey.self, CatalogueImporterKey.self, CatalogueSourcesKey.self,
                EventCatalogueKey.self, SettingsReaderKey.self, ExportWriterKey.self
            ) { service, importer, sources, catalogue, settings, writer in
                FeatureCommands(
                    ArchiveCommand.self,
                    environment: ArchiveEnvironment(
                        service: service, importer: importer, sources: sources,
                        catalogue: catalogue, settings: settings, writer: writer))
            },
            // The interactive home's entry: the same environment, so the same view model as the commands.
            .singleton(
                ArchiveHomeEntryKey.self, requires: ArchiveServiceKey.self, CatalogueImporterKey.self, CatalogueSourcesKey.self,
                EventCatalogueKey.self, SettingsReaderKey.self, ExportWriterKey.self
            ) { service, importer, sources, catalogue, settings, writer in
                ArchiveHome.entry(
                    environment: ArchiveEnvironment(
                        service: service, importer: importer, sources: sources, catalogue: catalogue, settings: settings, writer: writer))
            },
        ]
    }
}
