import APIClient
import APIServing
import APITesting
import AccountData
import AccountDomain
import AccountInterface
import AccountRemote
import AccountServer
import AuthInterface
import AuthTesting
import CommandKit
import Foundation
import HTTPTypes
import Money
import OpenAPIRuntime
import Registry
import SharedKit
import Storage
import Testing

/// Account's served half in its own closure: the embedded use cases (on SQLite) behind its handlers
/// (AccountServer), called through its remote use cases (AccountRemote), joined in one process
/// (``InProcessAPI``). What `moa` shows of an account, an entry or a refusal on a server is what it
/// shows on this machine.
@Suite("Account · over the wire")
struct AccountOverTheWireTests {
    let session = FakeSessionProvider(user: FakeSessionProvider.ada)
    let embedded: any AccountUseCases
    let remote: RemoteAccounts
    /// The handlers' transport, for what a client that is not `moa` reads (the raw JSON).
    let api: InProcessAPI

    init() throws {
        let database = try AppDatabase.inMemory(migrations: [AccountMigrations.all])
        embedded = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: ManualWallClock(), extra: [.instance(SessionProviderKey.self, session)]),
            AccountDataModule(), ModuleOf("Account", AccountService.providers),
        ]).validate(root: AccountServiceKey.self).resolve()
        let api = InProcessAPI(problems: ProblemCatalog([AccountProblems.classifier]), requiresToken: true)
        try AccountHandlers(accounts: embedded).registerHandlers(on: api)
        self.api = api
        remote = RemoteAccounts(
            api: try api.client(),
            sessions: session)
    }

    /// A script reads an account and its history from the API with the code that reads
    /// `moa account show/history --json`: the same keys and values, key for key.
    @Test func theAPIAndMoasJSONShowAnAccountAndItsHistoryAlike() async throws {
        let opened = try await embedded.open(kind: .checking, name: "Daily", currency: "KRW")
        let number = opened.number.description
        _ = try await embedded.deposit("1,000", to: number, memo: nil)
        let account = try await embedded.show(number)

        #expect(try await json(get: "/v1/accounts/\(number)") == InProcessAPI.object(try JSONOutput.encode(AccountRecord(account))))
        let history = try await json(get: "/v1/accounts/\(number)/history")
        let page = try await embedded.historyPage(of: number, limit: 20, after: nil)
        #expect(history == InProcessAPI.object(try JSONOutput.encode(HistoryRecord(account: account, page: page))))
        let entry = try #require((history["entries"] as? [NSDictionary])?.first)
        #expect(entry["balance_after"] as? NSDictionary == ["minor_units": 1_000, "currency": "KRW"])
    }

    /// A deposit answered 201 in a shape this moa does not read may have been made: the sentence says
    /// so (a read of the same kind only says the server speaks another API).
    @Test func aDepositWhoseAnswerIsNotUnderstoodMayHaveBeenMade() async throws {
        let server = InProcessAPI()
        try server.register(
            { _, _, _ in (HTTPResponse(status: .created, headerFields: [.contentType: "application/json"]), HTTPBody("{}")) },
            method: .post, path: "/v1/accounts/{account}/deposits")
        try server.register(
            { _, _, _ in (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody("{}")) },
            method: .get, path: "/v1/accounts/{account}")
        let hostile = RemoteAccounts(api: try server.client(), sessions: session)
        let deposit = await #expect(throws: RemoteProblem.self) { try await hostile.deposit("1", to: "110-0000-0001-5", memo: nil) }
        #expect(deposit?.type == "unexpected-response" && deposit?.exitStatus == .configuration)
        #expect(deposit?.message.contains("may or may not have been done") == true)
        let read = await #expect(throws: RemoteProblem.self) { try await hostile.show("110-0000-0001-5") }
        #expect(read?.type == "unexpected-response" && read?.message.contains("may or may not") == false)
    }

    /// The JSON object the handlers answer `GET path` with, as any HTTP client reads it.
    private func json(get path: String) async throws -> NSDictionary {
        let (status, object) = try await api.object(get: path)
        #expect(status == .ok)
        return try #require(object)
    }

    @Test func anAccountAndItsEntriesReadTheSameRemotelyAsHere() async throws {
        let opened = try await remote.open(kind: .savings, name: "Rainy day 🌧", currency: "KRW")
        #expect(try await embedded.show(opened.number.description) == opened)
        let deposit = try await remote.deposit("12,500", to: opened.number.description, memo: "salary")
        let withdrawal = try await remote.withdraw("2,500", from: opened.number.description, memo: nil)
        #expect(deposit.balanceAfter == Money(minorUnits: 12_500, currency: .krw) && deposit.kind == .deposit)
        #expect(withdrawal.amount == Money(minorUnits: -2_500, currency: .krw) && withdrawal.kind == .withdrawal)
        let remotely = try await remote.historyPage(of: opened.number.description, limit: 20, after: nil)
        let here = try await embedded.historyPage(of: opened.number.description, limit: 20, after: nil)
        #expect(remotely == here)
        #expect(remotely.entries.map(\.memo) == [nil, "salary"])
        #expect(try await remote.list() == (try await embedded.list()))
        #expect(try await remote.rename(opened.number.description, to: "Sunny").name == "Sunny")
    }

    @Test func aRefusalArrivesWithTheLedgersSentenceKindAndExitStatus() async throws {
        let account = try await remote.open(kind: .checking, name: "Daily", currency: "KRW")
        _ = try await remote.deposit("1,000", to: account.number.description, memo: nil)
        var local: (any Error)?
        do { _ = try await embedded.withdraw("5,000", from: account.number.description, memo: nil) } catch { local = error }
        let expected = try #require(local as? any UserFacingError)
        let refused = await #expect(throws: RemoteProblem.self) {
            try await remote.withdraw("5,000", from: account.number.description, memo: nil)
        }
        #expect(refused?.type == "insufficient-funds" && refused?.status == 409)
        #expect(refused?.message == expected.message && refused?.exitStatus == expected.exitStatus)
        // A closing refused for its balance is a conflict, by its exit status.
        let closing = await #expect(throws: RemoteProblem.self) { try await remote.close(account.number.description) }
        #expect(closing?.type == "conflict")
    }

    @Test func aLongListIsPagedAndFollowedToTheEnd() async throws {
        for index in 1...3 { _ = try await remote.open(kind: .checking, name: "A\(index)", currency: "KRW") }
        let first = try await remote.listPage(limit: 2, after: nil)
        #expect(first.accounts.count == 2 && first.nextCursor != nil)
        let rest = try await remote.listPage(limit: 2, after: first.nextCursor)
        #expect(rest.accounts.count == 1 && rest.nextCursor == nil)
        // Followed to its end, the list is the embedded one, in its order (opened at the same instant: by number).
        let all = try await remote.list()
        #expect(all == (try await embedded.list()))
        #expect(all == first.accounts + rest.accounts && Set(all.map(\.name)) == ["A1", "A2", "A3"])
    }
}
