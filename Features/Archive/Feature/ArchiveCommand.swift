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
import ViewModelKit

/// Archive's command group, collected by the App's root.
public enum ArchiveCommandsKey: ServiceKey {
    public typealias Service = FeatureCommands
}

/// What Archive's commands and screens run with.
public struct ArchiveEnvironment: Sendable {
    let service: ArchiveService
    let importer: CatalogueImporter
    let sources: any CatalogueSources
    let catalogue: any EventCatalogue
    let settings: any SettingsReader
    let writer: any ExportWriting
}

/// `moa archive …`
public struct ArchiveCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Import Seoul's cultural-event catalogue, archive the events you attended, see your taste and what to see next.",
        subcommands: [
            Import.self, Events.self, Add.self, List.self, Remove.self, Taste.self, Recommend.self, Preferences.self, Export.self,
        ]
    )

    public init() {}
}
