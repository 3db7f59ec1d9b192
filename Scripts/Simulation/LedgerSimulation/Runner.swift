import AccountDomain
import AccountInterface
import Foundation
import GRDB
import Money
import SettingsInterface
import SharedKit
import TransferDomain
import TransferInterface

/// A broken invariant: which one, and what was seen.
public struct Violation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The invariant, in the words of docs/reliability.md (e.g. "no balance below zero").
    public let check: String
    public let detail: String

    public var description: String { "\(check): \(detail)" }
}

/// What a step did, for the trace.
public struct StepResult: Sendable, Hashable {
    public let step: Step
    /// "posted t3", "refused: …", "fault fired", …
    public let outcome: String
}

/// Runs steps against one new bank, checking every invariant after each.
final class Runner {
    let bank: SimulatedBank
    private(set) var model = Model()
    private(set) var stats = Statistics()
    private(set) var results: [StepResult] = []

    init(sabotage: Sabotage?) throws {
        bank = try SimulatedBank(sabotage: sabotage)
    }

    /// Runs `step`; returns the first invariant it breaks, if any. Throws only when the simulation
    /// itself cannot go on (its database failing outside the step).
    func run(_ step: Step) async throws -> Violation? {
        let user = model.userID(step.user)
        bank.session.logIn(user)
        let before = try fingerprint()
        try bank.faults.arm(step.fault, in: bank.database)
        if step.fault != .none { stats.faultsArmed += 1 }
        var effect = Effect()
        await perform(step, as: user, &effect)
        try bank.faults.disarm(in: bank.database)
        if effect.faultFired { stats.faultsFired += 1 }
        results.append(StepResult(step: step, outcome: effect.outcome))

        if let violation = try checkLedger() { return violation }
        if effect.threw, !effect.partial, try fingerprint() != before {
            return Violation(check: "nothing half-written", detail: "the step failed (\(effect.outcome)) but the database changed")
        }
        if let violation = effect.violation { return violation }
        return try checkModel()
    }

    // MARK: Steps

    /// What one step did.
    private struct Effect {
        var outcome = "ok"
        /// The step ended in an error (a refusal or an injected fault).
        var threw = false
        /// Part of the step may have committed before it failed (a batch's earlier lines).
        var partial = false
        var faultFired = false
        /// A disagreement with the model's verdict or a broken promise of the use case.
        var violation: Violation?

        mutating func failed(_ error: any Error, verdict: Model.Verdict, step: String) {
            threw = true
            if InjectedFault.isInjected(error) {
                faultFired = true
                outcome = "fault fired"
            } else {
                outcome = "refused: " + Runner.message(error)
                if verdict == .accept {
                    violation = Violation(
                        check: "refuses only what the rules refuse", detail: "\(step) was refused: \(Runner.message(error))")
                }
            }
        }

        mutating func accepted(_ verdict: Model.Verdict, step: String) -> Bool {
            if case .refuse(let reason) = verdict {
                violation = Violation(check: "accepts only what the rules allow", detail: "\(step) was accepted, but \(reason)")
                return false
            }
            return true
        }
    }

