import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferDomain
import TransferInterface

/// Transfer's command group, collected by the App's root.
public enum TransferCommandsKey: ServiceKey {
    public typealias Service = FeatureCommands
}

/// What Transfer's commands run with.
public struct TransferEnvironment: Sendable {
    let starter: any TransferStarter
    let reading: any TransferReading
    let batch: TransferBatch
    let recipients: RecipientBook

    public init(starter: any TransferStarter, reading: any TransferReading, batch: TransferBatch, recipients: RecipientBook) {
        self.starter = starter
        self.reading = reading
        self.batch = batch
        self.recipients = recipients
    }
}

/// `moa transfer …`
public struct TransferCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "Send money, in bulk from a CSV file too; list your transfers and show receipts; keep favourite recipients.",
        subcommands: [Send.self, Batch.self, List.self, Show.self, RecipientsCommand.self]
    )

    public init() {}

    struct Send: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send money from one of your accounts to any account number.",
            discussion: """
            Limits come from your settings (transfer.per-transfer-limit, transfer.daily-limit; the day is \
            this machine's calendar day). --to takes an account number or @alias, one of your favourites \
            (see `moa transfer recipients`). Retrying with the same --idempotency-key never sends twice: the \
            first transfer's receipt comes back instead.
            """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "Your account to send from: its number (e.g. 110-1234-5678-9) or id.") var from: String
        @Option(help: "The account number to send to, or @alias for one of your favourites.") var to: String
        @Argument(help: "The amount, in the source account's currency (e.g. 50,000 or 12.50).") var amount: String
        @Option(help: "A note for both histories (up to 140 characters).") var memo: String?
        @Option(help: "Any text unique to this transfer, so that a retry cannot send it twice.") var idempotencyKey: String?

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await TransferScreen.show(.send(TransferDraft(from: from, to: to, amount: amount, memo: memo, idempotencyKey: idempotencyKey)),
                                          environment, context)
        }
    }

    struct Batch: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send every transfer of a CSV file, each on its own.",
            discussion: """
            The file starts with a header row: from,to,amount,memo,idempotency_key (memo and \
            idempotency_key may be left out); `to` is an account number or @alias. Each row is checked and sent in its own transaction; a \
            refused row does not stop the others. A row without a key gets one derived from its content \
            and line number, so running the same file again — after an interruption, say — sends only \
            the rows not done yet and skips the others (the same row on the same line of another file \
            counts as done too: give keys to payments you repeat). The last line printed is the summary. \
            Exit status: 0 when every row is done or skipped, 1 when a row was refused, 65 for a malformed \
            file (nothing sent), 66 when it is missing, 75 when stopped by a signal (run it again).
            """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The CSV file.") var file: String

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await BatchScreen.run(file: file, environment, context)
        }
    }

    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(abstract: "Your transfers, newest first, page by page.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Transfers per page (1–200).") var limit = 20
        @Option(help: "The cursor printed under the previous page.") var after: String?

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await TransferScreen.show(.list(limit: limit, after: after), environment, context)
        }
    }

    struct Show: ServiceCommand {
        static let configuration = CommandConfiguration(abstract: "Show a transfer's receipt.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The transfer id (from send, batch or list).") var transferID: String

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await TransferScreen.show(.show(transferID), environment, context)
        }
    }
}

/// Sends one input to the view model and renders the outcome: a receipt card, a table, or JSON.
enum TransferScreen {
    static func show(_ input: TransferViewModel.Input, _ environment: TransferEnvironment, _ context: CommandContext) async throws {
        let viewModel = TransferViewModel(starter: environment.starter, reading: environment.reading)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(state.outcome, error: state.error, json: { outcome -> any Encodable in
            switch outcome {
            case .sent(let receipt): TransferJSON.Transfer(receipt.transfer, replayed: receipt.replayed)
            case .transfer(let transfer): TransferJSON.Transfer(transfer)
            case .page(let page): TransferJSON.Page(page)
            }
        }) { render($0, theme: context.theme) }
    }

