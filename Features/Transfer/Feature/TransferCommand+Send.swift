import AccountInterface
import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SettingsInterface
import SharedKit
import TransferDomain
import TransferInterface

extension TransferCommand {
    struct Send: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Send money from one of your accounts to any account number.",
            usage: """
                moa transfer send [--home <dir>] [--json] [--no-color] [--verbose] --from <from> --to <to> <amount> [--memo <memo>] \
                [--idempotency-key <idempotency-key>]
                """,
            discussion: """
                --to takes an account number or @alias, one of your favourites (see `moa transfer recipients`). \
                Retrying with the same --idempotency-key never sends twice: the first transfer's receipt comes back instead.

                \(SendLimits.text)
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "Your account to send from: its number (e.g. 110-1234-5678-9) or id.") var from: String
        @Option(help: "The account number to send to, or @alias for one of your favourites.") var to: String
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp("The amount, in the source account's currency (e.g. 50,000 or 12.50; more than zero).", valueName: "amount"))
        var amount: [String] = []
        @Option(help: "A note for both histories: up to \(Memo.maximumLength) characters on one line, without control characters.")
        var memo: String?
        @Option(help: "Any text unique to this transfer, so that a retry cannot send it twice.") var idempotencyKey: String?

        func validate() throws { _ = try SignedArgument.single(amount) }

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await TransferScreen.show(
                .send(
                    TransferDraft(from: from, to: to, amount: try SignedArgument.single(amount), memo: memo, idempotencyKey: idempotencyKey)
                ),
                environment, context)
        }
    }
}

/// What `moa transfer send --help` says about limits and bounds.
enum SendLimits {
    static var text: String {
        let krw = SettingsSnapshot.defaults.transferLimits
        var lines = [
            """
            Limits (Moa converts no currency, so each has its own; the day is this machine's calendar day): transfers in \
            \(TransferLimits.configurableCurrency.code) follow your settings transfer.per-transfer-limit and transfer.daily-limit \
            (by default \(krw.perTransfer.formatted()) and \(krw.daily.formatted())); every other currency has fixed limits, \
            per transfer and per day, and a currency with none cannot be sent:
            """
        ]
        let others = TransferLimits.defaultLimits.sorted { $0.key.code < $1.key.code }
        var row: [String] = []
        for (currency, limits) in others {
            row.append("\(currency.code) \(limits.perTransfer.formattedAmount()) / \(limits.daily.formattedAmount())")
            if row.count == 2 { // two a line: under 80 columns
                lines.append("  " + row.joined(separator: "; "))
                row = []
            }
        }
        if !row.isEmpty { lines.append("  " + row.joined(separator: "; ")) }
        lines.append(
            """
            One transfer moves at most \(Money.grouped(AmountBounds.maximumOperationMinorUnits)) minor units (\
            \(AmountBounds.maximumOperation(in: .krw).formatted())), and an account holds at most \
            \(Money.grouped(AmountBounds.maximumBalanceMinorUnits)) minor units. Exit status: 65 for a malformed amount, account \
            number or memo, 69 for an account or a favourite (@alias) that does not exist, 1 for a refusal (a limit, insufficient \
            funds, …).
            """)
        return lines.joined(separator: "\n")
    }
}
