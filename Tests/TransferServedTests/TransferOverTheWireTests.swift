import APIClient
import APIServing
import APITesting
import CommandKit
import DesignSystem
import Foundation
import HTTPTypes
import Money
import OpenAPIRuntime
import SharedKit
import Testing
import TransferDomain
import TransferInterface
import TransferRemote
import TransferServer
import TransferTesting

/// Transfer's served half in its own closure: its handlers (TransferServer) on the generated server,
/// and its remote use cases (TransferRemote) on the generated client, joined in one process
/// (``InProcessAPI``) — every field of a transfer, and every refusal, crosses the API's JSON both ways.
@Suite("Transfer · over the wire")
struct TransferOverTheWireTests {
    let starter = FakeTransferStarter(balanceAfter: Money(minorUnits: 9_500, currency: .krw))
    let reading = FakeTransferReading()
    let book = FakeRecipientBook()
    let remote: RemoteTransfers
    /// The same handlers, called without a bearer token (a remote composed without the session).
    let anonymous: RemoteTransfers
    /// The handlers' transport, for what a client that is not `moa` reads (the raw JSON).
    let api: InProcessAPI

    init() throws {
        let api = InProcessAPI(problems: ProblemCatalogs.transfer, requiresToken: true)
        self.api = api
        try TransferHandlers(
            sendMoney: FakeSending(starter: starter), transfers: reading, recipients: book, problems: ProblemCatalogs.transfer
        ).registerHandlers(on: api)
        remote = RemoteTransfers(api: try api.client())
        anonymous = RemoteTransfers(api: try api.client(token: nil))
    }

    @Test func aSentTransferComesBackWithEveryField() async throws {
        let draft = TransferDraft(from: "1", to: "110-0000-0000-2", amount: "5,000", memo: "rent · 3월", idempotencyKey: "k-1")
        let receipt = try await remote.send(draft)
        let sent = try #require(starter.drafts.last)
        #expect(sent == draft)
        let expected = try await FakeTransferStarter(balanceAfter: Money(minorUnits: 9_500, currency: .krw)).send(draft)
        #expect(receipt == expected)
        #expect(receipt.transfer.fromBalanceAfter == Money(minorUnits: 9_500, currency: .krw))
        // The same key again is a replay, and says so.
        #expect(try await remote.send(draft).replayed)
    }

