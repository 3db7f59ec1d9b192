import APIClient
import Foundation
import SharedKit
import TransferAPI
import TransferDomain
import TransferInterface

/// Transfer's use cases on `moa-server`. A send always carries an idempotency key — the person's,
/// a batch row's, or a new random one — so a send retried after a lost answer is sent once.
public struct RemoteTransfers: TransferSending, TransferReading, RecipientUseCases {
    /// Calls that carry the session.
    let api: RemoteAPI

    public init(api: RemoteAPI) { self.api = api }

    public func send(_ draft: TransferDraft) async throws -> TransferReceipt {
        let key = draft.idempotencyKey ?? UUID().uuidString.lowercased()
        do {
            return try await sendOnce(draft, key: key)
        } catch let error as ServerUnreachable where error.sent == .perhaps {
            // The request may have reached the server and the answer been lost: say how to retry safely.
            // (A refused connection sent nothing: it is said as it is.)
            throw TransferOutcomeUnknown(key: key, reason: error)
        } catch let problem as RemoteProblem where problem.type == "unexpected-response" {
            // The server answered, but not in this moa's API: the money may have moved.
            throw TransferOutcomeUnknown(key: key, answerNotUnderstoodFrom: api.address.url.absoluteString)
        }
    }

    private func sendOnce(_ draft: TransferDraft, key: String) async throws -> TransferReceipt {
        try await api.call { client in
            let output = try await client.sendTransfer(
                headers: .init(idempotencyKey: key),
                body: .json(.init(from: draft.from, to: draft.to, amount: draft.amount, memo: draft.memo)))
            switch output {
            case .created(let created): return TransferReceipt(transfer: try created.body.json.transfer, replayed: false)
            case .ok(let ok): return TransferReceipt(transfer: try ok.body.json.transfer, replayed: true)
            default: throw RemoteAPI.unexpected("the transfer")
            }
        }
    }

    /// Rows are sent one request each, each with its own key; the server resolves the limits.
    public func startBatch() async throws -> any BatchSending { self }

    public func transfers(limit: Int, after cursor: String?) async throws -> TransferPage {
        try await api.call { client in
            guard case .ok(let ok) = try await client.listTransfers(query: .init(limit: limit, cursor: cursor)) else {
                throw RemoteAPI.unexpected("the transfer list")
            }
            return try ok.body.json.page
        }
    }

    public func transfer(id: TransferID) async throws -> TransferSummary {
        try await api.call { client in
            guard case .ok(let ok) = try await client.getTransfer(path: .init(transferId: id.rawValue)) else {
                throw RemoteAPI.unexpected("the transfer")
            }
            return try ok.body.json.transfer
        }
    }

    public func recipients() async throws -> Recipients {
        try await api.call { client in
            guard case .ok(let ok) = try await client.listRecipients() else { throw RemoteAPI.unexpected("the recipients") }
            let recipients = try ok.body.json
            return Recipients(
                favourites: recipients.favourites.map {
                    FavouriteRecipient(alias: $0.alias, accountNumber: $0.accountNumber, addedAt: $0.addedAt)
                },
                recents: recipients.recents.map { RecentRecipient(accountNumber: $0.accountNumber, lastSentAt: $0.lastSentAt) })
        }
    }

    public func add(number: String, alias: String) async throws -> FavouriteRecipient {
        try await api.call { client in
            guard case .created(let created) = try await client.addFavouriteRecipient(body: .json(.init(number: number, alias: alias)))
            else {
                throw RemoteAPI.unexpected("the new favourite")
            }
            let favourite = try created.body.json
            return FavouriteRecipient(alias: favourite.alias, accountNumber: favourite.accountNumber, addedAt: favourite.addedAt)
        }
    }

    public func remove(alias: String) async throws -> FavouriteRecipient {
        try await api.call { client in
            guard case .ok(let ok) = try await client.removeFavouriteRecipient(path: .init(alias: alias)) else {
                throw RemoteAPI.unexpected("the removed favourite")
            }
            let favourite = try ok.body.json
            return FavouriteRecipient(alias: favourite.alias, accountNumber: favourite.accountNumber, addedAt: favourite.addedAt)
        }
    }
}

extension RemoteTransfers: BatchSending {}

/// A send whose answer never came, or came in a shape this moa does not understand: it may or may
/// not have been made. Retried with the same key it is made exactly once either way, so the key is
/// told — 75 (temporary) when no answer came; 78 (configuration) when the answer was not understood,
/// which a retry against the same server would not change.
public struct TransferOutcomeUnknown: UserFacingErrorWithFields, Equatable {
    public let key: String
    public let cause: Cause

    public enum Cause: Equatable, Sendable {
        /// The request may have reached the server and its answer been lost.
        case noAnswer(ServerUnreachable)
        /// The server at this address answered with a body the document does not allow.
        case answerNotUnderstood(server: String)
    }

    public init(key: String, reason: ServerUnreachable) {
        self.key = key
        cause = .noAnswer(reason)
    }

    public init(key: String, answerNotUnderstoodFrom server: String) {
        self.key = key
        cause = .answerNotUnderstood(server: server)
    }

    public var message: String {
        switch cause {
        case .noAnswer(let reason):
            "No answer came from moa-server at \(reason.address) about the transfer (\(RemoteProblem.clean(reason.reason).trimmingCharacters(in: ["."]))), so it may or may not have been sent."
        case .answerNotUnderstood(let server):
            "moa-server at \(RemoteProblem.clean(server)) answered the transfer in a way this moa does not understand, so it may or may not have been sent."
        }
    }
    /// For scripts (`--json`): the key to send it again with, and that the outcome is unknown.
    public var fields: [String: String] {
        ["idempotency_key": key, "outcome": "unknown"]
    }

    public var hint: String? {
        switch cause {
        case .noAnswer:
            "Send it again with --idempotency-key \(RemoteProblem.clean(key)): it is sent once either way."
        case .answerNotUnderstood:
            "Check `moa transfer list` first, or send it again with --idempotency-key \(RemoteProblem.clean(key)) once moa and moa-server speak the same API (`moa doctor`): it is sent once either way."
        }
    }
    public var exitStatus: ExitStatus {
        switch cause {
        case .noAnswer: .temporaryFailure
        case .answerNotUnderstood: .configuration
        }
    }
}

extension RemoteAPI {
    /// One call of TransferAPI's generated client, on this API's server, connections and credentials.
    func call<T: Sendable>(_ work: @escaping @Sendable (Client) async throws -> T) async throws -> T {
        let client = Client(serverURL: address.url, configuration: .moa, transport: transport, middlewares: middlewares)
        return try await call { try await work(client) }
    }
}