    private func perform(_ step: Step, as user: UserID, _ effect: inout Effect) async {
        switch step.action {
        case .open(let label, let kind, let currency):
            stats.count("open")
            do {
                let account = try await bank.open(label: label, kind: kind, currency: currency)
                if account.number != Model.number(kind: kind, label: label) || account.currency != currency || account.ownerID != user {
                    effect.violation = Violation(
                        check: "opens what was asked", detail: "A\(label) opened as \(account.number) in \(account.currency)")
                }
                model.opened(label: label, number: account.number, owner: user, currency: currency)
                effect.outcome = "opened \(account.number)"
            } catch {
                effect.failed(error, verdict: model.openVerdict(), step: "opening A\(label)")
            }

        case .deposit(let label, let amount):
            await moveCash(deposit: true, label, amount, as: user, &effect)

        case .withdraw(let label, let amount):
            await moveCash(deposit: false, label, amount, as: user, &effect)

        case .send(let line):
            do {
                let limits = try await bank.settings.snapshot().transferLimits
                let day = Model.day(of: bank.clock.now())
                let verdict = model.sendVerdict(by: user, line, limits: limits, day: day)
                do {
                    let receipt = try await bank.sendMoney.send(draft(line))
                    effect.outcome = try settle(receipt, of: line, by: user, verdict: verdict, limits: limits, day: day, &effect)
                } catch {
                    stats.count("transfer", outcome: "refused")
                    effect.failed(error, verdict: verdict, step: "the transfer \(line)")
                }
            } catch {
                effect.failed(error, verdict: .refuse("the settings could not be read"), step: "reading the limits")
            }

        case .batch(let lines):
            effect.partial = true
            do {
                let run = try await bank.batch.start()
                let limits = try await bank.settings.snapshot().transferLimits
                let day = Model.day(of: bank.clock.now())
                var outcomes: [String] = []
                for (index, written) in lines.enumerated() {
                    let row = BatchRow(
                        line: index + 2, from: model.reference(written.from), to: model.reference(written.to), amount: written.amount,
                        memo: nil, idempotencyKey: written.key)
                    // A row without a key has one derived from its line and fields (a file run again
                    // skips what was done): the model sees the key the bank uses.
                    let line = BatchLine(from: written.from, to: written.to, amount: written.amount, key: row.effectiveKey)
                    let verdict = model.sendVerdict(by: user, line, limits: limits, day: day)
                    let outcome: BatchRowOutcome
                    do {
                        outcome = try await run.execute(row)
                    } catch {
                        effect.failed(error, verdict: verdict, step: "line \(index + 1) of the batch (\(line))")
                        outcomes.append(effect.outcome)
                        break
                    }
                    switch outcome {
                    case .done(let receipt), .skipped(let receipt):
                        outcomes.append(try settle(receipt, of: line, by: user, verdict: verdict, limits: limits, day: day, &effect))
                    case .refused(let reason):
                        stats.count("transfer", outcome: "refused")
                        outcomes.append("refused: \(reason)")
                        if verdict == .accept {
                            effect.violation = Violation(
                                check: "refuses only what the rules refuse",
                                detail: "line \(index + 1) of the batch (\(line)) was refused: \(reason)")
                        }
                    }
                    if effect.violation != nil { break }
                }
                if !effect.threw { effect.outcome = outcomes.joined(separator: "; ") }
            } catch {
                effect.failed(error, verdict: .refuse("the batch could not start"), step: "starting the batch")
            }

        case .close(let label):
            let verdict = model.closeVerdict(by: user, label)
            do {
                _ = try await bank.accounts.close(model.reference(label))
                stats.count("close", accepted: true)
                guard effect.accepted(verdict, step: "closing A\(label)") else { return }
                model.closed(label)
                effect.outcome = "closed"
            } catch {
                stats.count("close", accepted: false)
                effect.failed(error, verdict: verdict, step: "closing A\(label)")
            }

        case .setLimit(let name, let value):
            do {
                _ = try await bank.settings.set(name, to: value)
                stats.count("limit change", accepted: true)
                effect.outcome = "set"
            } catch {
                stats.count("limit change", accepted: false)
                effect.failed(error, verdict: .refuse("settings judge their own values"), step: "setting \(name)")
            }

        case .deleteUser:
            let verdict = model.deletionVerdict(of: user)
            do {
                try await bank.delete(user)
                stats.count("deletion", accepted: true)
                guard effect.accepted(verdict, step: "deleting \(user)") else { return }
                model.deleted(step.user, erasedOwner: AccountUserData.erasedOwner)
                effect.outcome = "deleted"
            } catch {
                stats.count("deletion", accepted: false)
                effect.failed(error, verdict: verdict, step: "deleting \(user)")
            }

        case .advanceClock(let minutes):
            bank.clock.advance(by: TimeInterval(minutes * 60))
            effect.outcome = "now \(bank.clock.now())"
        }
    }

    /// A deposit into (or a withdrawal from) account `label`, held to the model's verdict.
    private func moveCash(deposit: Bool, _ label: Int, _ amount: String, as user: UserID, _ effect: inout Effect) async {
        let kind = deposit ? "deposit" : "withdrawal"
        let place = deposit ? "into A\(label)" : "from A\(label)"
        let verdict =
            deposit
            ? model.depositVerdict(by: user, into: label, amount: amount) : model.withdrawalVerdict(by: user, from: label, amount: amount)
        do {
            let reference = model.reference(label)
            let entry =
                deposit
                ? try await bank.accounts.deposit(amount, to: reference, memo: nil)
                : try await bank.accounts.withdraw(amount, from: reference, memo: nil)
            stats.count(kind, accepted: true)
            guard effect.accepted(verdict, step: "the \(kind) \(place)") else { return }
            if deposit { model.deposited(amount, into: label) } else { model.withdrew(amount, from: label) }
            effect.outcome = "\(deposit ? "deposited" : "withdrew"), balance \(entry.balanceAfter.minorUnits)"
        } catch {
            stats.count(kind, accepted: false)
            effect.failed(error, verdict: verdict, step: "the \(kind) of \"\(amount)\" \(place)")
        }
    }

    private func draft(_ line: BatchLine) -> TransferDraft {
        TransferDraft(
            from: model.reference(line.from), to: model.reference(line.to), amount: line.amount, memo: nil, idempotencyKey: line.key)
    }

