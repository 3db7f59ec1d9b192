import ArgumentParser
import CommandKit
import Registry
import Storage

/// The entry point of the `moa` executable: parse, open `$MOA_HOME`, compose and validate the
/// registry, dispatch the command to its feature; every error becomes a message and an exit status.
public enum MoaMain {
    public static func run(arguments: [String]) async -> Int32 {
        await CommandRunner.run(MoaCommand.self, arguments: arguments) { command, context in
            let homeOption = (command as? any GlobalOptionsCommand)?.global.home
            let home = MoaHome.resolve(option: homeOption, environment: context.environment)
            let database = try Composition.openInfrastructure(home: home)
            let modules = Composition.modules(home: home, database: database)
            // The doctor runs on the unvalidated modules: its job is to report what validation finds.
            let doctor = FeatureCommands(DoctorCommand.self, environment: DoctorEnvironment(modules: modules, home: home, database: database))
            if command is DoctorCommand { return [doctor] }
            return try Composition.validate(modules).resolve().commandGroups
        }
    }
}
