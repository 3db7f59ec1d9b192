import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferDomain
import TransferInterface

extension TransferCommand {
    struct Batch: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "batch",
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
}

/// The `--json` shape of a batch report: snake_case, absent values as `null`, each done or skipped
/// row's transfer as ``TransferRecord`` (the shape of `send --json`).
enum BatchJSON {
    struct BatchRowJSON: Encodable {
        let line: Int
        /// `done`, `skipped`, `refused` or `not_run`.
        let status: String
        let idempotencyKey: String
        let reason: String?
        let transfer: TransferRecord?

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
                    return BatchRowJSON(
                        line: row.line, status: "done", idempotencyKey: row.effectiveKey, reason: nil,
                        transfer: TransferRecord(receipt.transfer))
                case .skipped(let receipt)?:
                    return BatchRowJSON(
                        line: row.line, status: "skipped", idempotencyKey: row.effectiveKey, reason: nil,
                        transfer: TransferRecord(receipt.transfer))
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
