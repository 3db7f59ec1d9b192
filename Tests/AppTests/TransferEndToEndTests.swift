import Foundation
import Testing

/// Transfers through the real binary: several processes at once, and a batch killed half-way.
@Suite("moa transfer end to end", .serialized)
struct TransferEndToEndTests {
    /// A CSV of `count` small transfers between `accounts`, round robin, with keys `prefix-N`.
    private func csv(_ accounts: [String], count: Int, prefix: String) -> String {
        var lines = ["from,to,amount,memo,idempotency_key"]
        for index in 0..<count {
            let from = accounts[index % accounts.count]
            let to = accounts[(index + 1 + index / accounts.count) % accounts.count]
            guard from != to else { continue }
            lines.append("\(from),\(to),\(1 + index % 97),\"row \(index), \(prefix)\",\(prefix)-\(index)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func setUp() throws -> (MoaProcess, [String]) {
        let moa = try MoaProcess()
        try moa.loggedIn()
        let accounts = try ["A", "B", "C"].map { try moa.openAccount(name: $0) }
        for account in accounts { try moa.run(["account", "deposit", account, "1,000,000"]) }
        return (moa, accounts)
    }

    @Test func fourProcessesSending250EachLoseAndCreateNothing() async throws {
        let (moa, accounts) = try setUp()
        defer { moa.remove() }
        var files: [URL] = []
        for worker in 0..<4 {
            let file = moa.home.appendingPathComponent("batch-\(worker).csv")
            let body = csv(accounts, count: 400, prefix: "w\(worker)")
            let rows = body.split(separator: "\n").dropFirst().prefix(250)
            try ("from,to,amount,memo,idempotency_key\n" + rows.joined(separator: "\n") + "\n").write(
                to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let results = try await withThrowingTaskGroup(of: MoaProcess.Result.self) { group in
            for file in files { group.addTask { try moa.run(["transfer", "batch", file.path]) } }
            return try await group.reduce(into: [MoaProcess.Result]()) { $0.append($1) }
        }
        for result in results {
            #expect(result.status == 0, "\(result.err)")
            #expect(!result.err.contains("locked"))
        }
        #expect(try moa.sql("SELECT COUNT(*) FROM transfer_transfers") == "1000")
        #expect(try moa.sql("SELECT SUM(balance) FROM account_accounts WHERE owner_id IS NOT NULL") == "3000000")
        #expect(try moa.sql("SELECT COUNT(*) FROM account_entries WHERE reference IS NOT NULL") == "2000")
        let doctor = try moa.run(["doctor"])
        #expect(doctor.status == 0, "\(doctor.out)")
        #expect(doctor.out.contains("Ledger OK"))
    }

    @Test func aBatchKilledHalfWayAndRunAgainPostsEveryRowExactlyOnce() async throws {
        let (moa, accounts) = try setUp()
        defer { moa.remove() }
        let file = moa.home.appendingPathComponent("big.csv")
        try csv(accounts, count: 1500, prefix: "big").write(to: file, atomically: true, encoding: .utf8)
        let rows = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").count - 1

        // Start the batch, wait until some rows are in, then kill it without warning.
        let process = Process()
        process.executableURL = MoaProcess.binary
        process.arguments = ["transfer", "batch", file.path]
        var environment = ProcessInfo.processInfo.environment
        environment["MOA_HOME"] = moa.home.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var done = 0
        for _ in 0..<400 where done < 50 {
            try await Task.sleep(for: .milliseconds(25)) // polling the database, not timing the code under test
            done = Int(try moa.sql("SELECT COUNT(*) FROM transfer_transfers")) ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = Int(try moa.sql("SELECT COUNT(*) FROM transfer_transfers")) ?? 0
        #expect(before >= 50)

        let rerun = try moa.run(["transfer", "batch", file.path, "--json"])
        #expect(rerun.status == 0, "\(rerun.err)")
        let report = try JSONSerialization.jsonObject(with: Data(rerun.out.utf8)) as? [String: Any]
        let summary = report?["summary"] as? [String: Any]
        #expect(summary?["skipped"] as? Int == before)
        #expect((summary?["done"] as? Int ?? 0) + before == rows)
        #expect(try moa.sql("SELECT COUNT(*) FROM transfer_transfers") == "\(rows)")
        #expect(try moa.sql("SELECT COUNT(*) FROM account_entries WHERE reference IS NOT NULL") == "\(2 * rows)")
        #expect(try moa.sql("SELECT SUM(balance) FROM account_accounts WHERE owner_id IS NOT NULL") == "3000000")
        #expect(try moa.run(["doctor"]).status == 0)
    }
}
