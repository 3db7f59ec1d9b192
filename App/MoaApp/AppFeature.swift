import ArgumentParser
import CommandKit
import Registry
import Storage

/// One feature as the composition root knows it: the one entry ``Composition/features`` lists per
/// feature, from which the root command's subcommands, the migrations, the command keys and the
/// modules are all derived.
struct AppFeature: Sendable {
    /// What a feature's modules may take from the run that composes them.
    struct Context: Sendable {
        /// Where `MOA_…` variables are read (the process environment; `moa tour` passes a filtered one).
        let environment: [String: String]
    }

    /// The feature's top-level command (e.g. `account`), a subcommand of `moa`.
    let command: any ParsableCommand.Type
    /// The key of the command group its Feature module provides; the root requires it.
    let commandKey: any ServiceKey<FeatureCommands>.Type
    /// Its schema steps.
    let migrations: MigrationSet
    /// Its Data and Feature modules.
    let modules: @Sendable (Context) -> [any FeatureModule]

    init(
        _ command: any ParsableCommand.Type, _ commandKey: any ServiceKey<FeatureCommands>.Type, _ migrations: MigrationSet,
        modules: @escaping @Sendable (Context) -> [any FeatureModule]
    ) {
        self.command = command
        self.commandKey = commandKey
        self.migrations = migrations
        self.modules = modules
    }
}
