import APIClient
import AccountData
import AccountDomain
import AccountFeature
import ArchiveData
import ArchiveDomain
import ArchiveFeature
import AuthData
import AuthFeature
import AuthInterface
import CommandKit
import Foundation
import InboxData
import InboxDomain
import InboxFeature
import Persistence
import Registry
import SearchData
import SearchFeature
import SettingsData
import SettingsDomain
import SettingsFeature
import SettingsInterface
import SharedKit
import Storage
import TransferData
import TransferDomain
import TransferFeature

// new-feature: imports

/// What the composed app resolves: everything the root command dispatches to.
public struct AppRoot: Sendable {
    public let commandGroups: [FeatureCommands]
    /// The user's settings (language and colour apply to every command's output).
    public let settings: any SettingsReader
    /// The interactive mode's home screen entries, in menu order.
    public let homeEntries: [HomeEntry]
    /// Who is logged in (for the home screen).
    public let session: any SessionProvider
    /// The PIN prompt's unlock, asked before the interactive home (Auth).
    public let unlocker: any SessionUnlocker
    /// The features' invariants on the live database, run by `moa doctor`.
    public let checks: [any ConsistencyCheck]
}

/// Every feature's command group, in menu order.
enum CommandGroupsKey: ServiceKey {
    typealias Service = [FeatureCommands]
    static var expectedProvider: String { "App" }
}

/// The interactive home's entries.
enum HomeEntriesKey: ServiceKey {
    typealias Service = [HomeEntry]
    static var expectedProvider: String { "App" }
}

/// Every feature's consistency check.
enum ChecksKey: ServiceKey {
    typealias Service = [any ConsistencyCheck]
    static var expectedProvider: String { "App" }
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
    /// Every feature of the app, in menu order: its command, its command group's key, its schema and
    /// its modules. Adding a feature adds one entry here (Scripts/new-feature does); the root command's
    /// subcommands, the migrations, the command keys and the modules all derive from this list.
    static let features: [AppFeature] = [
        AppFeature(AuthCommand.self, AuthCommandsKey.self, AuthMigrations.all) { context in
            [AuthDataModule(passwordCost: .chosen(by: context.environment)), AuthFeatureModule()]
        },
        AppFeature(SettingsCommand.self, SettingsCommandsKey.self, SettingsMigrations.all) { context in
            [SettingsDataModule(overrides: nil, environment: context.environment), SettingsFeatureModule()]
        },
        AppFeature(AccountCommand.self, AccountCommandsKey.self, AccountMigrations.all) { _ in
            [AccountDataModule(), AccountFeatureModule()]
        },
        AppFeature(TransferCommand.self, TransferCommandsKey.self, TransferMigrations.all) { _ in
            [TransferDataModule(), TransferFeatureModule()]
        },
        AppFeature(SearchCommand.self, SearchCommandsKey.self, SearchMigrations.all) { _ in
            [SearchDataModule(configuration: SearchAPIConfiguration(userAgent: "moa/\(MoaVersion.current)")), SearchFeatureModule()]
        },
        AppFeature(ArchiveCommand.self, ArchiveCommandsKey.self, ArchiveMigrations.all) { _ in
            [ArchiveDataModule(), ArchiveFeatureModule()]
        },
        AppFeature(InboxCommand.self, InboxCommandsKey.self, InboxMigrations.all) { _ in [InboxDataModule(), InboxFeatureModule()] },
        // new-feature: features
    ]

    /// Every feature's schema steps, in the order they are applied.
    public static let migrations: [MigrationSet] = features.map(\.migrations)

    /// Every feature's command group, in menu order; the root requires each of them.
    static let commandKeys: [any ServiceKey<FeatureCommands>.Type] = features.map(\.commandKey)

