import APIClient
import APITransport
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
        abstract: "Check the installation: providers, database, schema, the home's permissions.",
        discussion: """
            Exits 0 when every interface has exactly one provider, the data keeps its invariants and only you can \
            read or change what moa keeps; 70 when the composition is broken, 65 when the data breaks an invariant, \
            78 when other users can read or change the home or the files with secrets in it; 64 when --without \
            names a key no module provides.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("without"),
        help: ArgumentHelp("Check the composition as if this key had no provider (e.g. DatabaseKey): what would break.", valueName: "key"))
    var without: [String] = []

    func run(in environment: DoctorEnvironment, context: CommandContext) async throws {
        let keys = Set(environment.modules.flatMap { $0.providers.map(\.key.name) })
        if let unknown = without.first(where: { !keys.contains($0) }) { throw DoctorError.unknownKey(unknown) }
        var report = Doctor.report(modules: environment.modules, without: without, home: environment.home, database: environment.database)
        report.credentials = .init(environment.credentials)
        // With a server, the ledger is the server's: `moa-server --audit` checks it there.
        if report.ok, environment.server == nil, let registry = try? Composition.validate(environment.modules) {
            report.checks = await Doctor.runChecks(registry.resolve().checks)
        }
        if let server = environment.server { report.server = await Doctor.checkServer(server) }
        if context.json {
            try context.printJSON(report)
        } else {
            context.out.write(Doctor.render(report, theme: context.theme))
        }
        if !report.ok { throw DoctorError.compositionBroken(problems: report.problems.count) }
        if let server = report.server, !server.ok { throw DoctorError.serverUnusable(url: server.url) }
        let broken = report.checks.filter { !$0.problems.isEmpty }
        if !broken.isEmpty { throw DoctorError.inconsistentData(checks: broken.map(\.name)) }
        if !report.permissions.ok { throw DoctorError.unsafePermissions(problems: report.permissions.problems.count) }
    }
}

/// What the doctor examines: the app's modules as composed (not yet validated), and its storage.
struct DoctorEnvironment: Sendable {
    let modules: [any FeatureModule]
    let home: MoaHome
    let database: AppDatabase
    /// Where the home's secrets are kept.
    let credentials: any CredentialStore
    /// The moa-server this home uses (`nil`: the embedded bank).
    var server: ServerAddress? = nil
}

enum DoctorError: UserFacingError {
    case compositionBroken(problems: Int)
    case inconsistentData(checks: [String])
    /// Other users can read or change the home or a file with secrets in it.
    case unsafePermissions(problems: Int)
    /// `--without` names a key no module provides.
    case unknownKey(String)
    /// The server cannot be reached, or speaks another API version.
    case serverUnusable(url: String)

    var message: String {
        switch self {
        case .compositionBroken(let problems): "The composition has \(problems) problem\(problems == 1 ? "" : "s") (listed above)."
        case .inconsistentData(let checks): "The data breaks invariants of: \(checks.joined(separator: ", ")) (listed above)."
        case .unsafePermissions(let problems):
            "The home's permissions have \(problems) problem\(problems == 1 ? "" : "s") (listed above)."
        case .unknownKey(let key): "No module provides a key called “\(key.count > 40 ? String(key.prefix(40)) + "…" : key)”."
        case .serverUnusable(let url): "moa-server at \(url) cannot be used (listed above)."
        }
    }

    var hint: String? {
        switch self {
        case .unknownKey: "`moa doctor` lists every key in its first column (for example DatabaseKey)."
        default: nil
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .compositionBroken: .software
        case .inconsistentData: .dataError
        case .unsafePermissions: .configuration
        case .unknownKey: .usage
        case .serverUnusable: .unavailable
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
    /// Whether other users can read or change the home or the files with secrets in it.
    let permissions: Permissions
    /// The features' invariants on the live database (run only when the composition is sound).
    var checks: [CheckResult] = []
    /// The moa-server this home uses, when it uses one.
    var server: ServerCheck? = nil
    /// Where the secrets are kept.
    var credentials: Credentials? = nil

    /// The credential store in use: the system's, or the home's files.
    struct Credentials: Encodable, Sendable {
        /// `keychain`, `secret-service` or `files`.
        let store: String
        /// Whether it is the system's store.
        let system: Bool
        let location: String

        init(_ credentials: any CredentialStore) {
            store = credentials.backend.rawValue
            system = credentials.backend.isSystem
            location = credentials.location
        }
    }

    /// Whether the server answers, its version, and whether it speaks this moa's API version.
    struct ServerCheck: Encodable, Sendable {
        let url: String
        let reachable: Bool
        let version: String?
        let apiVersion: String?
        let clientApiVersion: String
        let compatible: Bool
        /// The CA file trusted for it besides the system's store (`--ca-file`, `MOA_CA_FILE`).
        var caFile: String? = nil
        /// Why it cannot be used, one sentence (`nil` when it can).
        let problem: String?
        var ok: Bool { problem == nil }

        enum CodingKeys: String, CodingKey {
            case url, reachable, version, compatible, problem, ok
            case apiVersion = "api_version"
            case caFile = "ca_file"
            case clientApiVersion = "client_api_version"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ok, forKey: .ok)
            try container.encode(url, forKey: .url)
            try container.encode(reachable, forKey: .reachable)
            try container.encode(version, forKey: .version)
            try container.encode(apiVersion, forKey: .apiVersion)
            try container.encode(clientApiVersion, forKey: .clientApiVersion)
            try container.encode(compatible, forKey: .compatible)
            try container.encode(problem, forKey: .problem)
            try container.encode(caFile, forKey: .caFile)
        }
    }

    struct Permissions: Encodable, Sendable {
        /// The home's permission bits, e.g. `0700` (`nil` if it could not be read).
        let mode: String?
        /// One sentence each (what is wrong and what to do); empty when all is well.
        let problems: [String]
        var ok: Bool { problems.isEmpty }

        enum CodingKeys: String, CodingKey { case ok, mode, problems }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ok, forKey: .ok)
            try container.encode(mode, forKey: .mode)
            try container.encode(problems, forKey: .problems)
        }
    }

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
            schema: schema, providers: providers, problems: problems,
            permissions: .init(mode: home.rootMode().map(MoaHome.octal), problems: home.permissionProblems().map(\.sentence)))
    }

    /// Asks the server for its health: reachable, its version, and the same API major version as ours.
    static func checkServer(_ address: ServerAddress) async -> DoctorReport.ServerCheck {
        let url = address.url.absoluteString
        do {
            let health = try await RemoteAPI(address: address).health()
            return .init(
                url: url, reachable: true, version: health.version, apiVersion: health.apiVersion, clientApiVersion: RemoteAPI.apiVersion,
                compatible: health.isCompatible, caFile: address.caFile,
                problem: health.isCompatible
                    ? nil : "It speaks API \(health.apiVersion) and this moa speaks \(RemoteAPI.apiVersion): update the older one.")
        } catch {
            let sentence = (error as? any UserFacingError)?.message ?? "It did not answer: \(error)."
            return .init(
                url: url, reachable: false, version: nil, apiVersion: nil, clientApiVersion: RemoteAPI.apiVersion, compatible: false,
                caFile: address.caFile, problem: sentence)
        }
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
        if report.permissions.ok {
            out +=
                theme.paint("Permissions OK", .success)
                + ": only you can read or change what moa keeps in \(report.home)\(report.permissions.mode.map { " (\($0))" } ?? "").\n"
        } else {
            let count = report.permissions.problems.count
            out += theme.paint("Permissions wrong", .danger) + " (\(count) problem\(count == 1 ? "" : "s")):\n"
            out += report.permissions.problems.map { "  • " + $0 }.joined(separator: "\n") + "\n"
        }
        if let credentials = report.credentials {
            if credentials.system {
                out +=
                    theme.paint("Secrets", .success) + ": kept in \(credentials.location); a secret still in the home's files moves there "
                    + "when it is first used.\n"
            } else {
                out +=
                    theme.paint("Secrets", .warning) + ": kept in the home's owner-only files (the settings database, session.json, "
                    + "secrets/), as no system credential store is used (\(CredentialStores.variable)=files, or none answers: "
                    + "on Linux it takes libsecret-tools, a Secret Service such as gnome-keyring, and a D-Bus session).\n"
            }
        }
        if let server = report.server {
            if server.ok {
                out +=
                    theme.paint("Server OK", .success)
                    + ": \(server.url) answers, moa-server \(server.version ?? "?"), API \(server.apiVersion ?? "?") (this moa speaks \(server.clientApiVersion))"
                    + (server.caFile.map { ", trusted through the CA file \($0) and the system's store" } ?? "")
                    + "; the ledger is the server's (`moa-server --audit`).\n"
            } else {
                out += theme.paint("Server unusable", .danger) + " (\(server.url)):\n  • \(server.problem ?? "")\n"
            }
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