    /// Checks a transfer the bank accepted against the verdict (a replay must return the original,
    /// a new one must stay within the limits) and applies it to the model.
    private func settle(
        _ receipt: TransferReceipt, of line: BatchLine, by user: UserID, verdict: Model.Verdict, limits: TransferLimits, day: Int,
        _ effect: inout Effect
    ) throws -> String {
        let transfer = receipt.transfer
        switch verdict {
        case .replay(let original):
            stats.count("transfer", outcome: "replayed")
            if !receipt.replayed || transfer.id != original {
                effect.violation = Violation(
                    check: "a replay returns the original",
                    detail: "\(line) with a used key gave \(transfer.id) (replayed: \(receipt.replayed)), not \(original)")
            }
            return "replayed \(transfer.id)"
        case .refuse(let reason):
            stats.count("transfer", outcome: receipt.replayed ? "replayed" : "posted")
            effect.violation = Violation(
                check: "accepts only what the rules allow", detail: "the transfer \(line) was accepted, but \(reason)")
            return "posted \(transfer.id)"
        case .accept:
            stats.count("transfer", outcome: "posted")
            if receipt.replayed {
                effect.violation = Violation(
                    check: "a replay returns the original", detail: "\(line) was taken for a replay of \(transfer.id)")
                return "replayed \(transfer.id)"
            }
            if let violation = try checkLimits(transfer, limits: limits) { effect.violation = violation }
            model.sent(line, by: user, id: transfer.id, day: day)
            return "posted \(transfer.id)"
        }
    }

    // MARK: Invariants

