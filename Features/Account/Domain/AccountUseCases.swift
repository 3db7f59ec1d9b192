import AccountInterface

/// What Account's commands and screens ask of the bank, whoever answers: the embedded
/// ``AccountService`` on this machine's database, or — when `moa` is a client of `moa-server` — the
/// App's remote implementation of the same protocol over the API. Every method acts for the person
/// at the terminal, on their own accounts, and throws the same typed errors either way.
public protocol AccountUseCases: Sendable {
    /// Opens an account named `name` in the currency of ISO 4217 `code`.
    func open(kind: AccountKind, name: String, currency code: String) async throws -> AccountSummary
    /// Every account of the user, open first, in the order they were opened.
    func list() async throws -> [AccountSummary]
    /// One page of ``list()``; `cursor` is what the last page gave.
    func listPage(limit: Int, after cursor: String?) async throws -> AccountPage
    /// The user's account named by number (`110-1234-5678-9`, dashes optional) or id.
    func show(_ reference: String) async throws -> AccountSummary
    func rename(_ reference: String, to name: String) async throws -> AccountSummary
    func close(_ reference: String) async throws -> AccountSummary
    /// `amount` is typed text in the account's currency.
    func deposit(_ amount: String, to reference: String, memo: String?) async throws -> LedgerEntry
    func withdraw(_ amount: String, from reference: String, memo: String?) async throws -> LedgerEntry
    /// One page of history, newest first; `cursor` is what the last page gave.
    func historyPage(of reference: String, limit: Int, after cursor: String?) async throws -> HistoryPage
}

extension AccountUseCases {
    /// Opens a KRW account.
    public func open(kind: AccountKind, name: String) async throws -> AccountSummary {
        try await open(kind: kind, name: name, currency: "KRW")
    }

    /// A page of 20 (or `limit`) entries, from the newest (or after `cursor`).
    public func history(of reference: String, limit: Int = 20, after cursor: String? = nil) async throws -> HistoryPage {
        try await historyPage(of: reference, limit: limit, after: cursor)
    }
}

extension AccountService: AccountUseCases {
    public func listPage(limit: Int, after cursor: String?) async throws -> AccountPage {
        try await list(limit: limit, after: cursor)
    }

    public func historyPage(of reference: String, limit: Int, after cursor: String?) async throws -> HistoryPage {
        try await history(of: reference, limit: limit, after: cursor)
    }
}
