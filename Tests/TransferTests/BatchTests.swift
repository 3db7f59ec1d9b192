import AccountInterface
import AuthInterface
import Foundation
import SharedKit
import Testing
import TransferDomain
import TransferFeature
import TransferInterface

/// A file in a fresh temporary folder, removed with the value.
final class TemporaryFile {
    let directory: URL
    let url: URL
    var path: String { url.path }

    init(_ contents: String, name: String = "batch.csv") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("transfer-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
    }

    func write(_ contents: String) throws { try Data(contents.utf8).write(to: url) }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

@Suite("Batch files: parsed with SwiftCSV, every problem named by its line")
struct BatchFileTests {
    static let header = "from,to,amount,memo,idempotency_key"

    @Test func rowsKeepTheirLineNumbersAcrossBlankLinesAndQuotedLineBreaks() throws {
        let file = try BatchFile.parse(
            #"""
            \#(Self.header)
            110-0000-0001-5,110-0000-0003-1,"10,000",lunch,k1

            110-0000-0001-5 , 220-0000-0002-0 ,500,"two
            lines",
            110-0000-0001-5,110-0000-0003-1,7,"say ""hi"" ",
            """#)
        #expect(file.rows.map(\.line) == [2, 4, 6])
        #expect(
            file.rows[0]
                == BatchRow(line: 2, from: "110-0000-0001-5", to: "110-0000-0003-1", amount: "10,000", memo: "lunch", idempotencyKey: "k1"))
        #expect(file.rows[1].from == "110-0000-0001-5" && file.rows[1].to == "220-0000-0002-0")
        #expect(file.rows[1].memo == "two\nlines" && file.rows[1].idempotencyKey == nil)
        #expect(file.rows[2].memo == "say \"hi\"")
    }

    @Test func columnsMayComeInAnyOrderAndTheOptionalOnesMayBeLeftOut() throws {
        let file = try BatchFile.parse(
            "\u{FEFF}Amount,TO,from\r\n1000,110-0000-0003-1,110-0000-0001-5\r\n2000,110-0000-0003-1,110-0000-0001-5")
        #expect(
            file.rows == [
                BatchRow(line: 2, from: "110-0000-0001-5", to: "110-0000-0003-1", amount: "1000", memo: nil, idempotencyKey: nil),
                BatchRow(line: 3, from: "110-0000-0001-5", to: "110-0000-0003-1", amount: "2000", memo: nil, idempotencyKey: nil),
            ])
    }

    @Test func aTrailingEmptyFieldWithoutAFinalLineBreakIsStillAField() throws {
        let file = try BatchFile.parse("\(Self.header)\n110-0000-0001-5,110-0000-0003-1,1,,")
        #expect(file.rows.count == 1 && file.rows[0].memo == nil && file.rows[0].idempotencyKey == nil)
    }

    @Test(arguments: [
        ("", 1, "the file is empty: it needs a header row from,to,amount,memo,idempotency_key"),
        ("\n\n", 1, "the file is empty: it needs a header row from,to,amount,memo,idempotency_key"),
        (
            "110-0000-0001-5,110-0000-0003-1,1000\n", 1,
            "the header has an unknown column “110-0000-0001-5”: expected from,to,amount,memo,idempotency_key"
        ),
        ("from,to,memo\n", 1, "the header row lacks amount: expected from,to,amount,memo,idempotency_key"),
        ("from,to,amount,to\n", 1, "the header names the column “to” twice"),
        ("from,to,amount\na,b,1\na,b\n", 3, "it has 2 fields but the header has 3"),
        ("from,to,amount\n\na,b,1,extra\n", 3, "it has 4 fields but the header has 3"),
        ("from,to,amount,memo\na,b,1,\"multi\nline\"\na,b,1,\"never closed\n", 4, "a quoted field is not closed"),
        ("from,to,amount\na,b,\"1\"x\n", 2, "a quotation mark is misplaced (quote the whole field, and double a quote inside it)"),
    ])
    func aMalformedFileNamesTheLineAndRunsNothing(_ text: String, _ line: Int, _ reason: String) {
        #expect(throws: BatchFileError.malformed(file: "f.csv", line: line, reason: reason)) { try BatchFile.parse(text, file: "f.csv") }
        let error = BatchFileError.malformed(file: "f.csv", line: line, reason: reason)
        #expect(error.exitStatus == .dataError)
        #expect(error.message == "f.csv, line \(line): \(reason).")
    }

    @Test func aMissingFileIsExit66WithItsPath() throws {
        let folder = try TemporaryFile("x")
        let path = folder.directory.appendingPathComponent("nope.csv").path
        #expect(throws: BatchFileError.missing(path: path)) { try BatchFile.load(path: path) }
        #expect(BatchFileError.missing(path: path).exitStatus == .noInput)
        #expect(BatchFileError.missing(path: path).message == "There is no batch file at \(path).")
        #expect(throws: BatchFileError.unreadable(path: folder.directory.path, reason: "it is a folder")) {
            try BatchFile.load(path: folder.directory.path)
        }
        // /dev/null exists and is readable, but it is a device: say so, not "permission".
        #expect(throws: BatchFileError.unreadable(path: "/dev/null", reason: "it is a device or a socket, not a file")) {
            try BatchFile.load(path: "/dev/null")
        }
        #expect(BatchFileError.unreadable(path: "/dev/null", reason: "it is a device or a socket, not a file").exitStatus == .noInput)
    }

    @Test func aFileThatIsNotUTF8IsBadData() throws {
        let file = try TemporaryFile("")
        try Data([0x66, 0x72, 0x6F, 0x6D, 0xFF, 0xFE, 0x0A]).write(to: file.url)
        #expect(throws: BatchFileError.notText(path: file.path)) { try BatchFile.load(path: file.path) }
    }

    @Test func aRowWithoutAKeyGetsOneDerivedFromItsContentAndLine() {
        let row = BatchRow(line: 2, from: "110-0000-0001-5", to: "110-0000-0003-1", amount: "1000", memo: "lunch", idempotencyKey: nil)
        let same = BatchRow(line: 2, from: "110-0000-0001-5", to: "110-0000-0003-1", amount: "1000", memo: "lunch", idempotencyKey: "")
        let otherLine = BatchRow(
            line: 3, from: "110-0000-0001-5", to: "110-0000-0003-1", amount: "1000", memo: "lunch", idempotencyKey: nil)
        let otherAmount = BatchRow(
            line: 2, from: "110-0000-0001-5", to: "110-0000-0003-1", amount: "1001", memo: "lunch", idempotencyKey: nil)
        #expect(row.effectiveKey == same.effectiveKey)
        #expect(row.effectiveKey.hasPrefix("batch-") && row.effectiveKey.count == 38)
        #expect(row.effectiveKey != otherLine.effectiveKey && row.effectiveKey != otherAmount.effectiveKey)
        // Stable across runs, machines and builds (a re-run must find the same key): FNV-1a 64 of
        // "2␟from␟to␟amount␟memo" with two offsets, as computed independently.
        #expect(row.effectiveKey == "batch-cd462dbeea57a67248f0ea4fb479708d")
        let keyed = BatchRow(line: 2, from: "a", to: "b", amount: "1", memo: nil, idempotencyKey: "mine")
        #expect(keyed.effectiveKey == "mine" && keyed.draft.idempotencyKey == "mine")
    }
}

@Suite("Batch runs: each row on its own; re-running completes the rest and double-posts nothing")
@MainActor
struct BatchRunTests {
    func csv(_ h: Harness) -> String {
        """
        from,to,amount,memo,idempotency_key
        \(h.checking),\(h.bobs),"10,000",lunch,
        \(h.checking),\(h.savings),250000,savings,
        \(h.checking),110-0000-0003-2,5000,typo,
        \(h.checking),\(h.bobs),0,nothing,
        \(h.checking),\(h.bobs),20000,keyed,my-key
        \(h.bobs),\(h.checking),1,not mine,
        """
    }

    @Test func theSummaryCountsDoneRefusedAndSkippedRows() async throws {
        let h = try Harness()
        let file = try TemporaryFile(csv(h))
        let progress = Locked<[Int]>([])
        let viewModel = BatchViewModel(
            batch: TransferBatch(sendMoney: h.sendMoney()), onProgress: { done, _ in progress.withLock { $0.append(done) } })
        await viewModel.send(.run(path: file.path))
        #expect(viewModel.state.error == nil)
        #expect(viewModel.state.summary == BatchSummary(total: 6, done: 3, refused: 3, skipped: 0, notRun: 0))
        guard case .refused(let reason) = viewModel.state.outcomes[2] else {
            Issue.record("row 4 was not refused")
            return
        }
        #expect(reason == AccountNumberError.checkDigitMismatch("110-0000-0003-2").message)
        guard case .refused(let notMine) = viewModel.state.outcomes[5] else {
            Issue.record("row 7 was not refused")
            return
        }
        #expect(notMine == TransferError.unknownSourceAccount(h.bobs.description).message)
        #expect(progress.withLock { $0 } == [0, 1, 2, 3, 4, 5, 6])
        #expect(h.accounts.postings.count == 3)
        #expect(viewModel.state.summary.line == "Summary: 6 rows: 3 done, 3 refused, 0 skipped (already done), 0 not run.")

        let again = BatchViewModel(batch: TransferBatch(sendMoney: h.sendMoney()))
        await again.send(.run(path: file.path))
        #expect(again.state.summary == BatchSummary(total: 6, done: 0, refused: 3, skipped: 3, notRun: 0))
        #expect(h.accounts.postings.count == 3)
    }

    @Test func aFixedRowRunsOnTheNextRunAndTheOthersAreSkipped() async throws {
        let h = try Harness()
        let file = try TemporaryFile(csv(h))
        await BatchViewModel(batch: TransferBatch(sendMoney: h.sendMoney())).send(.run(path: file.path))
        try file.write(csv(h).replacingOccurrences(of: "110-0000-0003-2", with: h.bobs.description))
        let fixed = BatchViewModel(batch: TransferBatch(sendMoney: h.sendMoney()))
        await fixed.send(.run(path: file.path))
        #expect(fixed.state.summary == BatchSummary(total: 6, done: 1, refused: 2, skipped: 3, notRun: 0))
        #expect(h.accounts.postings.count == 4)
    }

    @Test func anInterruptedBatchStopsBetweenRowsAndTheNextRunCompletesItExactlyOnce() async throws {
        let h = try Harness()
        let lines = (1...10).map { "\(h.checking),\(h.bobs),\($0 * 100),row \($0)," }
        let file = try TemporaryFile((["from,to,amount,memo,idempotency_key"] + lines).joined(separator: "\n"))
        let accounts = h.accounts
        let first = BatchViewModel(batch: TransferBatch(sendMoney: h.sendMoney()), shouldStop: { accounts.postings.count >= 4 })
        await first.send(.run(path: file.path))
        #expect(first.state.interrupted)
        #expect(first.state.summary == BatchSummary(total: 10, done: 4, refused: 0, skipped: 0, notRun: 6))
        let second = BatchViewModel(batch: TransferBatch(sendMoney: h.sendMoney()))
        await second.send(.run(path: file.path))
        #expect(!second.state.interrupted)
        #expect(second.state.summary == BatchSummary(total: 10, done: 6, refused: 0, skipped: 4, notRun: 0))
        #expect(h.accounts.postings.map(\.amount.minorUnits) == (1...10).map { Int64($0 * 100) })
        #expect(h.accounts.balance(of: h.bobs) == krw(1_000_000 + 5_500))
    }

    @Test func somethingNotAboutARowStopsTheBatchBeforeItSendsAnything() async throws {
        let h = try Harness()
        h.session.set(nil)
        let file = try TemporaryFile(csv(h))
        let viewModel = BatchViewModel(batch: TransferBatch(sendMoney: h.sendMoney()))
        await viewModel.send(.run(path: file.path))
        #expect(viewModel.state.error is NotLoggedInError)
        #expect(viewModel.state.rows.count == 6 && viewModel.state.outcomes.isEmpty)
        #expect(viewModel.state.summary.notRun == 6)
        #expect(h.accounts.postings.isEmpty)
    }

    @Test func aMalformedFileRunsNothing() async throws {
        let h = try Harness()
        let file = try TemporaryFile("from,to,amount\n\(h.checking),\(h.bobs),1\n\(h.checking),\(h.bobs)\n")
        let viewModel = BatchViewModel(batch: TransferBatch(sendMoney: h.sendMoney()))
        await viewModel.send(.run(path: file.path))
        #expect(
            (viewModel.state.error as? BatchFileError)
                == .malformed(file: file.path, line: 3, reason: "it has 2 fields but the header has 3"))
        #expect(viewModel.state.rows.isEmpty && h.accounts.postings.isEmpty)
    }
}
