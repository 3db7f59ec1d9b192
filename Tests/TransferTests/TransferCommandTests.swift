import AccountInterface
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import InboxInterface
import Money
import Persistence
import Registry
import SettingsInterface
import SharedKit
import Storage
import Testing
import TransferData
import TransferDomain
import TransferFeature
import TransferInterface
import TransferTesting

/// Transfer's commands composed through the registry (its Data and Feature modules, the other
/// features' fakes), run like `moa` runs them.
struct CommandFixture {
    let h: Harness
    let database: AppDatabase
    let group: FeatureCommands

    init() throws {
        h = try Harness()
        database = try AppDatabase.inMemory(migrations: [TransferMigrations.all])
        group = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: h.clock),
            ModuleOf(
                "Fakes",
                [
                    .instance(SessionProviderKey.self, h.session), .instance(AccountDirectoryKey.self, h.accounts),
                    .instance(AccountPostingKey.self, h.accounts), .instance(SettingsReaderKey.self, h.settings),
                    .instance(InboxPublisherKey.self, h.inbox),
                ]),
            TransferDataModule(),
            TransferFeatureModule(),
        ]).validate(root: TransferCommandsKey.self).resolve()
    }

    struct Run {
        let status: Int32
        let out: String
        let err: String
        var lastLine: String { out.split(separator: "\n").last.map(String.init) ?? "" }
        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        }
    }

    func run(_ arguments: [String]) async throws -> Run {
        let out = CapturingOutput()
        let err = CapturingOutput()
        let context = CommandContext(json: arguments.contains("--json"), verbose: arguments.contains("--verbose"), out: out, err: err)
        let command = try TransferCommand.parseAsRoot(arguments)
        do {
            #expect(try await group.run(command, context: context))
            return Run(status: 0, out: out.text, err: err.text)
        } catch let error as any UserFacingError {
            return Run(status: context.report(error).rawValue, out: out.text, err: err.text)
        }
    }
}

@Suite("moa transfer …")
struct TransferCommandTests {
    @Test func sendPrintsAReceiptCard() async throws {
        let f = try CommandFixture()
        let run = try await f.run([
            "send", "--from", f.h.checking.description, "--to", f.h.bobs.digits, "50,000", "--memo", "dinner",
            "--idempotency-key", "d-1",
        ])
        #expect(run.status == 0)
        for text in [
            "Transfer sent", "From         \(f.h.checking)", "To           \(f.h.bobs)", "Amount       50,000 KRW", "Memo         dinner",
            "New balance  49,950,000 KRW", "Transfer ID", "Key          d-1",
        ] {
            #expect(run.out.contains(text), "missing \(text) in\n\(run.out)")
        }
        let again = try await f.run([
            "send", "--from", f.h.checking.description, "--to", f.h.bobs.digits, "50,000", "--memo", "dinner",
            "--idempotency-key", "d-1",
        ])
        #expect(again.out.contains("Already sent — this is the original receipt"))
        #expect(f.h.accounts.postings.count == 1)
    }

