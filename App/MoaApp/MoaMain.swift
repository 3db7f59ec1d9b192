import APIClient
import APITransport
import ArgumentParser
import CommandKit
import DesignSystem
import Logging
import Registry
import SettingsFeature
import SettingsInterface
import Storage

/// The entry point of the `moa` executable: parse, locate `$MOA_HOME` (refusing an empty one, making
/// one that others can write to owner-only) and open it, compose and validate the registry, apply
/// the user's display settings, dispatch the command to its feature; every error becomes a message
/// (in the user's language when it has one) and an exit status.
public enum MoaMain {
    public static func run(arguments: [String]) async -> Int32 {
        bootstrapLogging(verbose: arguments.contains("--verbose"))
        return await CommandRunner.run(MoaCommand.self, arguments: arguments) { command, context in
            // The tour makes its own throwaway home and composition: the user's home is never opened.
            if command is TourCommand {
                let tour = FeatureCommands(TourCommand.self, environment: TourEnvironment(variables: context.environment))
                return .init(commands: [tour], context: context)
            }
            let global = (command as? any GlobalOptionsCommand)?.global ?? GlobalOptions()
            // An empty --home (64) or MOA_HOME (78) is refused before anything is created.
            let home = try MoaHome.locate(option: global.home, environment: context.environment)
            // A home other users can write to is made owner-only before the database in it is opened.
            for note in home.tightenPermissions() { context.err.writeLine(note) }
            // The bank: a moa-server (refused before any request when its address is unsafe), or the embedded one.
            let choosing = (command as? any ServerChoosingCommand)?.serverOptions
            let server = try ServerChoice.resolve(
                option: choosing?.server, allowInsecureHTTP: choosing?.allowInsecureHTTP ?? false, caFile: choosing?.caFile,
                environment: context.environment, home: home)
            // `--server embedded`: back to this machine's bank (the server's session, if any, is kept but not used).
            if server == nil, choosing?.server != nil { try ServerChoice.forget(in: home) }
            let database = try Composition.openInfrastructure(home: home)
            // Secrets: the system's credential store when it answers (asked on first use), else the home's files.
            let credentials = try CredentialStores.select(home: home, environment: context.environment)
            let modules = Composition.modules(
                home: home, database: database, credentials: credentials, overrides: SettingsOverrides(global: global))
            // The doctor runs on the unvalidated modules: its job is to report what validation finds.
            if command is DoctorCommand {
                let doctor = FeatureCommands(
                    DoctorCommand.self,
                    environment: DoctorEnvironment(
                        modules: modules, home: home, database: database, credentials: credentials, server: server))
                return .init(commands: [doctor], context: context)
            }
            // A server given with --server is remembered once a sign-up or a login on it succeeded.
            let remember: @Sendable () throws -> Void = {
                if let server, choosing?.server != nil {
                    try ServerChoice.remember(server, withCAFile: choosing?.caFile != nil, in: home)
                }
            }
            let root = try Composition.validate(modules, server: server, onSignedUp: remember).resolve()
            let interactive = FeatureCommands(
                MoaCommand.self, environment: HomeEnvironment(entries: root.homeEntries, session: root.session, unlocker: root.unlocker))
            return .init(commands: root.commandGroups + [interactive], context: await displaySettings(root.settings, context, global))
        }
    }

    /// `--verbose`: every module's logs (already redacted where they carry requests) go to standard
    /// error at debug level; otherwise only warnings and errors do. Terminal-safe either way.
    static func bootstrapLogging(verbose: Bool) {
        LoggingSystem.bootstrap { label in TerminalLogHandler(label: label, level: verbose ? .debug : .warning) }
    }

    /// The context with the user's language and colour. Settings that cannot be read (say, an invalid
    /// `MOA_…` variable) leave the defaults: the command that needs them reports the problem.
    static func displaySettings(_ settings: any SettingsReader, _ context: CommandContext, _ global: GlobalOptions) async -> CommandContext
    {
        guard let snapshot = try? await settings.snapshot() else { return context }
        let mode: ColorMode =
            switch snapshot.color {
            case .auto: .auto
            case .always: .always
            case .never: .never
            }
        return context.with(language: snapshot.language, colorMode: mode, noColorFlag: global.noColor)
    }
}
