// ArchiveExample: Archive alone — its real Domain, Data (on an in-memory database) and commands, with
// a fake session (AuthTesting) and fake settings (SettingsTesting). The bundled sample catalogue is
// imported and Ada has archived two events, so every command shows something.
//
//     Scripts/run-example Archive events --region 종로구
//     Scripts/run-example Archive taste
//     Scripts/run-example Archive recommend
//     Scripts/run-example Archive events --on 2026-12-24
//     Scripts/run-example Archive preferences choices
//     Scripts/run-example Archive export --format csv --bom
//     MOA_ARCHIVE_API_KEY=… Scripts/run-example Archive import --api --to 100   # the live API
import ArchiveData
import ArchiveDomain
import ArchiveFeature
import ArchiveInterface
import AuthTesting
import CommandKit
import Foundation
import Registry
import SettingsInterface
import SettingsTesting
import SharedKit
import Storage

exit(
    await CommandRunner.run(ArchiveCommand.self, arguments: Array(CommandLine.arguments.dropFirst())) { _, _ in
        let database = try AppDatabase.inMemory(migrations: [ArchiveMigrations.all])
        let registry = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: SystemWallClock()),
            AuthFakes(),
            // The archive.api-key setting, from MOA_ARCHIVE_API_KEY as in moa (unset: `import --api` says how to set it).
            SettingsFakes(reader: FakeSettingsReader(exampleSettings())),
            ArchiveDataModule(),
            ArchiveFeatureModule(),
            ModuleOf(
                "Example",
                [
                    .singleton(
                        ArchiveExampleRoot.self, requires: ArchiveCommandsKey.self, ArchiveServiceKey.self, CatalogueImporterKey.self,
                        EventCatalogueKey.self
                    ) {
                        ArchiveExampleRoot.Service(commands: $0, service: $1, importer: $2, catalogue: $3)
                    }
                ]),
        ]).validate(root: ArchiveExampleRoot.self)
        let root = registry.resolve()
        _ = try await root.importer.run(InMemoryCatalogueSource.sample)
        // Ada's tickets: sample events that have started by today (the sample's dates are fixed), else one by hand.
        let today = root.service.today()
        var seeded = 0
        for title in ["연극 '햄릿'", "〈한국 근현대 회화 100선〉", "뮤지컬 〈명성황후〉 30주년 기념 공연"] where seeded < 2 {
            let match = try await root.catalogue.search(EventQuery(text: title, perPage: 5)).events.first { $0.title == title }
            guard let event = match, event.startsOn <= today else { continue }
            _ = try await root.service.add(eventID: event.id.rawValue, rating: 5, memo: "예시 티켓")
            seeded += 1
        }
        if seeded < 2 {
            _ = try await root.service.addManual(
                ManualTicket(
                    title: "창작 뮤지컬 〈서울의 봄〉", category: "뮤지컬/오페라", district: "종로구",
                    isFree: false, attendedOn: today.adding(days: -30), rating: 4, memo: "예시"))
        }
        FileHandle.standardError.write(Data("(example data: the bundled sample catalogue and Ada's tickets, in memory)\n".utf8))
        return [root.commands]
    })

func exampleSettings() -> SettingsSnapshot {
    var settings = SettingsSnapshot.defaults
    let key = ProcessInfo.processInfo.environment["MOA_ARCHIVE_API_KEY"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    settings.archiveAPIKey = key.isEmpty ? nil : key
    return settings
}

enum ArchiveExampleRoot: ServiceKey {
    struct Service: Sendable {
        let commands: FeatureCommands
        let service: ArchiveService
        let importer: CatalogueImporter
        let catalogue: any EventCatalogue
    }
}
