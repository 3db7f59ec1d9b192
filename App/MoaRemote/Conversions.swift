import AccountDomain
import AccountInterface
import AuthDomain
import Foundation
import InboxDomain
import InboxInterface
import MoaAPI
import Money
import SharedKit
import TransferInterface

// The API's types back into the Domain's values, parsed as anything from the network is: a number,
// a currency or a kind the document does not allow is the server speaking another API, never a crash.

extension RemoteAPI {
    static func money(_ money: Components.Schemas.Money) throws -> Money {
        Money(minorUnits: money.minorUnits, currency: try Currency(code: money.currency))
    }

    static func number(_ text: String) throws -> AccountNumber {
        do { return try AccountNumber(text) } catch { throw unexpected("an account number") }
    }

    static func session(_ session: Components.Schemas.Session) -> StoredSession {
        StoredSession(
            userID: UserID(session.userId), email: session.email, accessToken: session.accessToken, refreshToken: session.refreshToken,
            accessExpiresAt: session.accessExpiresAt, refreshExpiresAt: session.refreshExpiresAt)
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

    static func transfer(_ transfer: Components.Schemas.Transfer) throws -> TransferSummary {
        TransferSummary(
            id: TransferID(transfer.id), from: transfer.from, to: transfer.to, amount: try money(transfer.amount), memo: transfer.memo,
            idempotencyKey: transfer.idempotencyKey, createdAt: transfer.createdAt, initiatedBy: UserID(transfer.initiatedBy),
            fromBalanceAfter: try money(transfer.fromBalanceAfter))
    }

    static func notice(_ notice: Components.Schemas.Notice) throws -> InboxItem {
        guard let kind = InboxNoticeKind(rawValue: notice.kind) else { throw unexpected("a notice of an unknown kind") }
        return InboxItem(
            id: notice.id, kind: kind, title: notice.title, body: notice.body, createdAt: notice.createdAt, readAt: notice.readAt)
    }
}
