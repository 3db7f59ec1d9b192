import AccountInterface
import CommandKit
import Foundation
import GRDB
import Money
import SettingsInterface
import SharedKit
import Storage
import Testing
import TransferData
import TransferDomain
import TransferInterface

@testable import TransferFeature

/// `moa transfer send` given plain bad input exits with the documented status and one sentence,
/// never 70; limits bind every currency; old memos are made safe to print.
@Suite("moa transfer send: bad input and limits")
struct TransferInputTests {
    @Test func aNegativeAmountIsTakenForAnAmountAndRefusedAsBadData() async throws {
        let f = try CommandFixture()
        let run = try await f.run(["send", "--from", f.h.checking.description, "--to", f.h.bobs.description, "-5"])
        #expect(run.status == 65)
        #expect(run.err.hasPrefix("error: Amounts are positive: -5 KRW is not more than zero.\n"), "\(run.err)")
        #expect(f.h.accounts.postings.isEmpty)
    }

    @Test(arguments: ["1e6", "100.5", "5,000원", "NaN", ""])
    func aMalformedAmountExits65WithOneSentence(amount: String) async throws {
        let f = try CommandFixture()
        let run = try await f.run(["send", "--from", f.h.checking.description, "--to", f.h.bobs.description, amount])
        #expect(run.status == 65)
        let first = run.err.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("error: ") && first.hasSuffix(".") && !first.hasSuffix(".."), "\(run.err)")
    }

    /// Issue E: a well-formed number that no account has exited 1.
    @Test func aWellFormedNumberThatNoAccountHasIsNotFound() async throws {
        let f = try CommandFixture()
        let run = try await f.run(["send", "--from", f.h.checking.description, "--to", f.h.nobodys.description, "1,000"])
        #expect(run.status == 69)
        #expect(run.err.hasPrefix("error: There is no account \(f.h.nobodys).\n"))
    }

    @Test func aMemoWithAnEscapeSequenceExits65() async throws {
        let f = try CommandFixture()
        let run = try await f.run([
            "send", "--from", f.h.checking.description, "--to", f.h.bobs.description, "1,000", "--memo", "b\u{1B}[31mred",
        ])
        #expect(run.status == 65)
        #expect(run.err.contains("A memo is one line without control or bidirectional formatting characters, and this one has U+001B."))
        #expect(f.h.accounts.postings.isEmpty)
    }

    /// Issue B, through the command.
    @Test func dollarsAreLimitedToo() async throws {
        let f = try CommandFixture()
        let run = try await f.run(["send", "--from", f.h.dollars.description, "--to", f.h.bobsDollars.description, "6,000,000.00"])
        #expect(run.status == 1)
        #expect(run.err.hasPrefix("error: 6,000,000.00 USD is above the per-transfer limit of 3,500.00 USD.\n"))
    }

    @Test func theHelpSaysWhichLimitsBindWhichCurrency() {
        let help = TransferCommand.helpMessage(for: TransferCommand.Send.self, columns: 1_000)
        #expect(help.contains("transfers in KRW follow your settings transfer.per-transfer-limit and transfer.daily-limit"))
        #expect(help.contains("USD 3,500.00 / 7,000.00"))
        #expect(help.contains("JPY 500,000 / 1,000,000"))
        #expect(help.contains("--from <from> --to <to> <amount>"))
        for currency in Currency.supported where currency != .krw { #expect(help.contains("\(currency.code) "), "\(currency)") }
    }

    @Test(arguments: [
        ["send", "--from", "a", "--to", "b"], ["send", "--from", "a", "--to", "b", "1", "2"],
        ["send", "--from", "a", "--to", "b", "1", "--bogus"],
    ])
    func noAmountSeveralOrAnUnknownOptionIsAUsageError(arguments: [String]) {
        do {
            _ = try TransferCommand.parseAsRoot(arguments)
            Issue.record("parsed: \(arguments)")
        } catch {
            #expect(TransferCommand.exitCode(for: error).rawValue == 64)
        }
    }
}

@Suite("Transfer migrations")
struct TransferMigrationTests {
    @Test func controlCharactersAlreadyStoredInMemosAreNeutralized() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("transfer-v3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("moa.sqlite")
        let memos: [String?] = ["b\u{1B}[31mred\u{07}", "tab\tand\nline", "del\u{7F} c1\u{85} \u{202E}evil", nil, "점심"]
        do { // a database of before the memo rules: v1 and v2
            let v2 = MigrationSet(feature: "Transfer", steps: Array(TransferMigrations.all.steps.prefix(2)))
            let old = try AppDatabase.open(at: url, migrations: [v2])
            try old.write { db in
                for (n, memo) in memos.enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO transfer_transfers (id, initiated_by, idempotency_key, from_number, to_number, amount, currency, memo,
                                                            from_balance_after, created_at)
                            VALUES (?, 'user-ada', ?, '110-0000-0001-5', '110-0000-0003-1', 1000, 'KRW', ?, 0, '2026-01-01 00:00:00.000')
                            """, arguments: ["t\(n)", "k\(n)", memo])
                }
            }
        }
        let upgraded = try AppDatabase.open(at: url, migrations: [TransferMigrations.all])
        let stored = try upgraded.read { db in try String?.fetchAll(db, sql: "SELECT memo FROM transfer_transfers ORDER BY position") }
        #expect(stored == ["b␛[31mred␇", "tab\tand\nline", "del␡ c1\u{FFFD} \u{FFFD}evil", nil, "점심"])
    }
}
