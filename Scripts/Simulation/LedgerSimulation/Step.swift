import AccountInterface
import Money

/// One step of a simulated workload: who acts, what they do, and the fault injected into it.
///
/// Steps are concrete, so a recorded list replays without the random generator that chose it: that
/// is how a failing seed replays exactly and how its trace is shortened. Accounts are named by the
/// label of the step that opened them (`A3`), never by position, so a shortened trace still means the
/// same thing; a label whose account was never opened stands for a number that no account has.
public struct Step: Sendable, Hashable, CustomStringConvertible {
    /// The acting user (1 to ``Workload/users``); a deleted user's index acts as a new user.
    public let user: Int
    public let action: Action
    public let fault: Fault

    public init(user: Int, action: Action, fault: Fault = .none) {
        self.user = user
        self.action = action
        self.fault = fault
    }

    public var description: String {
        let fault = fault == .none ? "" : "  [fault: \(fault)]"
        return "u\(user) \(action)\(fault)"
    }
}

/// What a step does: each case drives one real use case (or the clock).
public enum Action: Sendable, Hashable, CustomStringConvertible {
    /// `AccountService.open`: the account is known as `A<label>` from then on.
    case open(label: Int, kind: AccountKind, currency: Currency)
    /// `AccountService.deposit`, of typed text (which may not be an amount at all).
    case deposit(account: Int, amount: String)
    /// `AccountService.withdraw`.
    case withdraw(account: Int, amount: String)
    /// `SendMoney.send`, with an idempotency key or none (a replay is a send with a used key).
    case send(BatchLine)
    /// `TransferBatch`: the lines run in order, each in its own transaction.
    case batch([BatchLine])
    /// `AccountService.close`.
    case close(account: Int)
    /// `SettingsManager.set` of a KRW transfer limit (`transfer.per-transfer-limit` or `transfer.daily-limit`).
    case setLimit(name: String, value: String)
    /// Deletes the user as `moa auth delete` does: every feature's `UserDataOwner` in one transaction.
    case deleteUser
    /// Time passes (days roll over, so the daily limits start again).
    case advanceClock(minutes: Int)

    public var description: String {
        switch self {
        case .open(let label, let kind, let currency): "open A\(label) (\(kind.rawValue), \(currency.code))"
        case .deposit(let account, let amount): "deposit \(quoted(amount)) into A\(account)"
        case .withdraw(let account, let amount): "withdraw \(quoted(amount)) from A\(account)"
        case .send(let line): "send \(line)"
        case .batch(let lines): "batch of \(lines.count): " + lines.map(\.description).joined(separator: "; ")
        case .close(let account): "close A\(account)"
        case .setLimit(let name, let value): "set \(name) \(quoted(value))"
        case .deleteUser: "delete the user"
        case .advanceClock(let minutes): "advance the clock \(minutes) min"
        }
    }
}

/// A transfer as a person asks for it: from and to by label, the amount as typed, and a key.
public struct BatchLine: Sendable, Hashable, CustomStringConvertible {
    public let from: Int
    public let to: Int
    public let amount: String
    public let key: String?

    public init(from: Int, to: Int, amount: String, key: String?) {
        self.from = from
        self.to = to
        self.amount = amount
        self.key = key
    }

    public var description: String {
        "A\(from) → A\(to) \(quoted(amount))" + (key.map { " key \($0)" } ?? "")
    }
}

/// A fault injected into a step. Each one fires at most once, and only if the step gets that far.
public enum Fault: Sendable, Hashable, CustomStringConvertible {
    case none
    /// The database aborts the n-th row write of the step (a trigger raises): the transaction dies between
    /// two of its statements.
    case abortWrite(Int)
    /// The unit of work throws right after Account posted the double entry, before Transfer records it.
    case throwAfterPosting
    /// The unit of work throws as Transfer records the transfer.
    case throwOnRecord
    /// The unit of work throws as the inbox notice is published, the last write of a send.
    case throwOnNotice

    public var description: String {
        switch self {
        case .none: "none"
        case .abortWrite(let n): "the database aborts write #\(n)"
        case .throwAfterPosting: "throw after the posting"
        case .throwOnRecord: "throw on recording the transfer"
        case .throwOnNotice: "throw on publishing the notice"
        }
    }
}

private func quoted(_ text: String) -> String {
    "\"\(text)\""
}
