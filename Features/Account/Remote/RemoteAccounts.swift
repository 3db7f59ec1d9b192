import APIClient
import AccountAPI
import AccountDomain
import AccountInterface
import AuthInterface
import Foundation
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
            return try created.body.json.summary(owner: user.id)
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
                accounts: try ok.body.json.map { $0.summary(owner: user.id) }, nextCursor: ok.headers.moaNextCursor)
        }
    }

    public func show(_ reference: String) async throws -> AccountSummary {
        let user = try await sessions.requireUser()
        return try await api.call { client in
            guard case .ok(let ok) = try await client.getAccount(path: .init(account: reference)) else {
                throw RemoteAPI.unexpected("the account")
            }
            return try ok.body.json.summary(owner: user.id)
        }
    }

    public func rename(_ reference: String, to name: String) async throws -> AccountSummary {
        let user = try await sessions.requireUser()
        return try await api.call { client in
            guard case .ok(let ok) = try await client.renameAccount(path: .init(account: reference), body: .json(.init(name: name))) else {
                throw RemoteAPI.unexpected("the renamed account")
            }
            return try ok.body.json.summary(owner: user.id)
        }
    }

    public func close(_ reference: String) async throws -> AccountSummary {
        let user = try await sessions.requireUser()
        return try await api.call { client in
            guard case .ok(let ok) = try await client.closeAccount(path: .init(account: reference)) else {
                throw RemoteAPI.unexpected("the closed account")
            }
            return try ok.body.json.summary(owner: user.id)
        }
    }

    public func deposit(_ amount: String, to reference: String, memo: String?) async throws -> LedgerEntry {
        try await api.call { client in
            guard
                case .created(let created) = try await client.deposit(
                    path: .init(account: reference), body: .json(.init(amount: amount, memo: memo)))
            else { throw RemoteAPI.unexpected("the deposit") }
            return try created.body.json
        }
    }

    public func withdraw(_ amount: String, from reference: String, memo: String?) async throws -> LedgerEntry {
        try await api.call { client in
            guard
                case .created(let created) = try await client.withdraw(
                    path: .init(account: reference), body: .json(.init(amount: amount, memo: memo)))
            else { throw RemoteAPI.unexpected("the withdrawal") }
            return try created.body.json
        }
    }

    public func historyPage(of reference: String, limit: Int, after cursor: String?) async throws -> HistoryPage {
        try await api.call { client in
            guard
                case .ok(let ok) = try await client.listAccountHistory(
                    path: .init(account: reference), query: .init(limit: limit, cursor: cursor))
            else { throw RemoteAPI.unexpected("the history") }
            return try ok.body.json.page
        }
    }
}

extension RemoteAPI {
    /// One call of AccountAPI's generated client, on this API's server, connections and credentials.
    func call<T: Sendable>(_ work: @escaping @Sendable (Client) async throws -> T) async throws -> T {
        let client = Client(serverURL: address.url, configuration: .moa, transport: transport, middlewares: middlewares)
        return try await call { try await work(client) }
    }
}
