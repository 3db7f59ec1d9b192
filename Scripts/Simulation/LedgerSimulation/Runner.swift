import AccountDomain
import AccountInterface
import Foundation
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
    /// The fingerprint the last step's checks read.
    private var lastFingerprint: String?

    private init(bank: SimulatedBank) {
        self.bank = bank
    }

    /// A runner on a new bank of `engine`; ``close()`` lets go of its database.
    static func make(on engine: SimulationEngine, sabotage: Sabotage?) async throws -> Runner {
        Runner(bank: try await SimulatedBank.make(on: engine, sabotage: sabotage))
    }

    func close() async {
        await bank.close()
    }

    /// Runs `step`; returns the first invariant it breaks, if any. Throws only when the simulation
    /// itself cannot go on (its database failing outside the step).
    func run(_ step: Step) async throws -> Violation? {
        let user = model.userID(step.user)
        bank.session.logIn(user)
        // What the previous step's checks read is the state before this step (arming a fault
        // writes only the fault switch).
        let before: String
        if let last = lastFingerprint { before = last } else { before = try await snapshot().fingerprint }
        try await bank.faults.arm(step.fault)
        if step.fault != .none { stats.faultsArmed += 1 }
        var effect = Effect()
        await perform(step, as: user, &effect)
        try await bank.faults.disarm()
        if effect.faultFired { stats.faultsFired += 1 }
        results.append(StepResult(step: step, outcome: effect.outcome))

        let after = try await snapshot()
        lastFingerprint = after.fingerprint
        if let violation = after.ledgerViolation { return violation }
        if effect.threw, !effect.partial, after.fingerprint != before {
            return Violation(check: "nothing half-written", detail: "the step failed (\(effect.outcome)) but the database changed")
        }
        if let violation = effect.violation { return violation }
        return checkModel(after.accounts)
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
                    effect.outcome = try await settle(receipt, of: line, by: user, verdict: verdict, limits: limits, day: day, &effect)
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
                        outcomes.append(try await settle(receipt, of: line, by: user, verdict: verdict, limits: limits, day: day, &effect))
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
    ) async throws -> String {
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
            if let violation = try await checkLimits(transfer, limits: limits) { effect.violation = violation }
            model.sent(line, by: user, id: transfer.id, day: day)
            return "posted \(transfer.id)"
        }
    }

    // MARK: Invariants
    //
    // Every check is one SQL text that both engines run alike (no column alias in a WHERE or HAVING,
    // sums cast to BIGINT, which PostgreSQL would otherwise widen to NUMERIC).

    /// What the checks read after a step, in one snapshot (one transaction).
    private struct Snapshot {
        /// The first of the ledger's own invariants that a row breaks.
        let ledgerViolation: Violation?
        /// Every customer account: number, owner, balance, closed.
        let accounts: [CellRow]
        let fingerprint: String
    }

    private func snapshot() async throws -> Snapshot {
        let found = try await bank.storage.read(Self.ledgerChecks.map(\.query) + [Self.accountsQuery] + Self.fingerprintQueries)
        let ledger = found.prefix(Self.ledgerChecks.count)
        let violation = zip(Self.ledgerChecks, ledger).first { !$0.1.isEmpty }.flatMap { check, rows in rows.first.map(check.violation) }
        return Snapshot(
            ledgerViolation: violation, accounts: found[Self.ledgerChecks.count],
            fingerprint: Self.fingerprint(Array(found.suffix(Self.fingerprintQueries.count))))
    }

    /// The ledger's own invariants, from the database alone: each a query for the first row that breaks
    /// it (in a fixed order, so that both engines name the same one).
    private static let ledgerChecks: [(query: Query, violation: @Sendable (CellRow) -> Violation)] = [
        (
            Query(
                """
                SELECT number, balance, total FROM (
                    SELECT a.number, a.balance,
                           (SELECT CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM account_entries e WHERE e.account_id = a.id) AS total
                    FROM account_accounts a) AS sums
                WHERE balance <> total ORDER BY number LIMIT 1
                """),
            {
                Violation(
                    check: "balances equal the sum of their entries",
                    detail: "\(shown($0["number"])) has \(int($0["balance"])), its entries sum to \(int($0["total"]))")
            }
        ),
        (
            Query(
                "SELECT currency, CAST(SUM(amount) AS BIGINT) AS total FROM account_entries GROUP BY currency HAVING SUM(amount) <> 0 ORDER BY currency LIMIT 1"
            ),
            { Violation(check: "entries sum to zero", detail: "the \(text($0["currency"])) entries sum to \(int($0["total"]))") }
        ),
        (
            Query(
                "SELECT currency, CAST(SUM(balance) AS BIGINT) AS total FROM account_accounts GROUP BY currency HAVING SUM(balance) <> 0 ORDER BY currency LIMIT 1"
            ),
            {
                Violation(
                    check: "money conserved per currency",
                    detail: "the \(text($0["currency"])) balances, cash included, sum to \(int($0["total"]))")
            }
        ),
        (
            Query(
                """
                SELECT id, entries, total FROM (
                    SELECT t.id, (SELECT COUNT(*) FROM account_entries e WHERE e.reference = t.id) AS entries,
                           (SELECT CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM account_entries e WHERE e.reference = t.id) AS total
                    FROM transfer_transfers t) AS postings
                WHERE entries <> 2 OR total <> 0 ORDER BY id LIMIT 1
                """),
            {
                Violation(
                    check: "two entries per transfer",
                    detail: "transfer \(text($0["id"])) has \(int($0["entries"])) entries summing to \(int($0["total"]))")
            }
        ),
        (
            Query(
                """
                SELECT reference FROM account_entries
                WHERE reference IS NOT NULL AND reference NOT IN (SELECT id FROM transfer_transfers) ORDER BY reference LIMIT 1
                """),
            { Violation(check: "two entries per transfer", detail: "entries refer to \(text($0["reference"])), which no transfer records") }
        ),
        (
            Query("SELECT number, balance FROM account_accounts WHERE owner_id IS NOT NULL AND balance < 0 ORDER BY number LIMIT 1"),
            { Violation(check: "no balance below zero", detail: "\(shown($0["number"])) stands at \(int($0["balance"]))") }
        ),
        (
            Query("SELECT number, balance FROM account_accounts WHERE closed_at IS NOT NULL AND balance <> 0 ORDER BY number LIMIT 1"),
            { Violation(check: "a closed account holds nothing", detail: "\(shown($0["number"])) holds \(int($0["balance"]))") }
        ),
    ]

    private static let accountsQuery = Query(
        "SELECT number, owner_id, balance, closed_at IS NOT NULL AS closed FROM account_accounts WHERE kind <> 'cash' ORDER BY number")

    /// The bank against the model: every account, its owner, balance and state, and what customers
    /// hold per currency (everything deposited less everything withdrawn).
    private func checkModel(_ accounts: [CellRow]) -> Violation? {
        let rows = accounts.map {
            (
                number: Self.text($0["number"]), owner: $0["owner_id"].text, balance: Self.int($0["balance"]),
                closed: $0["closed"].bool == true
            )
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
    private func checkLimits(_ transfer: TransferSummary, limits: TransferLimits) async throws -> Violation? {
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
        let row = try await bank.storage.row(
            """
            SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM transfer_transfers
            WHERE initiated_by = ? AND currency = ? AND created_at >= ? AND created_at < ?
            """,
            [.text(transfer.initiatedBy.rawValue), .text(transfer.amount.currency.code), .date(day.start), .date(day.end)])
        let total = row.map { Self.int($0["total"]) } ?? 0
        if total > currencyLimits.daily.minorUnits {
            return Violation(
                check: "no limit exceeded",
                detail: "the day's \(transfer.amount.currency) transfers of \(transfer.initiatedBy) add up to \(total)")
        }
        return nil
    }

    /// Everything the use cases write, cheaply summarised: equal before and after a failed step
    /// unless something was half-written. (Rows are sorted here: PostgreSQL returns a table's rows in
    /// no fixed order.)
    private static let fingerprinted = [
        "account_accounts", "transfer_totals", "transfer_favourites", "transfer_recent_recipients", "settings_value",
    ]
    private static let counted = [("account_entries", "id"), ("transfer_transfers", "position"), ("inbox_notices", "id")]

    private static let fingerprintQueries =
        fingerprinted.map { Query("SELECT * FROM \($0)") }
        + counted.map { Query("SELECT COUNT(*) AS count, COALESCE(MAX(\($0.1)), 0) AS last FROM \($0.0)") }

    private static func fingerprint(_ found: [[CellRow]]) -> String {
        var parts = found.prefix(fingerprinted.count).map { rows in
            rows.map { $0.ordered.map(\.description).joined(separator: ",") }.sorted().joined(separator: ";")
        }
        for (table, rows) in zip(counted.map(\.0), found.dropFirst(fingerprinted.count)) {
            parts.append("\(table) \(rows.first.map { int($0["count"]) } ?? 0)/\(rows.first.map { int($0["last"]) } ?? 0)")
        }
        return parts.joined(separator: "\n")
    }

    private static func int(_ cell: Cell) -> Int64 { cell.int ?? 0 }

    private static func text(_ cell: Cell) -> String { cell.text ?? cell.description }

    /// A stored account number as people read it (`110-0000-0003-1`).
    static func shown(_ digits: Cell) -> String {
        let digits = text(digits)
        return (try? AccountNumber(digits))?.description ?? digits
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
