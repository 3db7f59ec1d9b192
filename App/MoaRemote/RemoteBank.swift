import AccountDomain
import AccountInterface
import AuthDomain
import AuthInterface
import Foundation
import InboxDomain
import MoaAPI
import SharedKit
import TransferDomain
import TransferInterface

/// Account's use cases on `moa-server`: the same answers and the same typed refusals (their
/// sentences and exit statuses come from the server, which runs the same Domain).
public struct RemoteAccounts: AccountUseCases {
    /// Calls that carry the session.
    let api: RemoteAPI
    let sessions: SessionManager

    public init(api: RemoteAPI, sessions: SessionManager) {
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
        }
    }

    private func sendOnce(_ draft: TransferDraft, key: String) async throws -> TransferReceipt {
        try await api.call { client in
            let output = try await client.sendTransfer(
                headers: .init(idempotencyKey: key),
                body: .json(.init(from: draft.from, to: draft.to, amount: draft.amount, memo: draft.memo)))
            switch output {
            case .created(let created): return TransferReceipt(transfer: try RemoteAPI.transfer(try created.body.json), replayed: false)
            case .ok(let ok): return TransferReceipt(transfer: try RemoteAPI.transfer(try ok.body.json), replayed: true)
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
            let page = try ok.body.json
            return TransferPage(transfers: try page.transfers.map(RemoteAPI.transfer), nextCursor: page.nextCursor)
        }
    }

    public func transfer(id: TransferID) async throws -> TransferSummary {
        try await api.call { client in
            guard case .ok(let ok) = try await client.getTransfer(path: .init(transferId: id.rawValue)) else {
                throw RemoteAPI.unexpected("the transfer")
            }
            return try RemoteAPI.transfer(try ok.body.json)
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

/// Inbox's use cases on `moa-server`: the notices the server's transfers and logins left.
public struct RemoteInbox: InboxUseCases {
    /// Calls that carry the session.
    let api: RemoteAPI

    public init(api: RemoteAPI) { self.api = api }

    public func page(unreadOnly: Bool, limit: Int, before: String?) async throws -> InboxPage {
        // The server takes the id as a number; text that is not one is refused here, as the embedded app does.
        let before = try before.map(InboxService.noticeID)
        return try await api.call { client in
            guard case .ok(let ok) = try await client.listNotices(query: .init(unread: unreadOnly, limit: limit, before: before)) else {
                throw RemoteAPI.unexpected("the inbox")
            }
            let page = try ok.body.json
            return InboxPage(notices: try page.notices.map(RemoteAPI.notice), unreadCount: page.unreadCount, nextBefore: page.nextBefore)
        }
    }

    public func markRead(_ reference: String) async throws -> InboxReadResult {
        let id = try InboxService.noticeID(reference)
        return try await api.call { client in
            guard case .ok(let ok) = try await client.markNoticeRead(path: .init(noticeId: id)) else {
                throw RemoteAPI.unexpected("the notice")
            }
            let read = try ok.body.json
            return InboxReadResult(notice: try RemoteAPI.notice(read.notice), wasUnread: read.wasUnread)
        }
    }

    public func markAllRead() async throws -> Int {
        try await api.call { client in
            guard case .ok(let ok) = try await client.markAllNoticesRead() else { throw RemoteAPI.unexpected("the inbox") }
            return try ok.body.json.marked
        }
    }
}
