import ArgumentParser
import AuthData
import Foundation
import HTTPServing
import Hummingbird
import Logging
import Metrics
import MoaPostgres
import NIOSSL
import PostgresStorage
import ServiceLifecycle
import SharedKit
import Storage

/// `moa-server`: Moa's bank served over HTTP (issue 15). Its flags, its data folder, and its
/// lifecycle: it prints `Listening on http://HOST:PORT` as its first line once it accepts
/// connections, and SIGTERM or SIGINT stop it gracefully (requests in flight finish first).
public struct ServerCommand: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "moa-server",
        abstract: "Serves Moa's bank — sign-in, accounts, transfers, the inbox, settings, ticket archives — to `moa` clients over HTTP.",
        discussion: """
            The data lives in SQLite in --data (created with mode 0700 if missing), or with --database in a \
            PostgreSQL database that any number of moa-server processes may share (its tables are created or \
            updated on start); verification and reset mails are written to DATA/outbox/. The first line on standard output is `Listening on http://HOST:PORT` \
            (with --port 0, the port the system chose). SIGTERM and SIGINT stop the server gracefully. \
            The log (standard error) has one line per request — its id (X-Request-Id, taken or made), client, user, route, \
            status and duration — as text or, with --log-format json, as JSON; /metrics serves Prometheus metrics, /readyz \
            answers 200 once the database answers and is migrated. \
            Exit status: 0 after a graceful stop, 64 usage, 65 the database was written by a newer moa-server, \
            69 the address cannot be listened on or the PostgreSQL database cannot be used, 74 the data folder \
            or its database cannot be opened, 78 the data folder can be written by other users and cannot be made \
            owner-only.
            """,
        version: "moa-server \(version) (API v1)")

    @Option(help: "The address to listen on (default 127.0.0.1).")
    var host: String?

    @Option(parsing: .unconditional, help: "The port to listen on (default 8080; 0: a free port, printed on the first line).")
    var port: Int?

    @Option(help: ArgumentHelp("The folder that holds the server's data (default ~/.moa-server).", valueName: "dir"))
    var data: String?

    @Option(
        help: ArgumentHelp(
            "Keep the bank in this PostgreSQL database instead of SQLite in --data (postgres://USER@HOST:PORT/DATABASE; the password in PGPASSWORD).",
            valueName: "url"))
    var database: String?

    @Flag(help: "Audit the ledger in --data (or --database) (as `moa doctor` does) and exit: 0 when it keeps its invariants, 65 when not.")
    var audit = false

    @Option(
        help: ArgumentHelp(
            "Connections open at once (default 4096); one more is answered 503 and closed (at most the open-file limit less 64).",
            valueName: "n"))
    var maxConnections: Int?

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may stay without a complete request head (idle, or sending its header slowly) before it is closed (default 15).",
            valueName: "seconds"))
    var idleTimeout: Int?

    @Option(
        help: ArgumentHelp(
            "The address of a reverse proxy in front of the server (repeatable): for its requests, the client is the address it appends to X-Forwarded-For.",
            valueName: "ip"))
    var trustedProxy: [String] = []

    @Option(
        help: ArgumentHelp(
            "How the log is written on standard error: text (for a person, the default) or json (one object per line).",
            valueName: "format"))
    var logFormat: LogFormat?

    @Option(
        help: ArgumentHelp(
            "The least severe log level written: trace, debug, info (the default), notice, warning, error or critical.",
            valueName: "level"))
    var logLevel: LogLevelArgument?

    @Option(
        help: ArgumentHelp(
            "Serve GET /metrics on this port (on --host) instead of the API's port (0: a free one, printed as `Metrics on …`).",
            valueName: "port"))
    var metricsPort: Int?

    @Option(
        help: ArgumentHelp(
            "Serve HTTPS with this PEM certificate chain (the server's certificate first); needs --tls-key.", valueName: "path"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert (readable by its owner only).", valueName: "path"))
    var tlsKey: String?

    @Option(
        help: ArgumentHelp(
            "A JSON file of settings (keys: \(ServerSettings.keys.joined(separator: ", "))); flags, then MOA_SERVER_… variables, win over it.",
            valueName: "path"))
    var config: String?

    @Flag(help: "Print every setting, its value and where it came from (the database password never), and exit.")
    var printConfig = false

    public init() {}

    /// The connection limits asked for, the ceiling kept below the open-file limit (raised first to
    /// what the system allows), with room for the database, the log and the mail.
    static func connectionLimits(_ settings: ServerSettings, logger: Logger) -> ConnectionLimits {
        let asked = settings.maxConnections
        var limits = ConnectionLimits(maximumConnections: asked, idleTimeout: .seconds(settings.idleTimeout))
        if let files = ConnectionLimits.raiseOpenFileLimit(), files - 64 < asked {
            limits.maximumConnections = max(1, files - 64)
            logger.warning(
                "--max-connections \(asked) is above what \(files) open files allow: at most \(limits.maximumConnections) connections.")
        }
        return limits
    }

    public func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try await ServerSettings.resolve(self, environment: environment)
        if printConfig {
            FileHandle.standardOutput.write(Data(settings.printed(environment: environment).utf8))
            return
        }
        let clients = ClientAddressResolver(trustedProxies: Set(settings.trustedProxies.compactMap(ClientAddressResolver.address)))
        let folder = MoaHome(
            root: URL(fileURLWithPath: settings.data.map { Self.expandTilde($0, environment) } ?? Self.defaultFolder(environment)))
        let (format, level) = (settings.logFormat, settings.logLevel.level)
        let logger = Logger(label: "moa-server") { label in ServerLogHandler(label: label, format: format, level: level) }
        let metrics = ServerMetrics()
        MetricsSystem.bootstrap(metrics.factory) // whatever the process records through swift-metrics is at /metrics too
        let passwordCost = ScryptParameters.chosen(by: environment)
        let limits = Self.connectionLimits(settings, logger: logger)
        guard let database = settings.database else {
            return try await serve(
                settings,
                MoaServer(folder: folder, logger: logger, passwordCost: passwordCost, clients: clients, limits: limits, metrics: metrics))
        }
        let location = try PostgresLocation(database, environment: environment)
        var poolLogger = logger
        poolLogger.logLevel = .error // the pool's warnings repeat what a request's error already says
        let postgres = PostgresAppDatabase(location: location, logger: poolLogger)
        let pool = Task { await postgres.run() }
        do {
            try await postgres.migrate(PostgresStores.migrations, applying: !audit) // an audit writes nothing
            try await serve(
                settings,
                MoaServer(
                    folder: folder, storage: .postgres(postgres), logger: logger, passwordCost: passwordCost, clients: clients,
                    limits: limits, metrics: metrics))
        } catch {
            await Self.stop(pool, logger: logger)
            throw error
        }
        if !audit {
            let (transactions, retries, alone) = postgres.statistics
            logger.info(
                "PostgreSQL: \(transactions) transactions, \(retries) attempts run again after a conflict, \(alone) of them alone")
        }
        await Self.stop(pool, logger: logger)
    }

    /// Stops the connection pool once the requests have finished, waiting at most 5 s for it to close
    /// its connections: a connection the database dropped (a restart) must not keep the process alive.
    private static func stop(_ pool: Task<Void, Never>, logger: Logger) async {
        pool.cancel()
        let closed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let first = FirstAnswer(continuation)
            Task {
                await pool.value
                first.answer(true)
            }
            Task {
                try? await Task.sleep(for: .seconds(5))
                first.answer(false)
            }
        }
        if !closed { logger.warning("The PostgreSQL connections did not close within 5 s; exiting without them.") }
    }

    /// Resumes a continuation with the first answer given, and ignores the others.
    private final class FirstAnswer: Sendable {
        private let continuation: Locked<CheckedContinuation<Bool, Never>?>

        init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = Locked(continuation) }

        func answer(_ value: Bool) {
            continuation.withLock { pending in
                pending?.resume(returning: value)
                pending = nil
            }
        }
    }

    /// Audits (`--audit`), or serves until SIGTERM or SIGINT.
    private func serve(_ settings: ServerSettings, _ server: MoaServer) async throws {
        let (host, port, metricsPort) = (settings.host, settings.port, settings.metricsPort)
        if audit {
            let (summary, problems) = try await server.audit()
            guard problems.isEmpty else { throw ServerError.ledgerBroken(problems) }
            FileHandle.standardOutput.write(Data("Ledger OK: \(summary).\n".utf8))
            return
        }
        let listening = Listening()
        var tls: TLSConfiguration?
        if let tlsCert = settings.tlsCert, let tlsKey = settings.tlsKey {
            tls = try ServerTLS.configuration(certificate: tlsCert, key: tlsKey)
            if ServerTLS.othersCanRead(tlsKey) { server.logger.warning("The TLS key \(tlsKey) can be read by other users: chmod 600 it.") }
        }
        let scheme = tls == nil ? "http" : "https"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let application = try server.application(host: host, port: port, tls: tls, servingMetrics: metricsPort == nil) { port in
            listening.started()
            FileHandle.standardOutput.write(Data("Listening on \(scheme)://\(shownHost):\(port)\n".utf8))
        }
        var services: [any Service] = [application]
        if let metricsPort {
            services.append(
                server.metricsApplication(host: host, port: metricsPort) { port in
                    FileHandle.standardOutput.write(Data("Metrics on http://\(shownHost):\(port)/metrics\n".utf8))
                })
        }
        // SIGTERM or SIGINT: each stops accepting, finishes the requests in flight, and returns.
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: server.logger))
        do {
            try await group.run()
        } catch  where !listening.hasStarted {
            throw ServerError.cannotListen(host: host, port: port, reason: String(describing: error))
        }
    }

    /// Whether the server got as far as accepting connections (an error before that is about listening).
    final class Listening: Sendable {
        private let state = Locked(false)
        func started() { state.withLock { $0 = true } }
        var hasStarted: Bool { state.withLock { $0 } }
    }

    static func defaultFolder(_ environment: [String: String]) -> String {
        (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.moa-server"
    }

    static func expandTilde(_ path: String, _ environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
    }
}

