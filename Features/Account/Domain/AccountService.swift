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
    private let quota: AccountQuota

    /// - Parameters:
    ///   - drawDigits: 8 random digits for a new account number (injected for tests).
    ///   - quota: how many accounts one person may have (smaller in tests).
    public init(
        store: any AccountStore, session: any SessionProvider, clock: any WallClock,
        drawDigits: @escaping @Sendable () -> String = { String(format: "%08d", Int.random(in: 0..<100_000_000)) },
        quota: AccountQuota = .standard
    ) {
        self.store = store
        self.session = session
        self.clock = clock
        self.drawDigits = drawDigits
        self.quota = quota
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
                try await store.open(account, quota: quota)
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

    /// One page of the user's accounts, open first, in the order they were opened. The cursor is
    /// opaque (the number of the last account shown): pass back what the last page gave. An account
    /// closed between two pages moves to the closed ones, and may be shown twice or not at all.
    public func list(limit: Int, after cursor: String?) async throws -> AccountPage {
        guard (1...200).contains(limit) else { throw AccountError.invalidLimit(limit) }
        let last = try cursor.map(AccountCursor.decode)
        let accounts = try await list()
        var start = accounts.startIndex
        if let last {
            guard let index = accounts.firstIndex(where: { $0.number == last }) else { throw AccountError.invalidCursor }
            start = accounts.index(after: index)
        }
        let page = Array(accounts[start...].prefix(limit))
        let next = start + page.count < accounts.endIndex ? page.last.map { AccountCursor.encode($0.number) } : nil
        return AccountPage(accounts: page, nextCursor: next)
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

/// An opaque cursor: a tagged value, base64url-encoded with a version.
enum OpaqueCursor {
    static func encode(_ tag: String, _ value: String) -> String {
        Data("v1:\(tag)\(value)".utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The value after `v1:` and `tag`.
    static func decode(_ tag: String, _ cursor: String) throws(AccountError) -> Substring {
        guard cursor.utf8.count <= 128 else { throw .invalidCursor }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8), text.hasPrefix("v1:" + tag)
        else { throw .invalidCursor }
        return text.dropFirst(3 + tag.count)
    }
}

/// The history cursor: the id of the last entry shown.
enum HistoryCursor {
    static func encode(_ id: Int64) -> String { OpaqueCursor.encode("", String(id)) }

    static func decode(_ cursor: String) throws(AccountError) -> Int64 {
        guard let id = Int64(try OpaqueCursor.decode("", cursor)), id > 0 else { throw .invalidCursor }
        return id
    }
}

/// The account list's cursor: the number of the last account shown (tagged, so that a history
/// cursor is not taken for one).
enum AccountCursor {
    static func encode(_ number: AccountNumber) -> String { OpaqueCursor.encode("account:", number.digits) }

    static func decode(_ cursor: String) throws(AccountError) -> AccountNumber {
        guard let number = try? AccountNumber(String(try OpaqueCursor.decode("account:", cursor))) else { throw .invalidCursor }
        return number
    }
}