    @Test func aCallWithoutTheSessionsTokenIsRefusedAndSendsNothing() async throws {
        let refused = await #expect(throws: RemoteProblem.self) {
            try await anonymous.send(TransferDraft(from: "1", to: "2", amount: "1", memo: nil, idempotencyKey: "k-0"))
        }
        #expect(refused?.status == 401 && refused?.type == "unauthenticated")
        #expect(starter.drafts.isEmpty)
    }

    @Test func aSendWithoutAKeyCarriesANewOne() async throws {
        _ = try await remote.send(TransferDraft(from: "1", to: "2", amount: "1", memo: nil, idempotencyKey: nil))
        let key = try #require(starter.drafts.last?.idempotencyKey)
        #expect(UUID(uuidString: key) != nil)
    }

    @Test func aRefusalArrivesWithTheDomainsSentenceKindAndExitStatus() async throws {
        let limit = TransferError.dailyLimitExceeded(
            amount: Money(minorUnits: 5_000, currency: .krw), limit: Money(minorUnits: 1_000, currency: .krw),
            remaining: Money(minorUnits: 0, currency: .krw))
        starter.fail(with: limit)
        let refused = await #expect(throws: RemoteProblem.self) {
            try await remote.send(TransferDraft(from: "1", to: "2", amount: "5,000", memo: nil, idempotencyKey: "k-2"))
        }
        #expect(refused?.type == "limit-exceeded")
        #expect(refused?.message == limit.message)
        #expect(refused?.hint == limit.hint)
        #expect(refused?.exitStatus == limit.exitStatus)
        #expect(refused?.status == 409)
    }

    @Test func aTransferIsListedPagedAndShownAsItIs() async throws {
        let transfer = try await FakeTransferStarter().send(
            TransferDraft(from: "1", to: "2", amount: "70", memo: nil, idempotencyKey: "k-3")
        ).transfer
        reading.add(transfer)
        let page = try await remote.transfers(limit: 20, after: nil)
        #expect(page.transfers == [transfer])
        #expect(try await remote.transfer(id: transfer.id) == transfer)
        await #expect(throws: RemoteProblem.self) { try await remote.transfer(id: TransferID("no-such-transfer")) }
    }

    /// A script that reads `moa transfer show/list --json` reads the API's answers with the same code:
    /// the same keys, and a missing memo or next cursor as `null` in both (the API used to leave them out).
    @Test func theAPIAndMoasJSONShowATransferAlike() async throws {
        let transfer = try await FakeTransferStarter().send(
            TransferDraft(from: "1", to: "2", amount: "70", memo: nil, idempotencyKey: "k-4")
        ).transfer
        reading.add(transfer)

        let shown = try await json(get: "/v1/transfers/\(transfer.id.rawValue)")
        #expect(shown == InProcessAPI.object(try JSONOutput.encode(TransferRecord(transfer))))
        #expect(shown["memo"] is NSNull)
        #expect(
            Set(shown.allKeys.compactMap { $0 as? String }) == [
                "id", "from", "to", "amount", "memo", "idempotency_key", "created_at", "initiated_by", "from_balance_after",
            ])

        let listed = try await json(get: "/v1/transfers?limit=5")
        let page = try await reading.transfers(limit: 5, after: nil)
        #expect(listed == InProcessAPI.object(try JSONOutput.encode(TransferRecord.Page(page))))
        #expect(listed["next_cursor"] is NSNull)
    }

    /// A body no moa-server sends for a transfer — a currency that is not ISO 4217 (here with a
    /// terminal escape), an amount as text, a field missing — is a server speaking another API
    /// (exit status 78), said in moa's sentence: never taken for a server out of reach, never printed.
    @Test(arguments: [
        body { $0["amount"] = ["minor_units": 1, "currency": "K\u{1B}[2J"] },
        body { $0["amount"] = ["minor_units": "1", "currency": "KRW"] },
        body { $0["from_balance_after"] = nil },
    ])
    func aTransferNoMoaServerSendsIsAnAnswerNotUnderstood(_ body: String) async throws {
        let refused = await #expect(throws: RemoteProblem.self) { try await Self.answering(body).transfer(id: TransferID("t")) }
        #expect(refused?.type == "unexpected-response")
        #expect(refused?.exitStatus == .configuration)
        #expect(refused.map { !$0.message.contains("\u{1B}") } ?? false)
    }

    /// A send answered 201 in a shape this moa does not read may have moved the money: the person is
    /// told so, with the key that sends it once — never only "check the versions", after which a
    /// send without the key would send it twice.
    @Test func aSendWhoseAnswerIsNotUnderstoodTellsTheKey() async throws {
        let server = InProcessAPI()
        let body = Self.body { $0["from_balance_after"] = nil }
        try server.register(
            { _, _, _ in (HTTPResponse(status: .created, headerFields: [.contentType: "application/json"]), HTTPBody(body)) },
            method: .post, path: "/v1/transfers")
        let unknown = await #expect(throws: TransferOutcomeUnknown.self) {
            try await RemoteTransfers(api: try server.client())
                .send(TransferDraft(from: "1", to: "2", amount: "1", memo: nil, idempotencyKey: "k-9"))
        }
        #expect(unknown?.key == "k-9" && unknown?.exitStatus == .configuration)
        #expect(unknown?.message.contains("may or may not have been sent") == true)
        #expect(unknown?.hint?.contains("--idempotency-key k-9") == true)
        // A script (`--json`) gets the key as a field of the error body, not only inside the hint.
        let out = CapturingOutput()
        let err = CapturingOutput()
        CommandContext(json: true, out: out, err: err).report(try #require(unknown))
        let reported = try #require(try JSONSerialization.jsonObject(with: Data(err.text.utf8)) as? [String: [String: Any]])
        #expect(reported["error"]?["fields"] as? [String: String] == ["idempotency_key": "k-9", "outcome": "unknown"])
        #expect(reported["error"]?["exit_status"] as? Int == 78)
    }

    @Test func anHonestTransferBodyIsRead() async throws {
        let transfer = try await Self.answering(Self.body { _ in }).transfer(id: TransferID("t"))
        #expect(transfer.amount == Money(minorUnits: 1, currency: .krw) && transfer.memo == nil)
    }

    /// A transfer's JSON as a server could write it, with `change` made.
    static func body(_ change: (inout [String: Any]) -> Void) -> String {
        var object: [String: Any] = [
            "id": "t", "from": "1", "to": "2", "amount": ["minor_units": 1, "currency": "KRW"], "memo": NSNull(),
            "idempotency_key": "k", "created_at": "2026-11-26T00:00:00Z", "initiated_by": "u",
            "from_balance_after": ["minor_units": 0, "currency": "KRW"],
        ]
        change(&object)
        return String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }

    /// Transfer's remote use cases on a server that answers every `GET /v1/transfers/{id}` with `body`.
    static func answering(_ body: String) throws -> RemoteTransfers {
        let server = InProcessAPI()
        try server.register(
            { _, _, _ in (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(body)) },
            method: .get, path: "/v1/transfers/{transfer_id}")
        return RemoteTransfers(api: try server.client())
    }

    /// The JSON object the handlers answer `GET path` with, as any HTTP client reads it.
    private func json(get path: String) async throws -> NSDictionary {
        let (status, object) = try await api.object(get: path)
        #expect(status == .ok)
        return try #require(object)
    }

    @Test func favouritesRoundTripAndARefusalNamesTheAlias() async throws {
        let added = try await remote.add(number: "110-0000-0000-2", alias: "mum")
        #expect(added.alias == "mum" && added.accountNumber == "110-0000-0000-2")
        #expect(try await remote.recipients().favourites == [added])
        let missing = await #expect(throws: RemoteProblem.self) { try await remote.remove(alias: "dad") }
        #expect(missing?.message == TransferError.favouriteNotFound("dad").message)
    }
}

