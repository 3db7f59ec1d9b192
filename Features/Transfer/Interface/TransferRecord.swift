import Foundation
import Money
import SharedKit

/// A transfer as a program reads it — `moa transfer send/show --json`, a batch report's rows, and
/// moa-server's answer to a send or a show: its one JSON shape, written once. docs/api/openapi.yaml
/// documents it as the schema `Transfer`, whose generated type is this one (`x-moa-swift-type`, see
/// Scripts/generate-api), so the API and the command line cannot drift apart.
///
/// Snake_case keys; money as `{"minor_units", "currency"}`; no memo as `null`; `replayed` only from a
/// send. Decoding is the client's edge: a currency that is not ISO 4217 fails it.
public struct TransferRecord: Codable, Hashable, Sendable {
    public let transfer: TransferSummary
    /// Only from a send: `true` when its idempotency key had already been used for this very request.
    public let replayed: Bool?

    public init(_ transfer: TransferSummary, replayed: Bool? = nil) {
        self.transfer = transfer
        self.replayed = replayed
    }

    enum CodingKeys: String, CodingKey {
        case id, from, to, amount, memo, replayed
        case idempotencyKey = "idempotency_key"
        case createdAt = "created_at"
        case initiatedBy = "initiated_by"
        case fromBalanceAfter = "from_balance_after"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transfer = TransferSummary(
            id: try container.decode(TransferID.self, forKey: .id), from: try container.decode(String.self, forKey: .from),
            to: try container.decode(String.self, forKey: .to), amount: try container.decode(Money.self, forKey: .amount),
            memo: try container.decodeIfPresent(String.self, forKey: .memo),
            idempotencyKey: try container.decode(String.self, forKey: .idempotencyKey),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            initiatedBy: try container.decode(UserID.self, forKey: .initiatedBy),
            fromBalanceAfter: try container.decode(Money.self, forKey: .fromBalanceAfter))
        replayed = try container.decodeIfPresent(Bool.self, forKey: .replayed)
    }

    public func encode(to encoder: any Encoder) throws {
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

extension TransferRecord {
    /// One page of transfers as a program reads it — `moa transfer list --json` and moa-server's
    /// answer to a list (the schema `TransferPage`): `{"transfers": […], "next_cursor": null}`.
    public struct Page: Codable, Hashable, Sendable {
        public let page: TransferPage

        public init(_ page: TransferPage) { self.page = page }

        enum CodingKeys: String, CodingKey {
            case transfers
            case nextCursor = "next_cursor"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            page = TransferPage(
                transfers: try container.decode([TransferRecord].self, forKey: .transfers).map(\.transfer),
                nextCursor: try container.decodeIfPresent(String.self, forKey: .nextCursor))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(page.transfers.map { TransferRecord($0) }, forKey: .transfers)
            try container.encode(page.nextCursor, forKey: .nextCursor)
        }
    }
}