    /// The ledger's own invariants, from the database alone.
    private func checkLedger() throws -> Violation? {
        try bank.database.read { db -> Violation? in
            if let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT a.number, a.balance, (SELECT COALESCE(SUM(e.amount), 0) FROM account_entries e WHERE e.account_id = a.id) AS total
                    FROM account_accounts a WHERE a.balance != total LIMIT 1
                    """)
            {
                return Violation(
                    check: "balances equal the sum of their entries",
                    detail: "\(Self.shown(row["number"])) has \(row["balance"] as Int64), its entries sum to \(row["total"] as Int64)")
            }
            if let row = try Row.fetchOne(
                db, sql: "SELECT currency, SUM(amount) AS total FROM account_entries GROUP BY currency HAVING total != 0 LIMIT 1")
            {
                return Violation(
                    check: "entries sum to zero", detail: "the \(row["currency"] as String) entries sum to \(row["total"] as Int64)")
            }
            if let row = try Row.fetchOne(
                db, sql: "SELECT currency, SUM(balance) AS total FROM account_accounts GROUP BY currency HAVING total != 0 LIMIT 1")
            {
                return Violation(
                    check: "money conserved per currency",
                    detail: "the \(row["currency"] as String) balances, cash included, sum to \(row["total"] as Int64)")
            }
            if let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT t.id, (SELECT COUNT(*) FROM account_entries e WHERE e.reference = t.id) AS count,
                           (SELECT COALESCE(SUM(e.amount), 0) FROM account_entries e WHERE e.reference = t.id) AS total
                    FROM transfer_transfers t WHERE count != 2 OR total != 0 LIMIT 1
                    """)
            {
                return Violation(
                    check: "two entries per transfer",
                    detail: "transfer \(row["id"] as String) has \(row["count"] as Int) entries summing to \(row["total"] as Int64)")
            }
            if let reference = try String.fetchOne(
                db,
                sql: """
                    SELECT reference FROM account_entries
                    WHERE reference IS NOT NULL AND reference NOT IN (SELECT id FROM transfer_transfers) LIMIT 1
                    """)
            {
                return Violation(check: "two entries per transfer", detail: "entries refer to \(reference), which no transfer records")
            }
            if let row = try Row.fetchOne(
                db, sql: "SELECT number, balance FROM account_accounts WHERE owner_id IS NOT NULL AND balance < 0 LIMIT 1")
            {
                return Violation(
                    check: "no balance below zero", detail: "\(Self.shown(row["number"])) stands at \(row["balance"] as Int64)")
            }
            if let row = try Row.fetchOne(
                db, sql: "SELECT number, balance FROM account_accounts WHERE closed_at IS NOT NULL AND balance != 0 LIMIT 1")
            {
                return Violation(
                    check: "a closed account holds nothing", detail: "\(Self.shown(row["number"])) holds \(row["balance"] as Int64)")
            }
            return nil
        }
    }

    /// The bank against the model: every account, its owner, balance and state, and what customers
    /// hold per currency (everything deposited less everything withdrawn).
    private func checkModel() throws -> Violation? {
        let rows = try bank.database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT number, owner_id, balance, closed_at IS NOT NULL AS closed FROM account_accounts WHERE kind != 'cash'"
            ).map {
                (
                    number: $0["number"] as String, owner: $0["owner_id"] as String?, balance: $0["balance"] as Int64,
                    closed: $0["closed"] as Bool
                )
            }
        }
        var seen = Set<String>()
        var held: [Currency: Int64] = [:]
        for (number, owner, balance, closed) in rows {
            seen.insert(number)
            guard let account = model.accounts.values.first(where: { $0.number.digits == number }) else {
                return Violation(check: "money conserved per currency", detail: "account \(number) exists, but no step opened it")
            }
            held[account.currency, default: 0] += balance
            if balance != account.balance || closed != account.closed || owner != account.owner.rawValue {
                return Violation(
                    check: "balances match the accepted steps",
                    detail:
                        "A\(account.label) holds \(balance) (closed: \(closed)), the accepted steps leave \(account.balance) (closed: \(account.closed))"
                )
            }
        }
        if let missing = model.accounts.values.first(where: { !seen.contains($0.number.digits) }) {
            return Violation(check: "balances match the accepted steps", detail: "A\(missing.label) was opened but is gone")
        }
        for (currency, amount) in model.held where held[currency, default: 0] != amount {
            return Violation(
                check: "money conserved per currency",
                detail: "customers hold \(held[currency, default: 0]) \(currency), but deposits less withdrawals are \(amount)")
        }
        return nil
    }

    /// A new transfer keeps to the limits it was sent under: at most the per-transfer limit, and the
    /// day's transfers of the user in its currency at most the daily limit.
    private func checkLimits(_ transfer: TransferSummary, limits: TransferLimits) throws -> Violation? {
        guard let currencyLimits = limits.limits(in: transfer.amount.currency) else {
            return Violation(
                check: "no limit exceeded", detail: "\(transfer.id) was sent in \(transfer.amount.currency), which has no limits")
        }
        if transfer.amount.minorUnits > currencyLimits.perTransfer.minorUnits {
            return Violation(
                check: "no limit exceeded", detail: "\(transfer.id) sends \(transfer.amount.minorUnits), over the per-transfer limit")
        }
        let day =
            SimulatedBank.calendar.dateInterval(of: .day, for: transfer.createdAt) ?? DateInterval(start: transfer.createdAt, duration: 1)
        let total = try bank.database.read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT COALESCE(SUM(amount), 0) FROM transfer_transfers
                    WHERE initiated_by = ? AND currency = ? AND created_at >= ? AND created_at < ?
                    """,
                arguments: [transfer.initiatedBy.rawValue, transfer.amount.currency.code, day.start, day.end]) ?? 0
        }
        if total > currencyLimits.daily.minorUnits {
            return Violation(
                check: "no limit exceeded",
                detail: "the day's \(transfer.amount.currency) transfers of \(transfer.initiatedBy) add up to \(total)")
        }
        return nil
    }

    /// Everything the use cases write, cheaply summarised: equal before and after a failed step
    /// unless something was half-written.
    private func fingerprint() throws -> String {
        try bank.database.read { db in
            var parts: [String] = []
            for table in ["account_accounts", "transfer_totals", "transfer_favourites", "transfer_recent_recipients", "settings_value"] {
                parts.append(try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map(\.description).joined(separator: ";"))
            }
            parts.append(
                try String.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT COUNT(*) || '/' || IFNULL(MAX(id), 0) FROM account_entries) || ' ' ||
                               (SELECT COUNT(*) || '/' || IFNULL(MAX(position), 0) FROM transfer_transfers) || ' ' ||
                               (SELECT COUNT(*) || '/' || IFNULL(MAX(rowid), 0) FROM inbox_notices)
                        """) ?? "")
            return parts.joined(separator: "\n")
        }
    }

    /// A stored account number as people read it (`110-0000-0003-1`).
    static func shown(_ digits: String) -> String {
        (try? AccountNumber(digits))?.description ?? digits
    }

    static func message(_ error: any Error) -> String {
        (error as? any UserFacingError)?.message ?? String(describing: error)
    }
}

/// How many steps of each kind ran and how they ended, over one seed or many.
public struct Statistics: Sendable, Hashable {
    /// "transfer posted" → 1,234, "deposit refused" → 56, …
    public private(set) var counts: [String: Int] = [:]
    public var faultsArmed = 0
    public var faultsFired = 0

    public init() {}

    mutating func count(_ kind: String, accepted: Bool) {
        counts["\(kind) \(accepted ? "accepted" : "refused")", default: 0] += 1
    }

    mutating func count(_ kind: String, outcome: String) {
        counts["\(kind) \(outcome)", default: 0] += 1
    }

    mutating func count(_ kind: String) {
        counts[kind, default: 0] += 1
    }

    public mutating func add(_ other: Statistics) {
        counts.merge(other.counts, uniquingKeysWith: +)
        faultsArmed += other.faultsArmed
        faultsFired += other.faultsFired
    }
}
