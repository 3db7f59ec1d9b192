import AccountDomain
import AccountInterface
import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferInterface

/// Sends one input and renders the outcome with the design system, or as JSON.
enum AccountScreen {
    static func show(_ input: AccountsViewModel.Input, _ environment: AccountEnvironment, _ context: CommandContext) async throws {
        let viewModel = AccountsViewModel(service: environment.service)
        await viewModel.send(input)
        let state = await viewModel.state
        try context.present(
            state.outcome, error: state.error, json: AccountJSON.make,
            paged: { if case .history = $0 { true } else { false } }
        ) { render($0, theme: context.theme) }
    }

    static func render(_ outcome: AccountsViewModel.Outcome, theme: Theme) -> String {
        switch outcome {
        case .opened(let account):
            return theme.paint(
                "Opened \(account.kind.rawValue) account \(account.number) “\(account.name)” in \(account.currency.code).", .success)
        case .accounts(let accounts):
            var table = Table(
                columns: [.init("Number"), .init("Name"), .init("Type"), .init("Balance", alignment: .right), .init("Status")],
                emptyMessage: "No accounts yet: open one with `moa account open --type checking --name NAME`.")
            for account in accounts {
                table.append([
                    account.number.description, account.name, account.kind.rawValue,
                    AmountText(account.balance, kind: .balance).render(theme: theme), account.isClosed ? "closed" : "open",
                ])
            }
            return table.render(theme: theme)
        case .account(let account, let recent):
            var lines = KeyValueRows([
                "Number": account.number.description,
                "Type": account.kind.rawValue,
                "Balance": AmountText(account.balance, kind: .balance).render(theme: theme),
                "Status": account.isClosed ? "closed" : "open",
                "Opened": DateText.minute(account.openedAt),
            ]).render(theme: theme).components(separatedBy: "\n")
            if !recent.isEmpty {
                lines +=
                    ["", theme.paint("Latest movements", .heading)]
                    + entriesTable(recent, theme: theme).render(theme: theme).components(separatedBy: "\n")
            }
            return Card(title: account.name, lines: lines).render(theme: theme)
        case .renamed(let account):
            return "Account \(account.number) is now “\(account.name)”."
        case .moved(let entry):
            let verb = entry.amount.isPositive ? "Deposited" : "Withdrew"
            let magnitude = Money(
                minorUnits: entry.amount.minorUnits.magnitude > UInt64(Int64.max) ? Int64.max : abs(entry.amount.minorUnits),
                currency: entry.amount.currency)
            let amount = AmountText(magnitude, kind: .balance).render(theme: theme)
            return "\(verb) \(amount) — balance of \(entry.account): \(AmountText(entry.balanceAfter, kind: .balance).render(theme: theme))"
        case .history(let account, let page):
            var text =
                theme.paint("\(account.name) · \(account.number)", .heading) + "\n"
                + entriesTable(page.entries, theme: theme).render(theme: theme)
            if let next = page.nextCursor {
                text += "\n" + theme.paint("More: moa account history \(account.number) --after \(next)", .muted)
            }
            return text
        case .closed(let account):
            return "Closed account \(account.number) “\(account.name)”."
        }
    }

    static func entriesTable(_ entries: [LedgerEntry], theme: Theme) -> Table {
        var table = Table(
            columns: [
                .init("Date"), .init("What"), .init("Amount", alignment: .right), .init("Balance", alignment: .right), .init("Memo"),
            ],
            emptyMessage: "No movements yet.")
        for entry in entries {
            let what = entry.counterparty.map { "\(entry.kind.rawValue) \($0)" } ?? entry.kind.rawValue
            table.append([
                DateText.minute(entry.at), what, AmountText(entry.amount, kind: .change).render(theme: theme),
                AmountText(entry.balanceAfter, kind: .balance).render(theme: theme), entry.memo ?? "",
            ])
        }
        return table
    }
}