/// What `moa-server`'s `main` runs: the command, its errors reported as one sentence with their
/// documented status (SharedKit's one mapping, as `moa` reports them).
public enum MoaServerMain {
    public static func run(arguments: [String]) async -> Int32 {
        do {
            let command = try ServerCommand.parseAsRoot(arguments)
            if let server = command as? ServerCommand {
                try await server.run()
            } else {
                var other = command
                try other.run()
            }
            return ExitStatus.ok.rawValue
        } catch let error as any UserFacingError {
            return report(error.message, error.exitStatus)
        } catch {
            switch ServerCommand.exitCode(for: error) {
            case .success:
                FileHandle.standardOutput.write(Data((ServerCommand.fullMessage(for: error) + "\n").utf8))
                return ExitStatus.ok.rawValue
            case .validationFailure:
                let message = ServerCommand.message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
                return report(message.hasSuffix(".") ? message : message + ".", .usage)
            default:
                let unexpected = ErrorMapping.userFacing(error, unexpectedSentence: "The server stopped unexpectedly")
                return report(unexpected.message, unexpected.exitStatus)
            }
        }
    }

    private static func report(_ message: String, _ status: ExitStatus) -> Int32 {
        FileHandle.standardError.write(Data("moa-server: \(message)\n".utf8))
        return status.rawValue
    }
}