/// The catalogs a server composes, for the refusals these tests see.
enum ProblemCatalogs {
    static let transfer = ProblemCatalog([TransferProblems.classifier])
}

/// `TransferSending` on the fake starter (a batch sends row by row through it).
struct FakeSending: TransferSending, BatchSending {
    let starter: FakeTransferStarter
    func send(_ draft: TransferDraft) async throws -> TransferReceipt { try await starter.send(draft) }
    func startBatch() async throws -> any BatchSending { self }
}

/// Favourites in memory, refusing an unknown alias as the embedded book does.
final class FakeRecipientBook: RecipientUseCases {
    private let favourites = Locked<[FavouriteRecipient]>([])
    static let at = Date(timeIntervalSince1970: 1_795_687_200)

    func recipients() async throws -> Recipients {
        Recipients(favourites: favourites.withLock { $0 }, recents: [])
    }

    func add(number: String, alias: String) async throws -> FavouriteRecipient {
        let favourite = FavouriteRecipient(alias: alias, accountNumber: number, addedAt: Self.at)
        favourites.withLock { $0.append(favourite) }
        return favourite
    }

    func remove(alias: String) async throws -> FavouriteRecipient {
        try favourites.withLock { favourites in
            guard let index = favourites.firstIndex(where: { $0.alias == alias }) else { throw TransferError.favouriteNotFound(alias) }
            return favourites.remove(at: index)
        }
    }
}
