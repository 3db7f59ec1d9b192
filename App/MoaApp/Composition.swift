import CommandKit
import Foundation
import Registry
import SharedKit
import Storage
import AuthData
import AuthFeature
// new-feature: imports

/// What the composed app resolves: everything the root command dispatches to.
public struct AppRoot: Sendable {
    public let commandGroups: [FeatureCommands]
}

public enum AppRootKey: ServiceKey {
    public typealias Service = AppRoot
    public static var expectedProvider: String { "App" }
}

/// The composition root: the only place where features' implementations meet.
///
/// Adding a feature means adding its modules, its migrations and its command key here; the
/// registry then proves, at start-up and in `AppTests`, that everything it requires is provided.
public enum Composition {
    /// Every feature's schema steps, in the order they are applied.
    public static let migrations: [MigrationSet] = [
        AuthMigrations.all,
        // new-feature: migrations
    ]

    /// Every feature's command group, in menu order; the root requires each of them.
    static let commandKeys: [any ServiceKey<FeatureCommands>.Type] = [
        AuthCommandsKey.self,
        // new-feature: command keys
    ]

    /// All modules of the app, given the infrastructure opened before composition.
    public static func modules(home: MoaHome, database: AppDatabase, clock: any WallClock = SystemWallClock()) -> [any FeatureModule] {
        [
            ModuleOf("Core", [
                .instance(MoaHomeKey.self, home),
                .instance(DatabaseKey.self, database),
                .instance(WallClockKey.self, clock),
            ]),
            AuthDataModule(), AuthFeatureModule(),
            // new-feature: modules
            ModuleOf("App", [appRoot()]),
        ]
    }

    /// The root requires every feature's command group (one key each, in menu order), so a feature
    /// whose commands are listed but not provided is a validation problem, not a crash.
    static func appRoot() -> Provider {
        .singleton(AppRootKey.self, requiresEach: commandKeys) { AppRoot(commandGroups: $0) }
    }

    /// Validates `modules` (all problems at once) into the registry the app runs on.
    public static func validate(_ modules: [any FeatureModule]) throws(RegistryProblems) -> ValidatedRegistry<AppRootKey> {
        try RegistryBuilder(modules: modules).validate(root: AppRootKey.self)
    }

    /// Opens `$MOA_HOME` and its database (applying migrations).
    public static func openInfrastructure(home: MoaHome) throws(StorageError) -> AppDatabase {
        try home.prepare()
        return try AppDatabase.open(at: home.databaseURL, migrations: migrations)
    }
}
