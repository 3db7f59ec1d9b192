import AccountInterface
import Foundation
import Money
import SharedKit

/// The rules of a posting, applied by every ledger engine (AccountData on SQLite, the server's
/// PostgreSQL stores) to the accounts as it read them inside its write transaction: the same checks,
/// in the same order, with the same errors, whichever engine holds the ledger.
public enum PostingRules {
    /// An account as the ledger stores it, read inside the posting's transaction.
    public struct Account: Sendable, Equatable {
        public let id: String
        public let number: AccountNumber
        /// `nil` for the hidden cash accounts (the other side of deposits and withdrawals).
        public let ownerID: String?
        public let currency: Currency
        public let balance: Int64
        public let isClosed: Bool

        public init(id: String, number: AccountNumber, ownerID: String?, currency: Currency, balance: Int64, isClosed: Bool) {
            self.id = id
            self.number = number
            self.ownerID = ownerID
            self.currency = currency
            self.balance = balance
            self.isClosed = isClosed
        }

        public var isCash: Bool { ownerID == nil }
    }

    /// Checks a transfer between customer accounts (`from` and `to` as found by number, `nil` when
    /// none); returns its memo, checked. Refuses the same account, an amount not above zero, a memo
    /// breaking ``Memo``'s rules, an unknown or cash account, a closed one, a `from` the initiator
    /// does not own, and mismatched currencies — in that order.
    public static func checkTransfer(_ request: PostingRequest, from: Account?, to: Account?) throws -> String? {
        guard request.from != request.to else { throw PostingError.sameAccount(request.from) }
        guard request.amount.isPositive else { throw PostingError.amountNotPositive(request.amount) }
        let memo = try Memo.parse(request.memo)?.text
        guard let from, !from.isCash else { throw PostingError.unknownAccount(request.from) }
        guard let to, !to.isCash else { throw PostingError.unknownAccount(request.to) }
        guard !from.isClosed else { throw PostingError.closedAccount(from.number) }
        guard !to.isClosed else { throw PostingError.closedAccount(to.number) }
        guard from.ownerID == request.initiatedBy.rawValue else { throw PostingError.notOwner(from.number) }
        guard from.currency == to.currency else { throw PostingError.currencyMismatch(from: from.currency, to: to.currency) }
        guard from.currency == request.amount.currency else {
            throw PostingError.currencyMismatch(from: from.currency, to: request.amount.currency)
        }
        return memo
    }

    /// Checks the customer account of a deposit or a withdrawal: it exists (and is not a cash
    /// account), is open, and holds `currency`.
    public static func checkCashMovement(_ number: AccountNumber, currency: Currency, account: Account?) throws -> Account {
        guard let account, !account.isCash else { throw PostingError.unknownAccount(number) }
        guard !account.isClosed else { throw PostingError.closedAccount(number) }
        guard account.currency == currency else { throw PostingError.currencyMismatch(from: account.currency, to: currency) }
        return account
    }

    /// The balances after moving `amount` from `from` to `to`. The amount must be within the
    /// per-operation maximum (``AmountError``); a customer account may go neither below zero
    /// (``PostingError/insufficientFunds(_:balance:requested:)``) nor above the per-balance maximum
    /// (``PostingError/balanceAboveMaximum(_:amount:maximum:)``). Cash accounts are bounded by the
    /// engine, which picks one that stays within its bound.
    public static func balancesAfter(moving amount: Money, from: Account, to: Account) throws -> (from: Money, to: Money) {
        _ = try OperationAmount(amount)
        let fromBalance = try Money(minorUnits: from.balance, currency: from.currency).subtracting(amount)
        if !from.isCash, fromBalance.isNegative {
            throw PostingError.insufficientFunds(
                from.number, balance: Money(minorUnits: from.balance, currency: from.currency), requested: amount)
        }
        let toBalance = try Money(minorUnits: to.balance, currency: to.currency).adding(amount)
        if !to.isCash, toBalance.minorUnits > AmountBounds.maximumBalanceMinorUnits {
            throw PostingError.balanceAboveMaximum(to.number, amount: amount, maximum: AmountBounds.maximumBalance(in: to.currency))
        }
        return (fromBalance, toBalance)
    }

    /// How far a hidden cash account's balance may go from zero, either way: 9 × 10^18 minor units, so
    /// that one more operation (at most 10^11) can never overflow `Int64` (about 9.22 × 10^18).
    ///
    /// The cash accounts are the other side of every deposit (a debit: they go negative) and every
    /// withdrawal (a credit). Their total is minus everything the customers hold in that currency, which
    /// no single number bounds — every account may hold up to 10^15 and there may be any number of them.
    /// So a currency has as many cash accounts as it needs: a movement posts against the oldest one that
    /// stays within ±``cashBound`` after it, and a new one is opened when none does (`cash-KRW`, then
    /// `cash-KRW-2`, …). No balance can overflow, however much anyone deposits, and every invariant of
    /// the audit still holds (each cash account's balance is the sum of its entries).
    public static let cashBound: Int64 = 9_000_000_000_000_000_000

    /// The id of a currency's cash account of `rank` (1: `cash-KRW`, 2: `cash-KRW-2`, …).
    public static func cashAccountID(_ currency: Currency, rank: Int) -> String {
        rank == 1 ? "cash-\(currency.code)" : "cash-\(currency.code)-\(rank)"
    }

    /// The number of a currency's cash account of `rank`: `000` + 8 digits (the currency's place in
    /// `Currency.supported` + 100 × (rank − 1)) + the check digit; `nil` when that overflows 8 digits.
    public static func cashAccountNumber(_ currency: Currency, rank: Int) throws -> AccountNumber? {
        let place = (Currency.supported.firstIndex(of: currency) ?? 0) + 1
        let body = place + 100 * (rank - 1)
        return body > 99_999_999 ? nil : try cashNumber(body)
    }

    /// `000` + `body` on 8 digits + the check digit.
    public static func cashNumber(_ body: Int) throws -> AccountNumber {
        let digits = String(body)
        return try AccountNumber(prefix: "000" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits)
    }

    /// The name of every cash account of `currency`.
    public static func cashAccountName(_ currency: Currency) -> String { "Cash (\(currency.code))" }
}
