import AccountInterface
import Foundation
import Money
import SettingsInterface
import SharedKit
import TransferInterface

/// What the bank should hold, written only from the steps it accepted, by the rules of the ledger as
/// the documentation states them — not by calling the code under test. After every step the
/// simulation compares the bank with it; before every step it says whether the step must be
/// accepted (a refusal is then a bug) or refused (an acceptance is then a bug).
struct Model {
    struct Account {
        let label: Int
        let number: AccountNumber
        var owner: UserID
        let currency: Currency
        var balance: Int64 = 0
        var closed = false
    }

    /// A transfer as first posted, for replays.
    struct Original {
        let id: TransferID
        let from: AccountNumber
        let to: AccountNumber
        let amount: Money
    }

    /// What a step must do.
    enum Verdict: Equatable {
        case accept
        /// A replay: the original transfer, nothing posted.
        case replay(TransferID)
        /// Refused, for this reason (the model's words).
        case refuse(String)
    }

    private(set) var accounts: [Int: Account] = [:]
    private var generations: [Int: Int] = [:]
    private var sent: [String: Int64] = [:]
    private var originals: [UserID: [String: Original]] = [:]
    /// What customers hold per currency: everything deposited, less everything withdrawn.
    private(set) var held: [Currency: Int64] = [:]

    /// The id of user `index`: a new one after each deletion (as a new sign-up would get).
    func userID(_ index: Int) -> UserID {
        UserID("user\(index)-\(generations[index, default: 0])")
    }

    /// The number of the account opened as `label`, as the bank draws it (its 8 digits are the label).
    static func number(kind: AccountKind, label: Int) -> AccountNumber? {
        try? AccountNumber(prefix: kind.productCode + String(format: "%08d", label))
    }

    /// What a step names as account `label`: its number, or — for a label never opened — a
    /// well-formed number that no account has.
    func reference(_ label: Int) -> String {
        if let account = accounts[label] { return account.number.description }
        return (try? AccountNumber(prefix: "1109" + String(format: "%07d", label % 10_000_000)))?.description ?? "110-9999-9999-9"
    }

    func labels(ownedBy user: UserID) -> [Int] {
        accounts.values.filter { $0.owner == user }.map(\.label).sorted()
    }

    // MARK: Verdicts

    func openVerdict() -> Verdict { .accept }

    func depositVerdict(by user: UserID, into label: Int, amount text: String) -> Verdict {
        guard let account = accounts[label], account.owner == user else { return .refuse("no such account of the user") }
        guard !account.closed else { return .refuse("the account is closed") }
        guard let amount = Self.amount(text, in: account.currency) else { return .refuse("not an amount") }
        guard account.balance <= AmountBounds.maximumBalanceMinorUnits - amount else { return .refuse("above the maximum balance") }
        return .accept
    }

    func withdrawalVerdict(by user: UserID, from label: Int, amount text: String) -> Verdict {
        guard let account = accounts[label], account.owner == user else { return .refuse("no such account of the user") }
        guard !account.closed else { return .refuse("the account is closed") }
        guard let amount = Self.amount(text, in: account.currency) else { return .refuse("not an amount") }
        guard account.balance >= amount else { return .refuse("insufficient funds: \(account.balance) < \(amount)") }
        return .accept
    }

