import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferDomain
import TransferInterface

/// Sends one input to the view model and renders the outcome: a receipt card, a table, or JSON.
enum TransferScreen {
    static func show(_ input: TransferViewModel.Input, _ environment: TransferEnvironment, _ context: CommandContext) async throws {
        let viewModel = TransferViewModel(starter: environment.starter, reading: environment.reading)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(
            state.outcome, error: state.error,
            json: { outcome -> any Encodable in
                switch outcome {
                case .sent(let receipt): TransferRecord(receipt.transfer, replayed: receipt.replayed)
                case .transfer(let transfer): TransferRecord(transfer)
                case .page(let page): TransferRecord.Page(page)
                }
            },
            paged: { if case .page = $0 { true } else { false } }
        ) { render($0, theme: context.theme) }
    }

    static func render(_ outcome: TransferViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .sent(let receipt):
            let title = receipt.replayed ? "Already sent — this is the original receipt" : "Transfer sent"
            return receiptCard(receipt.transfer, title: title, balanceLabel: "New balance", theme: theme)
        case .transfer(let transfer):
            return receiptCard(transfer, title: "Transfer", balanceLabel: "Balance after", theme: theme)
        case .page(let page):
            var table = Table(
                columns: [
                    .init("Date"), .init("From"), .init("To"), .init("Amount", alignment: .right), .init("Memo", maxWidth: 24),
                    .init("Transfer ID"),
                ],
                emptyMessage: "No transfers yet: send one with `moa transfer send --from ACCOUNT --to ACCOUNT_NUMBER AMOUNT`.")
            for transfer in page.transfers {
                table.append([
                    DateText.second(transfer.createdAt), transfer.from, transfer.to,
                    AmountText(transfer.amount, kind: .balance).render(theme: theme),
                    transfer.memo ?? "", transfer.id.rawValue,
                ])
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
