import AccountInterface
import AuthInterface
import Foundation
import Money
import SharedKit

/// The account use cases: every one acts for the logged-in user, on the user's own accounts.
public struct AccountService: Sendable {
    private let store: any AccountStore
    private let session: any SessionProvider
    private let clock: any WallClock
    private let drawDigits: @Sendable () -> String

    /// - Parameter drawDigits: 8 random digits for a new account number (injected for tests).
    public init(
        store: any AccountStore, session: any SessionProvider, clock: any WallClock,
        drawDigits: @escaping @Sendable () -> String = { String(format: "%08d", Int.random(in: 0..<100_000_000)) }
    ) {
        self.store = store
        self.session = session
        self.clock = clock
        self.drawDigits = drawDigits
    }

    /// Opens an account named `name` (``AccountName``'s rules) in the currency of ISO 4217 `code`.
    public func open(kind: AccountKind, name: String, currency code: String = "KRW") async throws -> AccountSummary {
        let user = try await session.requireUser()
        let name = try AccountName.parse(name)
        let currency = try Self.currency(code)
        for _ in 0..<10 {
            let number = try AccountNumber(prefix: kind.productCode + drawDigits())
            let account = AccountSummary(
                id: AccountID(number.digits), number: number, name: name, kind: kind, ownerID: user.id,
                balance: .zero(currency), isClosed: false, openedAt: clock.now())
            do {
                try await store.open(account)
                return account
            } catch is DuplicateAccountNumber {
                continue
            }
        }
        throw AccountError.numberSpaceExhausted
    }

    public func list() async throws -> [AccountSummary] {
        try await store.accounts(of: try await session.requireUser().id)
    }

    /// The user's account named by number (`110-1234-5678-9`, dashes optional) or id.
    public func show(_ reference: String) async throws -> AccountSummary {
        try await owned(reference)
    }

    public func rename(_ reference: String, to name: String) async throws -> AccountSummary {
        let account = try await owned(reference)
        return try await store.rename(account.number, to: try AccountName.parse(name))
    }

    public func close(_ reference: String) async throws -> AccountSummary {
        let account = try await owned(reference)
        guard !account.isClosed else { throw AccountError.alreadyClosed(account.number) }
        return try await store.close(account.number, at: clock.now())
    }

    /// Puts money into one of the user's open accounts. `amount` is typed text in the account's currency
    /// (``OperationAmount``: positive, at most the per-operation maximum); the balance may not go above
    /// the per-balance maximum (``PostingError/balanceAboveMaximum(_:amount:maximum:)``).
    public func deposit(_ amount: String, to reference: String, memo: String?) async throws -> LedgerEntry {
        let memo = try Memo.parse(memo)
        let account = try await owned(reference, open: true)
        let amount = try OperationAmount(parsing: amount, currency: account.currency)
        return try await store.deposit(amount.money, to: account.number, memo: memo?.text, at: clock.now())
    }

    /// Takes money out of one of the user's open accounts (refused below zero).
    public func withdraw(_ amount: String, from reference: String, memo: String?) async throws -> LedgerEntry {
        let memo = try Memo.parse(memo)
        let account = try await owned(reference, open: true)
        let amount = try OperationAmount(parsing: amount, currency: account.currency)
        return try await store.withdraw(amount.money, from: account.number, memo: memo?.text, at: clock.now())
    }

    /// One page of history, newest first. The cursor is opaque: pass back what the last page gave.
    public func history(of reference: String, limit: Int = 20, after cursor: String? = nil) async throws -> HistoryPage {
        guard (1...200).contains(limit) else { throw AccountError.invalidLimit(limit) }
        let account = try await owned(reference)
        let before = try cursor.map(HistoryCursor.decode)
        let entries = try await store.history(of: account.number, before: before, limit: limit + 1)
        let page = Array(entries.prefix(limit))
        let next = entries.count > limit ? page.last.map { HistoryCursor.encode($0.id) } : nil
        return HistoryPage(entries: page, nextCursor: next)
    }

    // MARK: Rules

    private func owned(_ reference: String, open: Bool = false) async throws -> AccountSummary {
        let user = try await session.requireUser()
        let account: AccountSummary?
        if let number = try? AccountNumber(reference) {
            account = try await store.account(number: number)
        } else if reference.count >= 12, reference.allSatisfy({ $0.isNumber || $0 == "-" || $0 == " " }) {
            _ = try AccountNumber(reference) // a mistyped number: say so before any lookup
            account = nil
        } else {
            account = try await store.account(id: AccountID(reference))
        }
        // Someone else's account is "not found": never reveal that it exists.
        guard let account, account.ownerID == user.id else { throw AccountError.notFound(reference) }
        if open, account.isClosed { throw PostingError.closedAccount(account.number) }
        return account
    }

    /// The supported currency of ISO 4217 `code` (case and surrounding blanks ignored).
    static func currency(_ code: String) throws(AccountError) -> Currency {
        do {
            return try Currency(code: code)
        } catch {
            throw .unknownCurrency(code.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}

/// The opaque history cursor: the id of the last entry shown, base64url-encoded with a version.
enum HistoryCursor {
    static func encode(_ id: Int64) -> String {
        Data("v1:\(id)".utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ cursor: String) throws(AccountError) -> Int64 {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8), text.hasPrefix("v1:"),
            let id = Int64(text.dropFirst(3)), id > 0
        else { throw .invalidCursor }
        return id
    }
}
