import APIClient
import Foundation
import Registry
import Storage
import Testing

@testable import MoaApp

@Suite("Composition")
struct CompositionTests {
    private func modules() throws -> (modules: [any FeatureModule], database: AppDatabase, home: MoaHome) {
        let database = try AppDatabase.temporary(migrations: Composition.migrations)
        let home = MoaHome(root: URL(fileURLWithPath: database.path).deletingLastPathComponent())
        return (Composition.modules(home: home, database: database), database, home)
    }

    @Test func theAppsCompositionIsCompleteAndValid() throws {
        let (modules, _, _) = try modules()
        let registry = try Composition.validate(modules)
        #expect(registry.catalogue.map(\.key.name).contains("DatabaseKey"))
        #expect(registry.resolve().commandGroups.count == MoaCommand.configuration.subcommands.count - 2) // all but doctor and tour
    }

    /// `moa --server URL`: every served feature's keys replaced by its remote module, once each, on
    /// the signed-in connection Auth adds; the composition resolves without touching the network.
    @Test func aServerReplacesTheServedKeysOnTheSignedInConnection() throws {
        let (modules, _, _) = try modules()
        let remote = try Composition.validate(modules, server: try ServerAddress("http://127.0.0.1:1", origin: .option))
        let overridden = Set(remote.catalogue.filter { $0.module == "override" }.map(\.key.name))
        let served: Set = [
            "SignedInAPIKey", "SessionManagerKey", "AccountDeletionKey", "AccountServiceKey", "SendMoneyKey", "TransferReadingKey",
            "InboxServiceKey", "SettingsStoreKey", "SettingsManagerKey", "TicketStoreKey", "PreferenceStoreKey",
        ]
        #expect(served.isSubset(of: overridden))
        #expect(!overridden.contains("LocalSettingsStoreKey") && !overridden.contains("DatabaseKey"))
        #expect(remote.resolve().commandGroups.count == (try Composition.validate(modules)).resolve().commandGroups.count)
    }

    @Test func everyRootSubcommandIsRunByAComposedGroup() throws {
        let (modules, _, _) = try modules()
        let groups = try Composition.validate(modules).resolve().commandGroups
        let grouped = Set(groups.map { ObjectIdentifier($0.command) })
        for command in MoaCommand.configuration.subcommands where command != DoctorCommand.self && command != TourCommand.self {
            #expect(grouped.contains(ObjectIdentifier(command)), "\(command) has no command group in the composition")
        }
    }

    @Test func removingAProviderIsReportedByNameAndTheDoctorFails() throws {
        let (modules, database, home) = try modules()
        let report = Doctor.report(modules: modules, without: ["SessionManagerKey"], home: home, database: database)
        #expect(!report.ok)
        #expect(
            report.problems.contains(
                "missing SessionManagerKey (SessionManager): required by Auth to make AuthCommandsKey, expected from Auth, which does not provide it"
            ))
        #expect(!report.providers.contains { $0.key == "SessionManagerKey" })
    }
}