    static func render(_ outcome: TransferViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .sent(let receipt):
            let title = receipt.replayed ? "Already sent — this is the original receipt" : "Transfer sent"
            return receiptCard(receipt.transfer, title: title, balanceLabel: "New balance", theme: theme)
        case .transfer(let transfer):
            return receiptCard(transfer, title: "Transfer", balanceLabel: "Balance after", theme: theme)
        case .page(let page):
            var table = Table(columns: [.init("Date"), .init("From"), .init("To"), .init("Amount", alignment: .right), .init("Memo", maxWidth: 24),
                                        .init("Transfer ID")],
                              emptyMessage: "No transfers yet: send one with `moa transfer send --from ACCOUNT --to ACCOUNT_NUMBER AMOUNT`.")
            for transfer in page.transfers {
                table.append([DateText.second(transfer.createdAt), transfer.from, transfer.to, AmountText(transfer.amount, kind: .balance).render(theme: theme),
                              transfer.memo ?? "", transfer.id.rawValue])
            }
            var text = table.render(theme: theme)
            if let next = page.nextCursor {
                text += "\n" + theme.paint("More: moa transfer list --after \(next)", .muted)
            }
            return text
        }
    }

    static func receiptCard(_ transfer: TransferSummary, title: String, balanceLabel: String, theme: Theme) -> String {
        let rows = KeyValueRows([
            .init("From", transfer.from),
            .init("To", transfer.to),
            .init("Amount", AmountText(transfer.amount, kind: .balance).render(theme: theme)),
            .init("Memo", transfer.memo ?? "—"),
            .init(balanceLabel, AmountText(transfer.fromBalanceAfter, kind: .balance).render(theme: theme)),
            .init("Transfer ID", transfer.id.rawValue),
            .init("Time", DateText.second(transfer.createdAt)),
            .init("Key", transfer.idempotencyKey),
        ])
        return Card(title: title, lines: [rows.render(theme: theme)]).render(theme: theme)
    }
}

/// Runs a batch: a progress bar on a terminal (standard error), then the refused rows and one
/// summary line on standard output — or, with `--json`, one JSON document.
enum BatchScreen {
    @MainActor
    static func run(file: String, _ environment: TransferEnvironment, _ context: CommandContext) async throws {
        let signals = StopSignals.install()
        defer { signals.uninstall() }
        let onTerminal = !context.json && context.isInteractive && StandardStream.error.isTerminal
        let progress = ProgressBox()
        let viewModel = BatchViewModel(batch: environment.batch, shouldStop: { signals.isStopRequested }) { done, total in
            guard onTerminal else { return }
            if done == 0 {
                progress.reporter = ProgressReporter(total: total, output: context.err, theme: context.errorTheme, isInteractive: true,
                                                     label: "Transfers")
            }
            progress.reporter?.update(done: done)
        }
        await viewModel.send(.run(path: file))
        progress.reporter?.finish()
        let state = viewModel.state
        if state.rows.isEmpty, let error = state.error { throw error } // the file itself was refused
        if context.json {
            try context.printJSON(TransferJSON.BatchReport(state))
        } else {
            context.print(render(state, verbose: context.verbose, theme: context.theme))
        }
        if let error = state.error { throw error }
        let summary = state.summary
        if state.interrupted { throw BatchStop.interrupted(summary) }
        if summary.refused > 0 { throw BatchStop.refusedRows(summary) }
    }

    /// The refused rows (every row with `--verbose`), then the summary line, last.
    static func render(_ state: BatchViewModel.State, verbose: Bool, theme: Theme) -> String {
        var table = Table(columns: [.init("Line", alignment: .right), .init("Status"), .init("From"), .init("To"),
                                    .init("Amount", alignment: .right), .init("Transfer ID / reason")])
        for (row, outcome) in zip(state.rows, state.outcomes) {
            switch outcome {
            case .refused(let reason):
                table.append([String(row.line), theme.paint("refused", .danger), row.from, row.to, row.amount, reason])
            case .done(let receipt) where verbose:
                table.append([String(row.line), theme.paint("done", .success), row.from, row.to, row.amount, receipt.transfer.id.rawValue])
            case .skipped(let receipt) where verbose:
                table.append([String(row.line), theme.paint("skipped", .muted), row.from, row.to, row.amount, receipt.transfer.id.rawValue])
            case .done, .skipped:
                break
            }
        }
        var lines: [String] = []
        if !table.rows.isEmpty { lines += [table.render(theme: theme), ""] }
        if state.interrupted, state.outcomes.count < state.rows.count {
            lines.append(theme.paint("Stopped by a signal before line \(state.rows[state.outcomes.count].line): run the same file again for the rest.", .warning))
        }
        lines.append(state.summary.line)
        return lines.joined(separator: "\n")
    }
}

/// The progress reporter, made once the row count is known (touched on the main actor only).
@MainActor
private final class ProgressBox {
    var reporter: ProgressReporter?
}

/// Why `moa transfer batch` exits non-zero after running (its summary is already printed).
enum BatchStop: UserFacingError, Equatable {
    case refusedRows(BatchSummary)
    case interrupted(BatchSummary)

    var message: String {
        switch self {
        case .refusedRows(let summary):
            "\(summary.refused) of \(summary.total) row\(summary.total == 1 ? "" : "s") \(summary.refused == 1 ? "was" : "were") refused (see the reasons); the other rows are done or skipped."
        case .interrupted(let summary):
            "The batch was stopped with \(summary.notRun) of \(summary.total) row\(summary.total == 1 ? "" : "s") not run yet."
        }
    }

