import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferDomain
import TransferInterface

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
                progress.reporter = ProgressReporter(
                    total: total, output: context.err, theme: context.errorTheme, isInteractive: true,
                    label: "Transfers")
            }
            progress.reporter?.update(done: done)
        }
        await viewModel.send(.run(path: file))
        progress.reporter?.finish()
        let state = viewModel.state
        if state.rows.isEmpty, let error = state.error { throw error } // the file itself was refused
        if context.json {
            try context.printJSON(BatchJSON.BatchReport(state))
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
        var table = Table(columns: [
            .init("Line", alignment: .right), .init("Status"), .init("From"), .init("To"),
            .init("Amount", alignment: .right), .init("Transfer ID / reason"),
        ])
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
            lines.append(
                theme.paint(
                    "Stopped by a signal before line \(state.rows[state.outcomes.count].line): run the same file again for the rest.",
                    .warning))
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
