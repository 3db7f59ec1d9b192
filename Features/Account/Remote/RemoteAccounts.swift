import APIClient
import AccountAPI
import AccountDomain
import AccountInterface
import AuthInterface
import Foundation
import Money
import SharedKit

/// Account's use cases on `moa-server`: the same answers and the same typed refusals (their
/// sentences and exit statuses come from the server, which runs the same Domain).
public struct RemoteAccounts: AccountUseCases {
    /// Calls that carry the session.
    let api: RemoteAPI
    let sessions: any SessionProvider

    public init(api: RemoteAPI, sessions: any SessionProvider) {
        self.api = api
        self.sessions = sessions
    }

    public func open(kind: AccountKind, name: String, currency code: String) async throws -> AccountSummary {
        let type: Components.Schemas.AccountType =
            switch kind {
            case .checking: .checking
            case .savings: .savings
            case .investment: .investment
            }
        let user = try await sessions.requireUser()
        return try await api.call { client in
            guard case .created(let created) = try await client.openAccount(body: .json(.init(_type: type, name: name, currency: code)))
            else { throw RemoteAPI.unexpected("opening an account") }
            return try RemoteAPI.account(try created.body.json, owner: user.id)
        }
    }

    /// Every page, 200 accounts at a time (a user has at most 200: one page, unless the server's
    /// bound is another). A server that sends back a cursor it already gave, an empty page that
    /// says more follow, or more than ``maximumPages`` pages is not followed further.
    public func list() async throws -> [AccountSummary] {
        var accounts: [AccountSummary] = []
        var cursor: String?
        var seen: Set<String> = []
        repeat {
            let page = try await listPage(limit: 200, after: cursor)
            accounts += page.accounts
            cursor = page.nextCursor
            if let cursor, !seen.insert(cursor).inserted || page.accounts.isEmpty || seen.count >= Self.maximumPages {
                throw RemoteAPI.unexpected("the account list")
            }
        } while cursor != nil
        return accounts
    }

    /// 10,000 accounts: fifty times what one person may have.
    static let maximumPages = 50

    public func listPage(limit: Int, after cursor: String?) async throws -> AccountPage {
        let user = try await sessions.requireUser()
        return try await api.call { client in
            guard case .ok(let ok) = try await client.listAccounts(query: .init(limit: limit, cursor: cursor)) else {
                throw RemoteAPI.unexpected("the account list")
            }
            return AccountPage(
                accounts: try ok.body.json.map { try RemoteAPI.account($0, owner: user.id) }, nextCursor: ok.headers.moaNextCursor)
        }
    }

    public func show(_ reference: String) async throws -> AccountSummary {
        let user = try await sessions.requireUser()
        return try await api.call { client in
            guard case .ok(let ok) = try await client.getAccount(path: .init(account: reference)) else {
                throw RemoteAPI.unexpected("the account")
            }
            return try RemoteAPI.account(try ok.body.json, owner: user.id)
        }
    }

    public func rename(_ reference: String, to name: String) async throws -> AccountSummary {
        let user = try await sessions.requireUser()
        return try await api.call { client in
            guard case .ok(let ok) = try await client.renameAccount(path: .init(account: reference), body: .json(.init(name: name))) else {
                throw RemoteAPI.unexpected("the renamed account")
            }
            return try RemoteAPI.account(try ok.body.json, owner: user.id)
        }
    }

    public func close(_ reference: String) async throws -> AccountSummary {
        let user = try await sessions.requireUser()
        return try await api.call { client in
            guard case .ok(let ok) = try await client.closeAccount(path: .init(account: reference)) else {
                throw RemoteAPI.unexpected("the closed account")
            }
            return try RemoteAPI.account(try ok.body.json, owner: user.id)
        }
    }

    public func deposit(_ amount: String, to reference: String, memo: String?) async throws -> LedgerEntry {
        try await api.call { client in
            guard
                case .created(let created) = try await client.deposit(
                    path: .init(account: reference), body: .json(.init(amount: amount, memo: memo)))
            else { throw RemoteAPI.unexpected("the deposit") }
            return try RemoteAPI.entry(try created.body.json)
        }
    }

    public func withdraw(_ amount: String, from reference: String, memo: String?) async throws -> LedgerEntry {
        try await api.call { client in
            guard
                case .created(let created) = try await client.withdraw(
                    path: .init(account: reference), body: .json(.init(amount: amount, memo: memo)))
            else { throw RemoteAPI.unexpected("the withdrawal") }
            return try RemoteAPI.entry(try created.body.json)
        }
    }

    public func historyPage(of reference: String, limit: Int, after cursor: String?) async throws -> HistoryPage {
        try await api.call { client in
            guard
                case .ok(let ok) = try await client.listAccountHistory(
                    path: .init(account: reference), query: .init(limit: limit, cursor: cursor))
            else { throw RemoteAPI.unexpected("the history") }
            let page = try ok.body.json
            return HistoryPage(entries: try page.entries.map(RemoteAPI.entry), nextCursor: page.nextCursor)
        }
    }
}

extension RemoteAPI {
    /// One call of AccountAPI's generated client, on this API's server, connections and credentials.
    func call<T: Sendable>(_ work: @escaping @Sendable (Client) async throws -> T) async throws -> T {
        let client = Client(serverURL: address.url, transport: transport, middlewares: middlewares)
        return try await call { try await work(client) }
    }

    // The API's types back into the Domain's values, parsed as anything from the network is: a number,
    // a currency or a kind the document does not allow is the server speaking another API, never a crash.
    static func money(_ money: Components.Schemas.Money) throws -> Money {
        Money(minorUnits: money.minorUnits, currency: try Currency(code: money.currency))
    }

    static func number(_ text: String) throws -> AccountNumber {
        do { return try AccountNumber(text) } catch { throw unexpected("an account number") }
    }

    static func account(_ account: Components.Schemas.Account, owner: UserID) throws -> AccountSummary {
        let kind: AccountKind =
            switch account._type {
            case .checking: .checking
            case .savings: .savings
            case .investment: .investment
            }
        return AccountSummary(
            id: AccountID(account.id), number: try number(account.number), name: account.name, kind: kind, ownerID: owner,
            balance: try money(account.balance), isClosed: account.closed, openedAt: account.openedAt)
    }

    static func entry(_ entry: Components.Schemas.LedgerEntry) throws -> LedgerEntry {
        let kind: LedgerEntry.Kind =
            switch entry.kind {
            case .deposit: .deposit
            case .withdrawal: .withdrawal
            case .transferIn: .transferIn
            case .transferOut: .transferOut
            }
        return LedgerEntry(
            id: entry.id, account: try number(entry.account), amount: try money(entry.amount), balanceAfter: try money(entry.balanceAfter),
            kind: kind, counterparty: try entry.counterparty.map(number), memo: entry.memo, reference: entry.reference, at: entry.at)
    }
}