    var hint: String? {
        switch self {
        case .refusedRows: "Fix those rows and run the same file again: rows already done are skipped."
        case .interrupted: "Run the same file again to send the rest: rows already done are skipped."
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .refusedRows: .refused
        case .interrupted: .temporaryFailure
        }
    }
}

/// The `--json` shapes: stable snake_case field names, money as `{"minor_units", "currency"}`,
/// absent values as `null`.
enum TransferJSON {
    struct Transfer: Encodable {
        let transfer: TransferSummary
        /// Only for `send`.
        let replayed: Bool?

        init(_ transfer: TransferSummary, replayed: Bool? = nil) {
            self.transfer = transfer
            self.replayed = replayed
        }

        enum CodingKeys: String, CodingKey {
            case id, from, to, amount, memo, idempotencyKey, createdAt, initiatedBy, fromBalanceAfter, replayed
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(transfer.id, forKey: .id)
            try container.encode(transfer.from, forKey: .from)
            try container.encode(transfer.to, forKey: .to)
            try container.encode(transfer.amount, forKey: .amount)
            try container.encode(transfer.memo, forKey: .memo)
            try container.encode(transfer.idempotencyKey, forKey: .idempotencyKey)
            try container.encode(transfer.createdAt, forKey: .createdAt)
            try container.encode(transfer.initiatedBy, forKey: .initiatedBy)
            try container.encode(transfer.fromBalanceAfter, forKey: .fromBalanceAfter)
            try container.encodeIfPresent(replayed, forKey: .replayed)
        }
    }

    struct Page: Encodable {
        let transfers: [Transfer]
        let nextCursor: String?

        init(_ page: TransferPage) {
            transfers = page.transfers.map { Transfer($0) }
            nextCursor = page.nextCursor
        }

        enum CodingKeys: String, CodingKey { case transfers, nextCursor }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(transfers, forKey: .transfers)
            try container.encode(nextCursor, forKey: .nextCursor)
        }
    }

    struct BatchRowJSON: Encodable {
        let line: Int
        /// `done`, `skipped`, `refused` or `not_run`.
        let status: String
        let idempotencyKey: String
        let reason: String?
        let transfer: Transfer?

        enum CodingKeys: String, CodingKey { case line, status, idempotencyKey, reason, transfer }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(line, forKey: .line)
            try container.encode(status, forKey: .status)
            try container.encode(idempotencyKey, forKey: .idempotencyKey)
            try container.encode(reason, forKey: .reason)
            try container.encode(transfer, forKey: .transfer)
        }
    }

    struct BatchReport: Encodable {
        let file: String?
        let rows: [BatchRowJSON]
        let summary: BatchSummary
        let interrupted: Bool

        init(_ state: BatchViewModel.State) {
            file = state.file
            rows = state.rows.enumerated().map { index, row in
                let outcome = index < state.outcomes.count ? state.outcomes[index] : nil
                switch outcome {
                case .done(let receipt)?:
                    return BatchRowJSON(line: row.line, status: "done", idempotencyKey: row.effectiveKey, reason: nil, transfer: Transfer(receipt.transfer))
                case .skipped(let receipt)?:
                    return BatchRowJSON(line: row.line, status: "skipped", idempotencyKey: row.effectiveKey, reason: nil, transfer: Transfer(receipt.transfer))
                case .refused(let reason)?:
                    return BatchRowJSON(line: row.line, status: "refused", idempotencyKey: row.effectiveKey, reason: reason, transfer: nil)
                case nil:
                    return BatchRowJSON(line: row.line, status: "not_run", idempotencyKey: row.effectiveKey, reason: nil, transfer: nil)
                }
            }
            summary = state.summary
            interrupted = state.interrupted
        }
    }
}

/// What Transfer's Feature layer provides: the use cases (composed here because they need the other
/// features' Interfaces, which TransferData may not see) and the commands.
public struct TransferFeatureModule: FeatureModule {
    public let name = "Transfer"

    public init() {}

    public var providers: [Provider] {
        SendMoney.providers + [
            .singleton(TransferCommandsKey.self, requires: TransferStarterKey.self, TransferReadingKey.self, SendMoneyKey.self,
                       RecipientBookKey.self) {
                starter, reading, sendMoney, recipients in
                FeatureCommands(TransferCommand.self,
                                environment: TransferEnvironment(starter: starter, reading: reading, batch: TransferBatch(sendMoney: sendMoney),
                                                                 recipients: recipients))
            },
        ]
    }
}
