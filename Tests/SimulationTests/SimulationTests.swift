import Foundation
import LedgerSimulation
import Testing

/// The simulator itself: it passes on the real ledger, replays a seed exactly, and catches a broken
/// posting rule within its first 100 seeds, with a short trace.
@Suite struct SimulationTests {
    @Test func theRealLedgerKeepsEveryInvariantOverTwentySeeds() async throws {
        var faultsFired = 0
        var posted = 0
        for seed in UInt64(1)...20 {
            let report = try await Simulation.run(seed: seed, steps: 150)
            #expect(report.failure == nil, "seed \(seed): \(String(describing: report.failure))")
            faultsFired += report.statistics.faultsFired
            posted += report.statistics.counts["transfer posted", default: 0]
        }
        // The workload does something: transfers are posted and faults really fire.
        #expect(posted > 200)
        #expect(faultsFired > 20)
    }

    @Test func aSeedReplaysExactly() async throws {
        let first = try await Simulation.run(seed: 42, steps: 120)
        let second = try await Simulation.run(seed: 42, steps: 120)
        #expect(first.steps == second.steps)
        let replayed = try await Simulation.replay(first.steps)
        let again = try await Simulation.replay(first.steps)
        #expect(replayed.results == again.results)
        #expect(replayed.failure == nil)
    }

    @Test(arguments: Sabotage.allCases)
    func aBrokenPostingRuleIsCaughtWithinTheFirstHundredSeeds(_ sabotage: Sabotage) async throws {
        let report = try #require(try await firstSeedCatching(sabotage), "\(sabotage) went unnoticed for 100 seeds")
        let violation = try #require(report.failure)
        switch sabotage {
        case .overdraft: #expect(violation.check == "no balance below zero")
        case .skipDebit: #expect(violation.check == "balances equal the sum of their entries")
        }
        // The failure replays exactly, and its shortest trace is short and still fails the same way.
        let replayed = try await Simulation.replay(report.steps, sabotage: sabotage)
        #expect(replayed.failure?.violation == violation)
        let shortest = try await Simulation.shorten(report.steps, failing: violation.check, sabotage: sabotage)
        #expect(shortest.count <= 8, "\(shortest)")
        #expect(shortest.count <= report.steps.count)
        #expect(try await Simulation.replay(shortest, sabotage: sabotage).failure?.violation.check == violation.check)
        // Without the sabotage, the same steps pass.
        #expect(try await Simulation.replay(report.steps).failure == nil)
    }
}

/// The same simulation on PostgreSQL, on the stores `moa-server --database postgres://…` composes:
/// the shared ledger gives, step by step, what it gives on SQLite, and a broken rule is caught there
/// too. Needs `MOA_TEST_POSTGRES_URL` (skipped without it, except in CI, where a missing server fails).
@Suite struct PostgresSimulationTests {
    static func engine() throws -> SimulationEngine? {
        let environment = ProcessInfo.processInfo.environment
        if let engine = try SimulationEngine.postgres(in: environment) { return engine }
        if environment["CI"] == "true" {
            Issue.record("CI=true but \(SimulationEngine.postgresVariable) is not set: the PostgreSQL simulation cannot run.")
            return nil
        }
        try Test.cancel("PostgreSQL skipped: \(SimulationEngine.postgresVariable) is not set (Scripts/postgres-cluster start prints it).")
    }

    @Test func bothEnginesDoTheSameStepByStepFaultsIncluded() async throws {
        guard let postgres = try Self.engine() else { return }
        var faultsFired = 0
        var posted = 0
        for seed in UInt64(1)...3 {
            let report = try await Simulation.run(seed: seed, steps: 150, on: postgres)
            #expect(report.failure == nil, "seed \(seed) on PostgreSQL: \(String(describing: report.failure))")
            faultsFired += report.statistics.faultsFired
            posted += report.statistics.counts["transfer posted", default: 0]
            // Every step's outcome — balances, transfer ids, refusals, replays, faults — is the same on SQLite.
            let onSQLite = try await Simulation.replay(report.steps, on: .sqlite)
            #expect(onSQLite.failure == nil)
            #expect(report.results == onSQLite.results)
        }
        #expect(posted > 20)
        #expect(faultsFired > 3)
    }

    @Test(arguments: Sabotage.allCases)
    func aBrokenPostingRuleIsCaughtOnPostgreSQL(_ sabotage: Sabotage) async throws {
        guard let postgres = try Self.engine() else { return }
        // The first seed SQLite catches it on, run on PostgreSQL.
        let onSQLite = try #require(try await firstSeedCatching(sabotage), "\(sabotage) went unnoticed on SQLite for 100 seeds")
        let report = try await Simulation.run(seed: onSQLite.seed, steps: 200, on: postgres, sabotage: sabotage)
        #expect(report.failure == onSQLite.failure)
        #expect(report.steps == onSQLite.steps)
        let violation = try #require(report.failure)
        let shortest = try await Simulation.shorten(report.steps, failing: violation.check, on: postgres, sabotage: sabotage)
        #expect(shortest.count <= 8, "\(shortest)")
        #expect(try await Simulation.replay(shortest, on: postgres, sabotage: sabotage).failure?.violation.check == violation.check)
    }
}

/// The first of seeds 1 to 100 on SQLite whose run of 200 steps breaks an invariant under `sabotage`.
func firstSeedCatching(_ sabotage: Sabotage) async throws -> Simulation.SeedReport? {
    for seed in UInt64(1)...100 {
        let report = try await Simulation.run(seed: seed, steps: 200, sabotage: sabotage)
        if report.failure != nil { return report }
    }
    return nil
}
