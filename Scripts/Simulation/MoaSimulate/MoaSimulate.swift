// MoaSimulate: the program behind Scripts/simulate (see its --help).
import ArgumentParser
import Foundation
import LedgerSimulation

@main
struct MoaSimulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Runs the deterministic ledger simulation: seeded workloads of real use cases, with injected faults.",
        discussion: """
            Each seed drives Account, Transfer, Settings and Inbox's real use cases — open, deposit, withdraw, send with and \
            without keys, replays, batches, closes, user deletions, limit changes, four users — on a new database: a SQLite \
            file (--engine sqlite, the default) or a schema of its own on the PostgreSQL server named by \
            MOA_TEST_POSTGRES_URL (--engine postgres), with the stores each engine's composition root uses. It injects faults \
            (the database aborting a write between two statements; the unit of work throwing midway) and checks every \
            invariant after every step. A failing seed replays exactly (--seed S) and is shown as the shortest trace that \
            still fails. Exit status: 0 every seed passed, 1 a seed failed, 64 usage.
            """)

    /// The engines `--engine` names.
    enum EngineName: String, ExpressibleByArgument, CaseIterable {
        case sqlite, postgres
    }

    @Option(help: "How many seeds to run: 1 to N.")
    var seeds: Int = 100

    @Option(help: "Run this one seed only, and print every step it runs.")
    var seed: UInt64?

    @Option(help: "Steps per seed.")
    var steps: Int = 200

    @Option(help: "Break a ledger rule on purpose, to see the simulation catch it: overdraft or skip-debit.")
    var sabotage: String?

    @Option(help: "The database: sqlite, or postgres (the server named by MOA_TEST_POSTGRES_URL).")
    var engine: EngineName = .sqlite

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard seeds >= 1 else { throw ValidationError("--seeds must be at least 1.") }
        guard (1...100_000).contains(steps) else { throw ValidationError("--steps must be between 1 and 100000.") }
        if let sabotage, Sabotage(rawValue: sabotage) == nil {
            throw ValidationError("--sabotage must be one of \(Sabotage.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        _ = try simulationEngine()
    }

    /// The engine `--engine` names; PostgreSQL's server from `MOA_TEST_POSTGRES_URL`.
    func simulationEngine() throws -> SimulationEngine {
        switch engine {
        case .sqlite:
            return .sqlite
        case .postgres:
            let engine: SimulationEngine?
            do {
                engine = try SimulationEngine.postgres(in: ProcessInfo.processInfo.environment)
            } catch {
                throw ValidationError(error.description)
            }
            guard let engine else {
                throw ValidationError(
                    "--engine postgres needs \(SimulationEngine.postgresVariable) (Scripts/postgres-cluster start prints it; Scripts/simulate starts a cluster when it is not set)."
                )
            }
            return engine
        }
    }

    func run() async throws {
        let sabotage = self.sabotage.flatMap(Sabotage.init(rawValue:))
        let engine = try simulationEngine()
        let chosen: [UInt64] = seed.map { [$0] } ?? Array(1...UInt64(seeds))
        let started = ContinuousClock.now
        let reports = try await Self.runAll(chosen, steps: steps, on: engine, sabotage: sabotage, progress: !json && seed == nil)
        let seconds = (ContinuousClock.now - started).components.seconds
        var statistics = Statistics()
        for report in reports { statistics.add(report.statistics) }
        let failed = reports.first { $0.failure != nil }
        var trace: [StepResult] = []
        var failure: (index: Int, violation: Violation)?
        if let failed, let violation = failed.failure {
            let shortest = try await Simulation.shorten(failed.steps, failing: violation.check, on: engine, sabotage: sabotage)
            (trace, failure) = try await Simulation.replay(shortest, on: engine, sabotage: sabotage)
        }
        let run = reports.reduce(0) { $0 + $1.steps.count }
        if json {
            printJSON(reports: reports, steps: run, seconds: seconds, statistics: statistics, failed: failed, trace: trace)
        } else {
            if seed != nil, let only = reports.first, failed == nil {
                let (results, _) = try await Simulation.replay(only.steps, on: engine, sabotage: sabotage)
                for (index, result) in results.enumerated() { print(Self.line(index + 1, result)) }
            }
            printSummary(reports: reports, steps: run, seconds: seconds, statistics: statistics)
            if let failed, let violation = failed.failure {
                let replay = self.engine == .postgres ? " --engine postgres" : ""
                print("simulate: seed \(failed.seed) fails at step \(failed.steps.count) of \(steps): \(violation)")
                print(
                    "Shortest failing trace (\(trace.count) of \(failed.steps.count) steps; replay the seed with Scripts/simulate\(replay) --seed \(failed.seed)):"
                )
                for (index, result) in trace.enumerated() { print(Self.line(index + 1, result)) }
                if let failure { print("      ✗ \(failure.violation)") }
            }
        }
        if failed != nil { throw ExitCode(1) }
    }

    /// The seeds, a few at a time (one bank each), in order of seed; stops early at a failure.
    static func runAll(_ seeds: [UInt64], steps: Int, on engine: SimulationEngine, sabotage: Sabotage?, progress: Bool) async throws
        -> [Simulation.SeedReport]
    {
        // On PostgreSQL a seed also waits for the server: twice as many at once keep the cores busy.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let width: Int
        if case .postgres = engine { width = max(2, min(2 * cores, 8)) } else { width = max(1, min(cores, 4)) }
        var reports: [Simulation.SeedReport] = []
        var next = 0
        var lastShown = 0
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Simulation.SeedReport.self) { group in
            func add() {
                guard next < seeds.count else { return }
                let seed = seeds[next]
                next += 1
                group.addTask { try await Simulation.run(seed: seed, steps: steps, on: engine, sabotage: sabotage) }
            }
            for _ in 0..<width { add() }
            while let report = try await group.next() {
                reports.append(report)
                if report.failure != nil {
                    group.cancelAll()
                    break
                }
                add()
                if progress, seeds.count >= 20, reports.count * 10 / seeds.count > lastShown {
                    lastShown = reports.count * 10 / seeds.count
                    let elapsed = (ContinuousClock.now - started).components.seconds
                    FileHandle.standardError.write(Data("simulate: \(reports.count)/\(seeds.count) seeds, \(elapsed) s\n".utf8))
                }
            }
        }
        return reports.sorted { $0.seed < $1.seed }
    }

    static func line(_ number: Int, _ result: StepResult) -> String {
        let step = "\(number).".padding(toLength: 6, withPad: " ", startingAt: 0) + result.step.description
        return "  " + step.padding(toLength: max(step.count, 64), withPad: " ", startingAt: 0) + "  → " + result.outcome
    }

    func printSummary(reports: [Simulation.SeedReport], steps run: Int, seconds: Int64, statistics: Statistics) {
        let passed = reports.filter { $0.failure == nil }.count
        print(
            "simulate: \(passed) of \(reports.count) seeds passed on \(engine == .sqlite ? "SQLite" : "PostgreSQL"), \(run) steps in \(seconds) s"
                + (sabotage.map { " (sabotage: \($0))" } ?? ""))
        let counts = statistics.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        print("  " + counts.joined(separator: " · "))
        print("  faults injected \(statistics.faultsArmed), fired \(statistics.faultsFired) (every fired fault rolled its step back whole)")
    }

    func printJSON(
        reports: [Simulation.SeedReport], steps run: Int, seconds: Int64, statistics: Statistics, failed: Simulation.SeedReport?,
        trace: [StepResult]
    ) {
        var object: [String: Any] = [
            "engine": engine.rawValue, "seeds": reports.count, "passed": reports.filter { $0.failure == nil }.count, "steps": run,
            "stepsPerSeed": steps,
            "seconds": seconds, "counts": statistics.counts, "faultsInjected": statistics.faultsArmed,
            "faultsFired": statistics.faultsFired,
        ]
        if let sabotage { object["sabotage"] = sabotage }
        if let failed, let violation = failed.failure {
            object["failure"] = [
                "seed": failed.seed, "step": failed.steps.count, "check": violation.check, "detail": violation.detail,
                "trace": trace.map { ["step": $0.step.description, "outcome": $0.outcome] },
            ]
        }
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]) {
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
