import ArgumentParser
import CommandKit
import Foundation
import Registry
import SharedKit
import Storage

/// The entry point of the `moa` executable: parse, open `$MOA_HOME`, compose and validate the
/// registry, dispatch the command to its feature, and turn every error into a message and an exit
/// status.
public enum MoaMain {
    public static func run(arguments: [String]) async -> Int32 {
        let parsed: any ParsableCommand
        do {
            parsed = try MoaCommand.parseAsRoot(arguments)
        } catch {
            // --help, --version and usage mistakes: ArgumentParser's own text and exit code (64 for usage).
            let code = MoaCommand.exitCode(for: error)
            let text = MoaCommand.fullMessage(for: error)
            let stream = code == .success ? FileHandle.standardOutput : FileHandle.standardError
            if !text.isEmpty { stream.write(Data((text + "\n").utf8)) }
            return code.rawValue
        }

        guard let command = parsed as? any GlobalOptionsCommand, !(parsed is MoaCommand) else {
            print(MoaCommand.helpMessage())
            return ExitStatus.ok.rawValue
        }
        let context = CommandContext.live(options: command.global)
        do {
            let home = MoaHome.resolve(option: command.global.home, environment: context.environment)
            let database = try Composition.openInfrastructure(home: home)
            let modules = Composition.modules(home: home, database: database)

            if let doctor = parsed as? DoctorCommand {
                return runDoctor(doctor, modules: modules, home: home, database: database, context: context)
            }
            let registry = try Composition.validate(modules)
            for group in registry.resolve().commandGroups where try await group.run(parsed, context: context) {
                return ExitStatus.ok.rawValue
            }
            throw CommandError.internalFailure("No feature runs `\(type(of: parsed)._commandName)`: its command group is not composed.")
        } catch let error as any UserFacingError {
            return context.report(error).rawValue
        } catch {
            return context.report(CommandError.internalFailure("Unexpected error: \(error)")).rawValue
        }
    }

    static func runDoctor(_ doctor: DoctorCommand, modules: [any FeatureModule], home: MoaHome, database: AppDatabase,
                          context: CommandContext) -> Int32 {
        let report = Doctor.report(modules: modules, without: doctor.without, home: home, database: database)
        if context.json {
            do {
                try context.printJSON(report)
            } catch {
                return context.report(error).rawValue
            }
        } else {
            context.out.write(Doctor.render(report, theme: context.theme))
        }
        return report.ok ? ExitStatus.ok.rawValue : ExitStatus.software.rawValue
    }
}