    /// In the order `SendMoney` documents: the source (the user's own), the amount, the key (a replay
    /// or a key reused for another request), the limits of the currency, then the posting's rules.
    func sendVerdict(by user: UserID, _ line: BatchLine, limits: TransferLimits, day: Int) -> Verdict {
        guard let source = accounts[line.from] else { return .refuse("no such source account") }
        guard source.owner == user else { return .refuse("the source is not the user's") }
        guard let amount = Self.amount(line.amount, in: source.currency) else { return .refuse("not an amount") }
        let destination = accounts[line.to]
        if let key = line.key, let original = originals[user]?[key] {
            let same =
                original.from == source.number && original.to.description == reference(line.to)
                && original.amount == Money(minorUnits: amount, currency: source.currency)
            return same ? .replay(original.id) : .refuse("the key was used for another transfer")
        }
        guard let currencyLimits = limits.limits(in: source.currency) else { return .refuse("no limits in \(source.currency)") }
        guard amount <= currencyLimits.perTransfer.minorUnits else { return .refuse("over the per-transfer limit") }
        let today = sent[Self.sentKey(user, source.currency, day), default: 0]
        guard today <= currencyLimits.daily.minorUnits - amount else { return .refuse("over the daily limit") }
        guard let destination else { return .refuse("no such destination") }
        guard destination.label != source.label else { return .refuse("the same account") }
        guard !source.closed, !destination.closed else { return .refuse("a closed account") }
        guard destination.currency == source.currency else { return .refuse("another currency") }
        guard source.balance >= amount else { return .refuse("insufficient funds: \(source.balance) < \(amount)") }
        guard destination.balance <= AmountBounds.maximumBalanceMinorUnits - amount else { return .refuse("above the maximum balance") }
        return .accept
    }

    func closeVerdict(by user: UserID, _ label: Int) -> Verdict {
        guard let account = accounts[label], account.owner == user else { return .refuse("no such account of the user") }
        guard !account.closed else { return .refuse("already closed") }
        guard account.balance == 0 else { return .refuse("it holds money") }
        return .accept
    }

    /// A user whose open accounts all stand at zero may be deleted.
    func deletionVerdict(of user: UserID) -> Verdict {
        let funded = accounts.values.filter { $0.owner == user && !$0.closed && $0.balance != 0 }
        return funded.isEmpty ? .accept : .refuse("\(funded.count) account(s) hold money")
    }

    // MARK: Accepted steps

    mutating func opened(label: Int, number: AccountNumber, owner: UserID, currency: Currency) {
        accounts[label] = Account(label: label, number: number, owner: owner, currency: currency)
    }

    mutating func deposited(_ text: String, into label: Int) {
        guard var account = accounts[label], let amount = Self.amount(text, in: account.currency) else { return }
        account.balance += amount
        accounts[label] = account
        held[account.currency, default: 0] += amount
    }

    mutating func withdrew(_ text: String, from label: Int) {
        guard var account = accounts[label], let amount = Self.amount(text, in: account.currency) else { return }
        account.balance -= amount
        accounts[label] = account
        held[account.currency, default: 0] -= amount
    }

    mutating func sent(_ line: BatchLine, by user: UserID, id: TransferID, day: Int) {
        guard var source = accounts[line.from], var destination = accounts[line.to],
            let amount = Self.amount(line.amount, in: source.currency)
        else { return }
        source.balance -= amount
        destination.balance += amount
        accounts[line.from] = source
        accounts[line.to] = destination
        sent[Self.sentKey(user, source.currency, day), default: 0] += amount
        if let key = line.key {
            originals[user, default: [:]][key] = Original(
                id: id, from: source.number, to: destination.number, amount: Money(minorUnits: amount, currency: source.currency))
        }
    }

    mutating func closed(_ label: Int) {
        accounts[label]?.closed = true
    }

    /// The user's accounts are closed and belong to nobody; the index acts as a new user from now on.
    mutating func deleted(_ index: Int, erasedOwner: UserID) {
        let user = userID(index)
        for (label, account) in accounts where account.owner == user {
            accounts[label]?.closed = true
            accounts[label]?.owner = erasedOwner
        }
        generations[index, default: 0] += 1
    }

    // MARK: Rules

    /// The amount `text` stands for in `currency`, in minor units, if it is one a person may move
    /// (positive, at most the per-operation maximum). Parsing is the Money parser's business (fuzzed
    /// on its own); the ledger's rules are the model's.
    static func amount(_ text: String, in currency: Currency) -> Int64? {
        guard let amount = try? OperationAmount(parsing: text, currency: currency) else { return nil }
        return amount.money.minorUnits
    }

    /// The day of `date` in UTC, the calendar the simulated bank counts daily limits in.
    static func day(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    private static func sentKey(_ user: UserID, _ currency: Currency, _ day: Int) -> String {
        "\(user.rawValue)|\(currency.code)|\(day)"
    }
}
