import Foundation
import Money
import Persistence
import Registry
import SharedKit

// What other features may use of Account: account models, a read-only directory, and the
// posting protocol through which Transfer moves money inside its own transaction.

public enum AccountTag {}
public typealias AccountID = Identifier<AccountTag>

/// The kinds of account one can open.
public enum AccountKind: String, Sendable, Codable, CaseIterable {
    case checking, savings, investment

    /// The product code that starts its account numbers.
    public var productCode: String {
        switch self {
        case .checking: "110"
        case .savings: "220"
        case .investment: "330"
        }
    }
}

/// An account as other features see it.
public struct AccountSummary: Sendable, Hashable, Codable {
    public let id: AccountID
    public let number: AccountNumber
    public let name: String
    public let kind: AccountKind
    public let ownerID: UserID
    public let balance: Money
    public let isClosed: Bool
    public let openedAt: Date

    public init(
        id: AccountID, number: AccountNumber, name: String, kind: AccountKind, ownerID: UserID,
        balance: Money, isClosed: Bool, openedAt: Date
    ) {
        self.id = id
        self.number = number
        self.name = name
        self.kind = kind
        self.ownerID = ownerID
        self.balance = balance
        self.isClosed = isClosed
        self.openedAt = openedAt
    }

    public var currency: Currency { balance.currency }
}

/// Read-only questions about accounts.
public protocol AccountDirectory: Sendable {
    /// The account with this number, whoever owns it (`nil`: no such account).
    func account(number: AccountNumber) async throws -> AccountSummary?
    /// The user's accounts, open first, in the order they were opened.
    func accounts(of owner: UserID) async throws -> [AccountSummary]
}

/// A movement of money between two accounts, requested by another feature (Transfer).
public struct PostingRequest: Sendable, Equatable {
    public let from: AccountNumber
    public let to: AccountNumber
    public let amount: Money
    public let memo: String?
    /// What the entries point back to, e.g. the transfer's id.
    public let reference: String
    /// Who asks: must own the `from` account.
    public let initiatedBy: UserID
    public let at: Date

    public init(from: AccountNumber, to: AccountNumber, amount: Money, memo: String?, reference: String, initiatedBy: UserID, at: Date) {
        self.from = from
        self.to = to
        self.amount = amount
        self.memo = memo
        self.reference = reference
        self.initiatedBy = initiatedBy
        self.at = at
    }
}

/// What a posting did.
public struct PostingReceipt: Sendable, Equatable, Codable {
    /// The source after the posting (its new balance).
    public let from: AccountSummary
    /// The destination after the posting.
    public let to: AccountSummary
    /// The two ledger entries written: the debit of `from`, the credit of `to`.
    public let debitEntryID: Int64
    public let creditEntryID: Int64

    public init(from: AccountSummary, to: AccountSummary, debitEntryID: Int64, creditEntryID: Int64) {
        self.from = from
        self.to = to
        self.debitEntryID = debitEntryID
        self.creditEntryID = creditEntryID
    }
}

/// Moves money between accounts with double-entry bookkeeping, inside a transaction the caller
/// opened (``UnitOfWork``), so the caller's own records commit or roll back together with it.
///
/// Refusals (typed ``PostingError``s): unknown or closed account, not the owner of `from`, same
/// account, currency mismatch, amount not positive, insufficient funds, a destination balance that
/// would go above ``AmountBounds/maximumBalanceMinorUnits``; an amount above the per-operation
/// maximum is an ``AmountError``, a memo that breaks ``Memo``'s rules a ``MemoError``.
public protocol AccountPosting: Sendable {
    func post(_ request: PostingRequest, in transaction: any Transaction) throws -> PostingReceipt

    /// A group of postings in the caller's transaction (``PostingGroup``): the accounts numbered
    /// `numbers` are read at once, locked where the engine has other writers.
    func group(touching numbers: [AccountNumber], in transaction: any Transaction) throws -> any PostingGroup
}

extension AccountPosting {
    /// Each posting written as it is planned (``post(_:in:)``): the same outcome, statement by statement.
    public func group(touching numbers: [AccountNumber], in transaction: any Transaction) throws -> any PostingGroup {
        PostingOneByOne(posting: self, transaction: transaction)
    }
}

