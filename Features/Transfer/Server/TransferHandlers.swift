import APIServing
import Foundation
import OpenAPIRuntime
import SharedKit
import TransferAPI
import TransferDomain
import TransferInterface

/// The operations of docs/api/openapi.yaml tagged Transfer (TransferAPI's `APIProtocol`), on the
/// transfer use cases `moa` runs: limits, idempotency and the ledger's rules hold where no client
/// can skip them.
public struct TransferHandlers: APIProtocol {
    /// What became of one request to send money (the server counts them).
    public enum Outcome: Sendable, Equatable {
        case committed
        case replayed
        /// Refused, with the problem's kind (`insufficient-funds`, `limit-exceeded`, …).
        case refused(kind: String)
    }

    let sendMoney: any TransferSending
    let transfers: any TransferReading
    let recipients: any RecipientUseCases
    /// How refusals are named for ``Outcome/refused(kind:)``: the server's catalog.
    let problems: ProblemCatalog
    let count: @Sendable (Outcome) -> Void

    public init(
        sendMoney: any TransferSending, transfers: any TransferReading, recipients: any RecipientUseCases, problems: ProblemCatalog,
        count: @escaping @Sendable (Outcome) -> Void = { _ in }
    ) {
        self.sendMoney = sendMoney
        self.transfers = transfers
        self.recipients = recipients
        self.problems = problems
        self.count = count
    }

    public func listTransfers(_ input: Operations.ListTransfers.Input) async throws -> Operations.ListTransfers.Output {
        let page = try await transfers.transfers(limit: input.query.limit ?? 20, after: try Bound.cursor(input.query.cursor))
        return .ok(
            .init(body: .json(.init(page))))
    }

    public func sendTransfer(_ input: Operations.SendTransfer.Input) async throws -> Operations.SendTransfer.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let receipt: TransferReceipt
        do {
            let draft = TransferDraft(
                from: try Bound.text(body.from, "/from", 64), to: try Bound.text(body.to, "/to", 128),
                amount: try Bound.text(body.amount, "/amount", 64), memo: try Bound.memo(body.memo),
                idempotencyKey: try Bound.text(input.headers.idempotencyKey, "Idempotency-Key", 128))
            receipt = try await sendMoney.send(draft)
        } catch {
            let kind =
                (error as? any UserFacingError).map { problems.problem(for: $0).kind } ?? (error as? Problem)?.kind ?? "internal"
            count(.refused(kind: kind))
            throw error
        }
        count(receipt.replayed ? .replayed : .committed)
        let transfer = Components.Schemas.Transfer(receipt.transfer, replayed: receipt.replayed)
        return receipt.replayed ? .ok(.init(body: .json(transfer))) : .created(.init(body: .json(transfer)))
    }

    public func getTransfer(_ input: Operations.GetTransfer.Input) async throws -> Operations.GetTransfer.Output {
        let id = try Bound.text(input.path.transferId, "transfer_id", 64)
        return .ok(.init(body: .json(.init(try await transfers.transfer(id: TransferID(id))))))
    }

    public func listRecipients(_ input: Operations.ListRecipients.Input) async throws -> Operations.ListRecipients.Output {
        let recipients = try await recipients.recipients()
        return .ok(
            .init(
                body: .json(
                    .init(
                        favourites: recipients.favourites.map(Components.Schemas.FavouriteRecipient.init),
                        recents: recipients.recents.map { .init($0, favourites: recipients.favourites) }))))
    }

    public func addFavouriteRecipient(_ input: Operations.AddFavouriteRecipient.Input) async throws
        -> Operations.AddFavouriteRecipient.Output
    {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let favourite = try await recipients.add(
            number: try Bound.text(body.number, "/number", 64), alias: try Bound.text(body.alias, "/alias", 128))
        return .created(.init(body: .json(.init(favourite))))
    }

    public func removeFavouriteRecipient(_ input: Operations.RemoveFavouriteRecipient.Input) async throws
        -> Operations.RemoveFavouriteRecipient.Output
    {
        let removed = try await recipients.remove(alias: try Bound.text(input.path.alias, "alias", 128))
        return .ok(.init(body: .json(.init(removed))))
    }
}

/// Transfer's refusals of their own kind: over a limit, and an idempotency key reused for another transfer.
public enum TransferProblems {
    public static let classifier: ProblemCatalog.Classifier = { error, _ in
        switch error {
        case TransferError.overPerTransferLimit, TransferError.dailyLimitExceeded, TransferError.noLimits:
            ProblemCatalog.conflict(error, kind: "limit-exceeded", title: "Limit exceeded")
        case TransferError.idempotencyKeyReused:
            Problem(
                kind: "idempotency-key-reused", title: "Idempotency key reused", status: .unprocessableContent, detail: error.message,
                exitStatus: error.exitStatus, hint: error.hint)
        default: nil
        }
    }
}