/// Why the server could not start.
public enum ServerError: Error, UserFacingError, Equatable {
    /// The address cannot be listened on (in use, not this machine's, not permitted).
    case cannotListen(host: String, port: Int, reason: String)
    /// The registry refused the server's composition: a bug of ours, found before serving anything.
    case composition(String)
    /// `--audit` found the ledger breaking its invariants.
    case ledgerBroken([String])
    /// The data folder can be written by other users and cannot be made owner-only.
    case dataFolderExposed(String)
    /// `--tls-cert` or `--tls-key` cannot be used (unreadable, not PEM, a key of another certificate).
    case tlsUnusable(String)
    /// The configuration file cannot be read, is not a JSON object, or has a key moa-server does not know.
    case configurationUnusable(String)

    public var message: String {
        switch self {
        case .cannotListen(let host, let port, let reason): "Cannot listen on \(host):\(port): \(reason)."
        case .composition(let problems): "The server's composition is broken: \(problems)."
        case .ledgerBroken(let problems): "The ledger breaks its invariants: \(problems.joined(separator: " "))"
        case .dataFolderExposed(let sentence), .tlsUnusable(let sentence), .configurationUnusable(let sentence): sentence + "."
        }
    }

    public var hint: String? {
        switch self {
        case .cannotListen: "Choose another --port (0 picks a free one) or --host."
        case .composition: "This is a bug in moa-server; please report it."
        case .ledgerBroken: nil
        case .dataFolderExposed: "Choose a folder of your own with --data (it is created owner-only)."
        case .tlsUnusable: "Give --tls-cert the PEM certificate chain (the server's first) and --tls-key its PEM private key."
        case .configurationUnusable: "`moa-server --help` lists the settings; `--print-config` shows what is in force."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotListen: .unavailable
        case .composition: .software
        case .ledgerBroken: .dataError
        case .dataFolderExposed, .tlsUnusable, .configurationUnusable: .configuration
        }
    }
}

extension LogFormat: ExpressibleByArgument {}

/// `--log-level`: swift-log's levels, by their names.
enum LogLevelArgument: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
}