/// Postings planned one after the other in the caller's transaction — each checked like
/// ``AccountPosting/post(_:in:)`` on the balances the earlier ones leave, and refused with the same
/// errors (planning nothing then) — and written together by ``write()``: a group of transfers costs a
/// few statements, not a few per transfer. Used inside one transaction, by one caller.
public protocol PostingGroup: AnyObject {
    /// Plans `request`: the two accounts as they will stand once written.
    func plan(_ request: PostingRequest) throws -> (from: AccountSummary, to: AccountSummary)
    /// Writes every posting planned. An engine may send the writes without waiting for their
    /// answers: a write it then finds wrong throws from the transaction's `flush()` (which the unit
    /// of work runs before it commits), not from here.
    func write() throws
    /// Whether a posting ``plan(_:)`` refuses leaves nothing behind (it checks before it writes
    /// anything); otherwise the caller must roll back a transaction in which one was refused.
    var refusalsLeaveNothing: Bool { get }
}

/// ``PostingGroup`` on any ``AccountPosting``: each planned posting is posted at once.
public final class PostingOneByOne: PostingGroup {
    let posting: any AccountPosting
    let transaction: any Transaction
    public let refusalsLeaveNothing: Bool

    /// - Parameter refusalsLeaveNothing: whether `posting` checks every rule before it writes
    ///   anything (unknown of any posting: `false`).
    public init(posting: any AccountPosting, transaction: any Transaction, refusalsLeaveNothing: Bool = false) {
        self.posting = posting
        self.transaction = transaction
        self.refusalsLeaveNothing = refusalsLeaveNothing
    }

    public func plan(_ request: PostingRequest) throws -> (from: AccountSummary, to: AccountSummary) {
        let receipt = try posting.post(request, in: transaction)
        return (receipt.from, receipt.to)
    }

    public func write() throws {}
}

/// Why a posting was refused, each one sentence. A business rule refuses with exit status 1; an
/// account that does not exist is 69 (not found), and an amount of zero or less is 65 (bad data).
public enum PostingError: Error, UserFacingError, Equatable {
    case unknownAccount(AccountNumber)
    case closedAccount(AccountNumber)
    case notOwner(AccountNumber)
    case sameAccount(AccountNumber)
    case currencyMismatch(from: Currency, to: Currency)
    case amountNotPositive(Money)
    case insufficientFunds(AccountNumber, balance: Money, requested: Money)
    /// The destination would hold more than ``AmountBounds/maximumBalanceMinorUnits`` (its balance is not told).
    case balanceAboveMaximum(AccountNumber, amount: Money, maximum: Money)

    public var message: String {
        switch self {
        case .unknownAccount(let number): "There is no account \(number)."
        case .closedAccount(let number): "Account \(number) is closed."
        case .notOwner(let number): "Account \(number) is not yours: you can only send from your own accounts."
        case .sameAccount(let number): "The source and the destination are the same account (\(number))."
        case .currencyMismatch(let from, let to):
            "The accounts hold different currencies (\(from.code) and \(to.code)): a transfer cannot convert money."
        case .amountNotPositive(let amount): "Amounts are positive: \(amount.formatted()) is not more than zero."
        case .insufficientFunds(let number, let balance, let requested):
            "Insufficient funds: account \(number) holds \(balance.formatted()), less than \(requested.formatted())."
        case .balanceAboveMaximum(let number, let amount, let maximum):
            "Account \(number) cannot take \(amount.formatted()) more: an account holds at most \(maximum.formatted())."
        }
    }

    public var hint: String? {
        switch self {
        case .unknownAccount: "Check the number: it may belong to no account, or the account may have been removed."
        case .balanceAboveMaximum: "Nothing was moved; an account at its maximum can still send and withdraw."
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownAccount: .unavailable
        case .amountNotPositive: .dataError
        case .closedAccount, .notOwner, .sameAccount, .currencyMismatch, .insufficientFunds, .balanceAboveMaximum: .refused
        }
    }
}

public enum AccountDirectoryKey: ServiceKey { public typealias Service = any AccountDirectory }
public enum AccountPostingKey: ServiceKey { public typealias Service = any AccountPosting }
