import APIClient
import ArgumentParser
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
        return (Composition.modules(home: home, database: database, credentials: FileCredentialStore(home: home)), database, home)
    }

    /// Every command of `moa` names itself: a command without `commandName` makes ArgumentParser
    /// describe its type (`String(describing:)`) on every start of every command, and the first
    /// description of a type searches every protocol conformance of the binary — 36 such commands
    /// cost a release `moa` several milliseconds a run (Scripts/bench-client).
    @Test func everyCommandNamesItself() {
        var unnamed: [String] = []
        var commands: [any ParsableCommand.Type] = [MoaCommand.self]
        while let command = commands.popLast() {
            if command.configuration.commandName == nil { unnamed.append(String(reflecting: command)) }
            commands += command.configuration.subcommands
        }
        #expect(unnamed.isEmpty, "without commandName: \(unnamed.joined(separator: ", "))")
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
