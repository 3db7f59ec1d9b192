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
            try await TransferScreen.show(
                .send(TransferDraft(from: from, to: to, amount: amount, memo: memo, idempotencyKey: idempotencyKey)),
                environment, context)
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
}
