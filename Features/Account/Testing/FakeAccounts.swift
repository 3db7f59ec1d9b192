import AccountInterface
import Foundation
import Money
import Persistence
import SharedKit

/// In-memory accounts implementing both `AccountDirectory` and `AccountPosting`, with the same
/// refusals as the real ledger — for Transfer's tests and Example. It ignores the transaction token
/// (there is no database), but applies a posting all at once or not at all.
public final class FakeAccounts: AccountDirectory, AccountPosting {
    private struct State {
        var accounts: [AccountNumber: AccountSummary] = [:]
        var nextEntry: Int64 = 1
        var postings: [PostingRequest] = []
    }

    private let state = Locked(State())

    public init(_ accounts: [AccountSummary] = []) {
        state.withLock { state in
            for account in accounts { state.accounts[account.number] = account }
        }
    }

    /// Adds an account with a balance (for test set-up).
    @discardableResult
    public func add(
        owner: UserID, number: String, balance: Money, name: String = "Checking", kind: AccountKind = .checking,
        closed: Bool = false
    ) throws -> AccountSummary {
        let account = AccountSummary(
            id: AccountID(number), number: try AccountNumber(number), name: name, kind: kind, ownerID: owner,
            balance: balance, isClosed: closed, openedAt: Date(timeIntervalSince1970: 0))
        state.withLock { $0.accounts[account.number] = account }
        return account
    }

    /// Every posting applied, in order.
    public var postings: [PostingRequest] { state.withLock { $0.postings } }

    /// The current balance of `number`.
    public func balance(of number: AccountNumber) -> Money? { state.withLock { $0.accounts[number]?.balance } }

    public func account(number: AccountNumber) async throws -> AccountSummary? { state.withLock { $0.accounts[number] } }

    public func accounts(of owner: UserID) async throws -> [AccountSummary] {
        state.withLock { $0.accounts.values.filter { $0.ownerID == owner }.sorted { $0.number < $1.number } }
    }

    /// Each posting applied as it is planned: the fake checks every rule before it changes anything.
    public func group(touching numbers: [AccountNumber], in transaction: any Transaction) throws -> any PostingGroup {
        PostingOneByOne(posting: self, transaction: transaction, refusalsLeaveNothing: true)
    }

    public func post(_ request: PostingRequest, in transaction: any Transaction) throws -> PostingReceipt {
        guard request.from != request.to else { throw PostingError.sameAccount(request.from) }
        guard request.amount.isPositive else { throw PostingError.amountNotPositive(request.amount) }
        _ = try OperationAmount(request.amount)
        _ = try Memo.parse(request.memo)
        return try state.withLock { state throws(PostingError) in
            guard let from = state.accounts[request.from] else { throw .unknownAccount(request.from) }
            guard let to = state.accounts[request.to] else { throw .unknownAccount(request.to) }
            guard !from.isClosed else { throw .closedAccount(from.number) }
            guard !to.isClosed else { throw .closedAccount(to.number) }
            guard from.ownerID == request.initiatedBy else { throw .notOwner(from.number) }
            guard from.currency == request.amount.currency, to.currency == request.amount.currency else {
                throw .currencyMismatch(from: from.currency, to: to.currency == from.currency ? request.amount.currency : to.currency)
            }
            guard from.balance.minorUnits >= request.amount.minorUnits else {
                throw .insufficientFunds(from.number, balance: from.balance, requested: request.amount)
            }
            let (toBalance, overflow) = to.balance.minorUnits.addingReportingOverflow(request.amount.minorUnits)
            guard !overflow, toBalance <= AmountBounds.maximumBalanceMinorUnits else {
                throw .balanceAboveMaximum(to.number, amount: request.amount, maximum: AmountBounds.maximumBalance(in: to.currency))
            }
            let newFrom = Self.with(from, balance: from.balance.minorUnits - request.amount.minorUnits)
            let newTo = Self.with(to, balance: toBalance)
            state.accounts[from.number] = newFrom
            state.accounts[to.number] = newTo
            state.postings.append(request)
            defer { state.nextEntry += 2 }
            return PostingReceipt(from: newFrom, to: newTo, debitEntryID: state.nextEntry, creditEntryID: state.nextEntry + 1)
        }
    }

    private static func with(_ account: AccountSummary, balance: Int64) -> AccountSummary {
        AccountSummary(
            id: account.id, number: account.number, name: account.name, kind: account.kind, ownerID: account.ownerID,
            balance: Money(minorUnits: balance, currency: account.currency), isClosed: account.isClosed, openedAt: account.openedAt)
    }
}

/// A transaction token for fakes that have no database.
public final class NoDatabaseTransaction: Transaction {
    public init() {}
}

/// A unit of work for fakes: runs the work once with a token; nothing to roll back.
public struct NoDatabaseUnitOfWork: UnitOfWork {
    public init() {}
    public func perform<T: Sendable>(_ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        try work(NoDatabaseTransaction())
    }
}
