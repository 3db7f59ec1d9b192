import AccountInterface
import Foundation
import Money
import SharedKit

/// One line of an account's history. Its `Codable` shape is the one a program reads — in
/// `moa account … --json` and in moa-server's answers (the schema `LedgerEntry` of
/// docs/api/openapi.yaml, whose generated type is this one): snake_case keys, absent values left out.
public struct LedgerEntry: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable {
        case deposit, withdrawal
        case transferIn = "transfer-in"
        case transferOut = "transfer-out"
    }

    /// Increasing with every entry written: the history's order and its paging key.
    public let id: Int64
    public let account: AccountNumber
    /// Positive for money in, negative for money out.
    public let amount: Money
    public let balanceAfter: Money
    public let kind: Kind
    /// The other account of a transfer.
    public let counterparty: AccountNumber?
    public let memo: String?
    public let reference: String?
    public let at: Date

    enum CodingKeys: String, CodingKey {
        case id, account, kind, amount, counterparty, memo, reference, at
        case balanceAfter = "balance_after"
    }

    public init(
        id: Int64, account: AccountNumber, amount: Money, balanceAfter: Money, kind: Kind,
        counterparty: AccountNumber?, memo: String?, reference: String?, at: Date
    ) {
        self.id = id
        self.account = account
        self.amount = amount
        self.balanceAfter = balanceAfter
        self.kind = kind
        self.counterparty = counterparty
        self.memo = memo
        self.reference = reference
        self.at = at
    }
}

/// One page of history, newest first, and the cursor of the next page (`nil`: no more).
public struct HistoryPage: Sendable, Equatable {
    public let entries: [LedgerEntry]
    public let nextCursor: String?

    public init(entries: [LedgerEntry], nextCursor: String?) {
        self.entries = entries
        self.nextCursor = nextCursor
    }
}

/// One page of the user's accounts (open first, in the order they were opened) and the cursor of
/// the next page (`nil`: no more).
public struct AccountPage: Sendable, Equatable {
    public let accounts: [AccountSummary]
    public let nextCursor: String?

    public init(accounts: [AccountSummary], nextCursor: String?) {
        self.accounts = accounts
        self.nextCursor = nextCursor
    }
}

/// How many accounts one person may have: at most ``maximumOpen`` open at once, and at most
/// ``maximumHeld`` in all, closed ones included (a closed account keeps its number and its history,
/// so opening and closing in a loop would otherwise use up the number space every user shares).
/// The rule is checked here; each store counts inside the transaction that inserts, so two opens at
/// once — from two processes, two servers on one database — cannot both pass on the same count.
public struct AccountQuota: Sendable, Equatable {
    public let maximumOpen: Int
    public let maximumHeld: Int

    public static let standard = AccountQuota(maximumOpen: 20, maximumHeld: 200)

    public init(maximumOpen: Int, maximumHeld: Int) {
        self.maximumOpen = maximumOpen
        self.maximumHeld = maximumHeld
    }

    /// Refuses one more account to someone who has `open` open accounts and `held` in all.
    /// - Throws: ``AccountError/tooManyOpen(maximum:)`` or ``AccountError/tooManyHeld(maximum:)``.
    public func allowOneMore(open: Int, held: Int) throws(AccountError) {
        if held >= maximumHeld { throw .tooManyHeld(maximum: maximumHeld) }
        if open >= maximumOpen { throw .tooManyOpen(maximum: maximumOpen) }
    }
}

/// What the ledger audit found: every invariant of double-entry bookkeeping, checked on the database.
public struct LedgerAudit: Sendable, Equatable {
    public let accounts: Int
    public let entries: Int
    /// Each a sentence naming what is wrong; empty when the ledger is sound.
    public let problems: [String]

    public init(accounts: Int, entries: Int, problems: [String]) {
        self.accounts = accounts
        self.entries = entries
        self.problems = problems
    }
}

/// Account's refusals (besides the posting ones of `AccountInterface`).
public enum AccountError: Error, UserFacingError, Equatable {
    case notFound(String)
    /// A name that breaks ``AccountName``'s rules.
    case invalidName(TextProblem)
    /// A currency code Moa does not support (as typed).
    case unknownCurrency(String)
    case closeWithBalance(AccountNumber, balance: Money)
    case alreadyClosed(AccountNumber)
    case invalidCursor
    case invalidLimit(Int)
    case numberSpaceExhausted
    /// ``AccountQuota``: the user already has this many open accounts.
    case tooManyOpen(maximum: Int)
    /// ``AccountQuota``: the user has held this many accounts, closed ones included.
    case tooManyHeld(maximum: Int)

    public var message: String {
        switch self {
        case .notFound(let reference): "You have no account “\(Self.shown(reference))”."
        case .invalidName(.empty): "An account name cannot be empty: use 1 to \(AccountName.maximumLength) characters."
        case .invalidName(.tooLong(let count)):
            "An account name has at most \(AccountName.maximumLength) characters, and this one has \(count)."
        case .invalidName(.forbiddenCharacter(let scalar)):
            "An account name cannot hold control or bidirectional formatting characters, and this one has \(SafeText.describe(scalar))."
        case .unknownCurrency(let code):
            code.isEmpty
                ? "No currency was given: use an ISO 4217 code such as KRW or USD."
                : "“\(Self.shown(code))” is not a currency Moa supports: use an ISO 4217 code such as KRW or USD."
        case .closeWithBalance(let number, let balance):
            "Account \(number) still holds \(balance.formatted()): withdraw or transfer it before closing."
        case .alreadyClosed(let number): "Account \(number) is already closed."
        case .invalidCursor: "That cursor is not one this list gave."
        case .invalidLimit(let limit): "The limit must be from 1 to 200, not \(limit)."
        case .numberSpaceExhausted: "No free account number could be found; try again."
        case .tooManyOpen(let maximum):
            "You already have \(maximum) open accounts, the most one person may have: close one before opening another."
        case .tooManyHeld(let maximum):
            "You have had \(maximum) accounts, closed ones included, the most one person may have: no more can be opened."
        }
    }

    public var hint: String? {
        switch self {
        case .unknownCurrency: "Supported: " + Currency.supported.map(\.code).joined(separator: ", ") + "."
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .notFound: .unavailable
        case .invalidName, .unknownCurrency, .invalidCursor: .dataError
        case .invalidLimit: .usage
        case .closeWithBalance, .alreadyClosed, .tooManyOpen, .tooManyHeld: .refused
        case .numberSpaceExhausted: .temporaryFailure
        }
    }

    /// Text a person typed, as a message quotes it: cut to 40 characters.
    static func shown(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

/// An account's name: 1 to ``maximumLength`` characters once trimmed, in NFC, without control or
/// bidirectional formatting characters (``SafeText``).
public enum AccountName {
    public static let maximumLength = 40

    /// The name as stored.
    /// - Throws: ``AccountError/invalidName(_:)``.
    public static func parse(_ text: String) throws(AccountError) -> String {
        let normalized = SafeText.normalized(text)
        if let problem = SafeText.check(normalized, length: 1...maximumLength) { throw .invalidName(problem) }
        return normalized
    }
}