    @Test func sendJSONHasStableSnakeCaseFieldsAndMoneyObjects() async throws {
        let f = try CommandFixture()
        let run = try await f.run(["send", "--from", f.h.checking.description, "--to", f.h.bobs.description, "1,000", "--json"])
        #expect(run.status == 0)
        let json = try run.json()
        #expect(
            Set(json.keys) == [
                "id", "from", "to", "amount", "memo", "idempotency_key", "created_at", "initiated_by",
                "from_balance_after", "replayed",
            ])
        let amount = try #require(json["amount"] as? [String: Any])
        #expect(Set(amount.keys) == ["minor_units", "currency"])
        #expect(amount["minor_units"] as? Int == 1_000 && amount["currency"] as? String == "KRW")
        let balance = try #require(json["from_balance_after"] as? [String: Any])
        #expect(balance["minor_units"] as? Int == 49_999_000 && balance["currency"] as? String == "KRW")
        #expect(json["memo"] is NSNull)
        #expect(json["replayed"] as? Bool == false)
        #expect(json["initiated_by"] as? String == "user-ada")
        #expect(json["created_at"] as? String == "2026-01-01T00:00:00Z")
    }

    @Test func refusalsExitWithTheirStatusAndOneSentence() async throws {
        let f = try CommandFixture()
        let over = try await f.run(["send", "--from", f.h.checking.description, "--to", f.h.bobs.description, "5,000,001"])
        #expect(over.status == 1)
        #expect(over.err.hasPrefix("error: 5,000,001 KRW is above the per-transfer limit of 5,000,000 KRW.\n"))
        let typo = try await f.run(["send", "--from", f.h.checking.description, "--to", "110-0000-0003-2", "1", "--json"])
        #expect(typo.status == 65)
        #expect(typo.err.contains(#""exit_status" : 65"#))
        let missing = try await f.run(["show", "no-such-transfer"])
        #expect(missing.status == 69)
    }

    @Test func listAndShowReadBackWhatWasSent() async throws {
        let f = try CommandFixture()
        for amount in ["1,000", "2,000", "3,000"] {
            _ = try await f.run(["send", "--from", f.h.checking.description, "--to", f.h.bobs.description, amount])
        }
        let page = try await f.run(["list", "--limit", "2", "--json"])
        let json = try page.json()
        let transfers = try #require(json["transfers"] as? [[String: Any]])
        #expect(transfers.compactMap { ($0["amount"] as? [String: Any])?["minor_units"] as? Int } == [3_000, 2_000])
        #expect(transfers.allSatisfy { $0["replayed"] == nil })
        let cursor = try #require(json["next_cursor"] as? String)
        let last = try await f.run(["list", "--limit", "2", "--after", cursor, "--json"])
        #expect(try last.json()["next_cursor"] is NSNull)
        let text = try await f.run(["list", "--limit", "2"])
        #expect(text.out.contains("3,000 KRW") && text.out.contains("More: moa transfer list --after \(cursor)"))
        let id = try #require(transfers.first?["id"] as? String)
        let shown = try await f.run(["show", id])
        #expect(shown.out.contains("Balance after") && shown.out.contains(id))
        let empty = try CommandFixture()
        #expect(try await empty.run(["list"]).out.hasPrefix("No transfers yet"))
    }

    @Test func batchPrintsRefusedRowsThenOneSummaryLineAndExits1() async throws {
        let f = try CommandFixture()
        let file = try TemporaryFile(
            """
            from,to,amount,memo,idempotency_key
            \(f.h.checking),\(f.h.bobs),1000,,
            \(f.h.checking),\(f.h.bobs),0,,
            """)
        let run = try await f.run(["batch", file.path])
        #expect(run.status == 1)
        #expect(run.out.contains("refused") && run.out.contains("Amounts are positive: 0 KRW is not more than zero."))
        #expect(run.lastLine == "Summary: 2 rows: 1 done, 1 refused, 0 skipped (already done), 0 not run.")
        #expect(run.err.contains("1 of 2 rows was refused"))
        let verbose = try await f.run(["batch", file.path, "--verbose"])
        #expect(verbose.out.contains("skipped") && verbose.lastLine.hasPrefix("Summary: 2 rows: 0 done, 1 refused, 1 skipped"))
    }

    @Test func batchJSONListsEveryRow() async throws {
        let f = try CommandFixture()
        let file = try TemporaryFile("from,to,amount\n\(f.h.checking),\(f.h.bobs),1000\n\(f.h.checking),\(f.h.savings),2000\n")
        let run = try await f.run(["batch", file.path, "--json"])
        #expect(run.status == 0 && run.err.isEmpty)
        let json = try run.json()
        #expect(json["summary"] as? [String: Int] == ["total": 2, "done": 2, "refused": 0, "skipped": 0, "not_run": 0])
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.map { $0["status"] as? String } == ["done", "done"])
        #expect(rows.map { $0["line"] as? Int } == [2, 3])
        #expect(rows.allSatisfy { ($0["idempotency_key"] as? String)?.hasPrefix("batch-") == true && $0["reason"] is NSNull })
        #expect(json["interrupted"] as? Bool == false)
    }

    @Test func batchFileProblemsExit66And65() async throws {
        let f = try CommandFixture()
        let folder = try TemporaryFile("from,to,amount\na,b\n")
        let missing = try await f.run(["batch", folder.directory.appendingPathComponent("gone.csv").path])
        #expect(missing.status == 66 && missing.err.contains("gone.csv") && missing.out.isEmpty)
        let malformed = try await f.run(["batch", folder.path])
        #expect(malformed.status == 65 && malformed.err.contains("line 2: it has 2 fields but the header has 3") && malformed.out.isEmpty)
    }
}

@Suite("TransferTesting fakes")
struct FakeTransferTests {
    @Test func theFakeStarterRecordsDraftsAndAnswersWithAReceipt() async throws {
        let starter = FakeTransferStarter(balanceAfter: krw(90_000))
        let receipt = try await starter.send(
            TransferDraft(from: "110-0000-0001-5", to: "110-0000-0003-1", amount: "10,000", idempotencyKey: "k"))
        #expect(receipt.transfer.amount == krw(10_000) && receipt.transfer.fromBalanceAfter == krw(90_000) && !receipt.replayed)
        #expect(try await starter.send(TransferDraft(from: "a", to: "b", amount: "10,000", idempotencyKey: "k")).replayed)
        starter.fail(with: TransferError.overPerTransferLimit(amount: krw(1), limit: krw(0)))
        await #expect(throws: TransferError.self) { try await starter.send(TransferDraft(from: "a", to: "b", amount: "1")) }
        #expect(starter.drafts.count == 2)
    }

    @Test func theFakeReadingPagesNewestFirst() async throws {
        let reading = FakeTransferReading()
        for n in 1...3 { reading.add(sample(n)) }
        let first = try await reading.transfers(limit: 2, after: nil)
        #expect(first.transfers.map(\.id.rawValue) == ["t-user-ada-3", "t-user-ada-2"])
        let second = try await reading.transfers(limit: 2, after: first.nextCursor)
        #expect(second.transfers.map(\.id.rawValue) == ["t-user-ada-1"] && second.nextCursor == nil)
        #expect(try await reading.transfer(id: "t-user-ada-2").amount == krw(1_000))
    }
}