    /// The interactive home's entries, in menu order (features add theirs).
    static let homeKeys: [any ServiceKey<HomeEntry>.Type] = [
        AuthSignInEntryKey.self,
        AccountHomeEntryKey.self,
        SearchHomeEntryKey.self,
        ArchiveHomeEntryKey.self,
        InboxHomeEntryKey.self,
        SettingsHomeEntryKey.self,
        AuthSignOutEntryKey.self,
    ]

    /// Every feature's share in deleting a user (`moa auth delete`), in the order they erase: all are
    /// asked for blockers first, then all erase, in one transaction. A feature that keeps data about
    /// users adds its key here (the registry then proves it is provided).
    static let userDataKeys: [any ServiceKey<any UserDataOwner>.Type] = [
        TransferUserDataKey.self,
        AccountUserDataKey.self,
        InboxUserDataKey.self,
        ArchiveUserDataKey.self,
        SettingsUserDataKey.self,
    ]

    /// Every feature's consistency check, run by `moa doctor`.
    static let checkKeys: [any ServiceKey<any ConsistencyCheck>.Type] = [
        LedgerCheckKey.self
    ]

    /// All modules of the app, given the infrastructure opened before composition. `environment`: where
    /// Settings reads its `MOA_…` variables (the process environment; `moa tour` passes a filtered one).
    /// `credentials`: where secrets are kept (``CredentialStores/select(home:environment:)``).
    public static func modules(
        home: MoaHome, database: AppDatabase, credentials: any CredentialStore, clock: any WallClock = SystemWallClock(),
        overrides: SettingsOverrides = SettingsOverrides(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [any FeatureModule] {
        [
            ModuleOf.core(
                database: database, clock: clock, home: home, credentials: credentials,
                extra: [.instance(SettingsOverridesKey.self, overrides)])
        ] + features.flatMap { $0.modules(AppFeature.Context(environment: environment)) } + [
            ModuleOf("App", [appRoot()] + collections())
        ]
    }

    /// The root requires every feature's command group (one key each, in menu order), so a feature
    /// whose commands are listed but not provided is a validation problem, not a crash.
    static func appRoot() -> Provider {
        .singleton(
            AppRootKey.self, requires: CommandGroupsKey.self, SettingsReaderKey.self, HomeEntriesKey.self,
            SessionProviderKey.self, ChecksKey.self, SessionUnlockerKey.self
        ) {
            AppRoot(commandGroups: $0, settings: $1, homeEntries: $2, session: $3, unlocker: $5, checks: $4)
        }
    }

    static func collections() -> [Provider] {
        [
            .singleton(CommandGroupsKey.self, requiresEach: commandKeys) { $0 },
            .singleton(ChecksKey.self, requiresEach: checkKeys) { $0 },
            .singleton(HomeEntriesKey.self, requiresEach: homeKeys) { $0 },
            .singleton(UserDataOwnersKey.self, requiresEach: userDataKeys) { $0 },
        ]
    }

    /// Validates `modules` (all problems at once) into the registry the app runs on; with a
    /// `server`, the use cases it serves are replaced by their remote implementations
    /// (``RemoteComposition``), validated again.
    /// `onSignedUp`: what to do once a sign-up or a login on the server succeeded (remember it).
    public static func validate(
        _ modules: [any FeatureModule], server: ServerAddress? = nil, onSignedUp: @escaping @Sendable () throws -> Void = {}
    ) throws(RegistryProblems) -> ValidatedRegistry<AppRootKey> {
        let embedded = try RegistryBuilder(modules: modules).validate(root: AppRootKey.self)
        guard let server else { return embedded }
        return try embedded.overriding { RemoteComposition.override(&$0, for: server, onSignedUp: onSignedUp) }
    }

    /// Opens `$MOA_HOME` and its database (applying migrations).
    public static func openInfrastructure(home: MoaHome) throws(StorageError) -> AppDatabase {
        try home.prepare()
        return try AppDatabase.open(at: home.databaseURL, migrations: migrations)
    }
}
