// SettingsExample: Settings alone — its real Domain, Data (on an in-memory database) and commands,
// with Auth's FakeSessionProvider as the logged-in user (ada@example.com). Every run starts from
// the defaults; MOA_… variables and --no-color apply as in moa.
//
//     Scripts/run-example Settings list
//     MOA_DISPLAY_PAGE_SIZE=50 Scripts/run-example Settings get display.page-size
//     Scripts/run-example Settings set display.page-size 500      # refused: 1…200
//     Scripts/run-example Settings set archive.api-key --value-stdin < key.txt   # a secret, off the command line
import AuthTesting
import CommandKit
import Foundation
import Registry
import SettingsData
import SettingsDomain
import SettingsFeature
import SettingsInterface
import SharedKit
import Storage

exit(
    await CommandRunner.run(SettingsCommand.self, arguments: Array(CommandLine.arguments.dropFirst())) { command, _ in
        let database = try AppDatabase.inMemory(migrations: [SettingsMigrations.all])
        let global = (command as? any GlobalOptionsCommand)?.global ?? GlobalOptions()
        let registry = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: SystemWallClock()),
            SettingsDataModule(scope: SessionSettingsScope(session: FakeSessionProvider()), overrides: SettingsOverrides(global: global)),
            SettingsFeatureModule(),
        ]).validate(root: SettingsCommandsKey.self)
        return [registry.resolve()]
    })
