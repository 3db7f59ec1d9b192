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
            without keys, replays, batches, closes, user deletions, limit changes, four users — on a new SQLite database, \
            injects faults (SQLite aborting a write between two statements; the unit of work throwing midway) and checks every \
            invariant after every step. A failing seed replays exactly (--seed S) and is shown as the shortest trace that \
            still fails. Exit status: 0 every seed passed, 1 a seed failed, 64 usage.
            """)

    @Option(help: "How many seeds to run: 1 to N.")
    var seeds: Int = 100

    @Option(help: "Run this one seed only, and print every step it runs.")
    var seed: UInt64?

    @Option(help: "Steps per seed.")
    var steps: Int = 200

    @Option(help: "Break a ledger rule on purpose, to see the simulation catch it: overdraft or skip-debit.")
    var sabotage: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard seeds >= 1 else { throw ValidationError("--seeds must be at least 1.") }
        guard (1...100_000).contains(steps) else { throw ValidationError("--steps must be between 1 and 100000.") }
        if let sabotage, Sabotage(rawValue: sabotage) == nil {
            throw ValidationError("--sabotage must be one of \(Sabotage.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
    }

    func run() async throws {
        let sabotage = self.sabotage.flatMap(Sabotage.init(rawValue:))
        let chosen: [UInt64] = seed.map { [$0] } ?? Array(1...UInt64(seeds))
        let started = ContinuousClock.now
        let reports = try await Self.runAll(chosen, steps: steps, sabotage: sabotage, progress: !json && seed == nil)
        let seconds = (ContinuousClock.now - started).components.seconds
        var statistics = Statistics()
        for report in reports { statistics.add(report.statistics) }
        let failed = reports.first { $0.failure != nil }
        var trace: [StepResult] = []
        var failure: (index: Int, violation: Violation)?
        if let failed, let violation = failed.failure {
            let shortest = try await Simulation.shorten(failed.steps, failing: violation.check, sabotage: sabotage)
            (trace, failure) = try await Simulation.replay(shortest, sabotage: sabotage)
        }
        let run = reports.reduce(0) { $0 + $1.steps.count }
        if json {
            printJSON(reports: reports, steps: run, seconds: seconds, statistics: statistics, failed: failed, trace: trace)
        } else {
            if seed != nil, let only = reports.first, failed == nil {
                let (results, _) = try await Simulation.replay(only.steps, sabotage: sabotage)
                for (index, result) in results.enumerated() { print(Self.line(index + 1, result)) }
            }
            printSummary(reports: reports, steps: run, seconds: seconds, statistics: statistics)
            if let failed, let violation = failed.failure {
                print("simulate: seed \(failed.seed) fails at step \(failed.steps.count) of \(steps): \(violation)")
                print(
                    "Shortest failing trace (\(trace.count) of \(failed.steps.count) steps; replay the seed with Scripts/simulate --seed \(failed.seed)):"
                )
                for (index, result) in trace.enumerated() { print(Self.line(index + 1, result)) }
                if let failure { print("      ✗ \(failure.violation)") }
            }
        }
        if failed != nil { throw ExitCode(1) }
    }

    /// The seeds, two at a time (one bank each), in order of seed; stops early at a failure.
    static func runAll(_ seeds: [UInt64], steps: Int, sabotage: Sabotage?, progress: Bool) async throws -> [Simulation.SeedReport] {
        let width = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
        var reports: [Simulation.SeedReport] = []
        var next = 0
        var lastShown = 0
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Simulation.SeedReport.self) { group in
            func add() {
                guard next < seeds.count else { return }
                let seed = seeds[next]
                next += 1
                group.addTask { try await Simulation.run(seed: seed, steps: steps, sabotage: sabotage) }
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
            "simulate: \(passed) of \(reports.count) seeds passed, \(run) steps in \(seconds) s"
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
            "seeds": reports.count, "passed": reports.filter { $0.failure == nil }.count, "steps": run, "stepsPerSeed": steps,
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
