import ArgumentParser
import CommandKit
import DesignSystem
import Persistence
import Registry
import SharedKit
import Storage

/// `moa doctor`: who provides what, where the data lives, and whether the composition is sound.
struct DoctorCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the installation: providers, database, schema.",
        discussion: "Exits 0 when every interface has exactly one provider, 70 when the composition is broken."
    )

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("without"),
        help: ArgumentHelp("Check the composition as if this key had no provider (e.g. DatabaseKey): what would break.", valueName: "key"))
    var without: [String] = []

    func run(in environment: DoctorEnvironment, context: CommandContext) async throws {
        var report = Doctor.report(modules: environment.modules, without: without, home: environment.home, database: environment.database)
        if report.ok, let registry = try? Composition.validate(environment.modules) {
            report.checks = await Doctor.runChecks(registry.resolve().checks)
        }
        if context.json {
            try context.printJSON(report)
        } else {
            context.out.write(Doctor.render(report, theme: context.theme))
        }
        if !report.ok { throw DoctorError.compositionBroken(problems: report.problems.count) }
        let broken = report.checks.filter { !$0.problems.isEmpty }
        if !broken.isEmpty { throw DoctorError.inconsistentData(checks: broken.map(\.name)) }
    }
}

/// What the doctor examines: the app's modules as composed (not yet validated), and its storage.
struct DoctorEnvironment: Sendable {
    let modules: [any FeatureModule]
    let home: MoaHome
    let database: AppDatabase
}

enum DoctorError: UserFacingError {
    case compositionBroken(problems: Int)
    case inconsistentData(checks: [String])

    var message: String {
        switch self {
        case .compositionBroken(let problems): "The composition has \(problems) problem\(problems == 1 ? "" : "s") (listed above)."
        case .inconsistentData(let checks): "The data breaks invariants of: \(checks.joined(separator: ", ")) (listed above)."
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .compositionBroken: .software
        case .inconsistentData: .dataError
        }
    }
}

/// What `moa doctor` reports, also its `--json` shape.
struct DoctorReport: Encodable, Sendable {
    struct ProviderRow: Encodable, Sendable {
        let key: String
        let interface: String
        let providedBy: String
        let scope: String
        let requires: [String]
    }

    let version: String
    let home: String
    let database: String
    let schema: [String]
    let providers: [ProviderRow]
    let problems: [String]
    /// The features' invariants on the live database (run only when the composition is sound).
    var checks: [CheckResult] = []

    struct CheckResult: Encodable, Sendable {
        let name: String
        let summary: String
        let problems: [String]
    }

    var ok: Bool { problems.isEmpty }
}

enum Doctor {
    /// Validates `modules` (minus the providers of `without`) and describes the result.
    static func report(modules: [any FeatureModule], without: [String], home: MoaHome, database: AppDatabase) -> DoctorReport {
        let kept: [any FeatureModule] = modules.map { module in
            ModuleOf(module.name, module.providers.filter { !without.contains($0.key.name) })
        }
        let providers = kept.flatMap { module in
            module.providers.map { provider in
                DoctorReport.ProviderRow(
                    key: provider.key.name, interface: provider.key.interface, providedBy: module.name,
                    scope: provider.scope.rawValue, requires: provider.requirements.map(\.name))
            }
        }
        let problems: [String]
        do {
            _ = try Composition.validate(kept)
            problems = []
        } catch {
            problems = error.problems.map(\.description)
        }
        let schema = (try? database.appliedMigrations()) ?? []
        return DoctorReport(
            version: MoaVersion.current, home: home.root.path, database: database.path,
            schema: schema, providers: providers, problems: problems)
    }

    static func runChecks(_ checks: [any ConsistencyCheck]) async -> [DoctorReport.CheckResult] {
        var results: [DoctorReport.CheckResult] = []
        for check in checks {
            do {
                let (summary, problems) = try await check.run()
                results.append(.init(name: check.name, summary: summary, problems: problems))
            } catch {
                results.append(.init(name: check.name, summary: "could not run", problems: ["\(error)"]))
            }
        }
        return results
    }

    static func render(_ report: DoctorReport, theme: Theme) -> String {
        var out = ""
        let schema =
            report.schema.isEmpty
            ? "no steps applied"
            : "\(report.schema.count) step\(report.schema.count == 1 ? "" : "s") applied, latest \(report.schema.last ?? "")"
        out +=
            Card(
                title: "moa \(report.version) — doctor",
                lines: KeyValueRows([
                    "Home": report.home,
                    "Database": report.database,
                    "Schema": schema,
                ]).render(theme: theme).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            ).render(theme: theme) + "\n\n"
        var table = Table(columns: [
            .init("Key"), .init("Interface"), .init("Provided by"), .init("Scope"), .init("Requires", maxWidth: 60),
        ])
        for row in report.providers {
            table.append([
                row.key, row.interface, row.providedBy, row.scope, row.requires.isEmpty ? "—" : row.requires.joined(separator: ", "),
            ])
        }
        out += table.render(theme: theme) + "\n\n"
        if report.ok {
            out += theme.paint("Composition OK", .success) + ": \(report.providers.count) providers, every requirement provided once.\n"
        } else {
            out +=
                theme.paint("Composition broken", .danger)
                + " (\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")):\n"
            out += report.problems.map { "  • " + $0 }.joined(separator: "\n") + "\n"
        }
        for check in report.checks {
            if check.problems.isEmpty {
                out += theme.paint("\(check.name) OK", .success) + ": \(check.summary).\n"
            } else {
                out += theme.paint("\(check.name) broken", .danger) + " (\(check.summary)):\n"
                out += check.problems.map { "  • " + $0 }.joined(separator: "\n") + "\n"
            }
        }
        return out
    }
}
