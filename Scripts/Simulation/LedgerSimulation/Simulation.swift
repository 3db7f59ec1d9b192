import AccountInterface
import Money
import SettingsInterface
import TestSupport

/// The deterministic ledger simulation: a seeded random workload of real use cases with injected
/// faults, every invariant checked after every step, and — for a failing seed — the shortest trace
/// that still fails.
public enum Simulation {
    /// How many users share the bank.
    public static let users = 4

    /// What one seed did.
    public struct SeedReport: Sendable {
        public let seed: UInt64
        /// The steps run (up to and including the failing one).
        public let steps: [Step]
        /// What each step did.
        public let results: [StepResult]
        public let failure: Violation?
        public let statistics: Statistics
    }

    /// Generates and runs `steps` steps from `seed` on a new bank of `engine`, stopping at the first
    /// broken invariant.
    public static func run(seed: UInt64, steps count: Int, on engine: SimulationEngine = .sqlite, sabotage: Sabotage? = nil)
        async throws -> SeedReport
    {
        try await withRunner(on: engine, sabotage: sabotage) { runner in
            var workload = Workload(seed: seed)
            var steps: [Step] = []
            for _ in 0..<count {
                let step = workload.next(runner.model)
                steps.append(step)
                if let violation = try await runner.run(step) {
                    return SeedReport(seed: seed, steps: steps, results: runner.results, failure: violation, statistics: runner.stats)
                }
            }
            return SeedReport(seed: seed, steps: steps, results: runner.results, failure: nil, statistics: runner.stats)
        }
    }

    /// Runs recorded `steps` on a new bank of `engine`: what each did, and the first broken invariant
    /// with the index of its step.
    public static func replay(_ steps: [Step], on engine: SimulationEngine = .sqlite, sabotage: Sabotage? = nil) async throws -> (
        results: [StepResult], failure: (index: Int, violation: Violation)?
    ) {
        try await withRunner(on: engine, sabotage: sabotage) { runner in
            for (index, step) in steps.enumerated() {
                if let violation = try await runner.run(step) { return (runner.results, (index, violation)) }
            }
            return (runner.results, nil)
        }
    }

    /// `body` with a runner on a new bank, whose database is let go of afterwards, however `body` ends.
    private static func withRunner<T>(on engine: SimulationEngine, sabotage: Sabotage?, _ body: (Runner) async throws -> T)
        async throws -> T
    {
        let runner = try await Runner.make(on: engine, sabotage: sabotage)
        do {
            let value = try await body(runner)
            await runner.close()
            return value
        } catch {
            await runner.close()
            throw error
        }
    }

    /// The shortest trace found that still breaks the same invariant: the steps after the failing one
    /// go, then chunks of steps and single steps are removed while the failure remains (delta
    /// debugging), then the faults that do not matter. At most `budget` replays.
    public static func shorten(
        _ steps: [Step], failing check: String, on engine: SimulationEngine = .sqlite, sabotage: Sabotage? = nil, budget: Int = 1_500
    ) async throws -> [Step] {
        var replays = 0
        func fails(_ candidate: [Step]) async throws -> Int? {
            replays += 1
            guard let failure = try await replay(candidate, on: engine, sabotage: sabotage).failure, failure.violation.check == check else {
                return nil
            }
            return failure.index
        }
        guard let end = try await fails(steps) else { return steps }
        var current = Array(steps[...end])
        var chunks = 2
        while current.count >= 2, replays < budget {
            let size = (current.count + chunks - 1) / chunks
            var reduced = false
            var start = 0
            while start < current.count, replays < budget {
                var candidate = current
                candidate.removeSubrange(start..<min(start + size, current.count))
                if let index = try await fails(candidate) {
                    current = Array(candidate[...index])
                    reduced = true
                } else {
                    start += size
                }
            }
            if reduced {
                chunks = max(chunks - 1, 2)
            } else if size == 1 {
                break
            } else {
                chunks = min(chunks * 2, current.count)
            }
        }
        // Lines of a batch that do not matter.
        var index = 0
        while index < current.count, replays < budget {
            if case .batch(let lines) = current[index].action, lines.count > 1 {
                var kept = lines
                var line = 0
                while line < kept.count, kept.count > 1, replays < budget {
                    var fewer = kept
                    fewer.remove(at: line)
                    var candidate = current
                    candidate[index] = Step(user: current[index].user, action: .batch(fewer), fault: current[index].fault)
                    if let end = try await fails(candidate), end >= index {
                        kept = fewer
                        current = Array(candidate[...end])
                    } else {
                        line += 1
                    }
                }
            }
            index += 1
        }
        for index in current.indices where current[index].fault != .none && replays < budget {
            var candidate = current
            candidate[index] = Step(user: current[index].user, action: current[index].action)
            if let end = try await fails(candidate) { current = Array(candidate[...end]) }
        }
        return current
    }
}

/// The random workload of one seed. Each step is drawn from the seed and from what the bank holds so
/// far (the model), so most steps are meaningful — transfers between existing accounts, amounts near
/// balances and limits, replays of keys really used — and some are deliberately wrong.
struct Workload {
    private var random: SeededGenerator
    private var nextLabel = 1
    private var nextKey = 1
    /// Transfers each user sent with a key, to replay or to reuse the key for another request.
    private var keyed: [Int: [BatchLine]] = [:]

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    mutating func next(_ model: Model) -> Step {
        let user = Int.random(in: 1...Simulation.users, using: &random)
        let action = nextAction(for: user, model)
        return Step(user: user, action: action, fault: nextFault(for: action))
    }

    private mutating func nextAction(for index: Int, _ model: Model) -> Action {
        let user = model.userID(index)
        let own = model.labels(ownedBy: user)
        let roll = Int.random(in: 0..<100, using: &random)
        if own.isEmpty || (roll < 10 && nextLabel <= 24) {
            let label = nextLabel
            nextLabel += 1
            let currency: Currency = random.chance(60) ? .krw : (random.chance(75) ? .usd : .jpy)
            return .open(label: label, kind: AccountKind.allCases.randomElement(using: &random) ?? .checking, currency: currency)
        }
        switch roll {
        case ..<14:
            return .advanceClock(minutes: [1, 5, 60, 240, 720, 1_440].randomElement(using: &random) ?? 60)
        case ..<32:
            let label = pickAccount(own, model)
            return .deposit(account: label, amount: depositAmount(model.accounts[label]))
        case ..<40:
            let label = pickAccount(own, model)
            return .withdraw(account: label, amount: transferAmount(model.accounts[label]))
        case ..<70:
            return .send(nextLine(from: own, of: index, model))
        case ..<78:
            let lines = (0..<Int.random(in: 2...5, using: &random)).map { _ in nextLine(from: own, of: index, model) }
            return .batch(lines)
        case ..<83:
            let empty = own.filter { model.accounts[$0]?.balance == 0 && model.accounts[$0]?.closed == false }
            return .close(account: (random.chance(70) ? empty.randomElement(using: &random) : nil) ?? pickAccount(own, model))
        case ..<85:
            return .deleteUser
        case ..<89:
            let name = random.chance(50) ? "transfer.per-transfer-limit" : "transfer.daily-limit"
            let values = ["1,000,000", "3000000", "5000000", "10000000", "20000000", "0", "abc", "-5"]
            return .setLimit(name: name, value: values.randomElement(using: &random) ?? "5000000")
        default:
            // Send again what was sent with a key: a replay (the same request) or a reuse of the key.
            if var line = keyed[index]?.randomElement(using: &random) {
                if random.chance(25) { line = BatchLine(from: line.from, to: line.to, amount: line.amount + "1", key: line.key) }
                return .send(line)
            }
            return .send(nextLine(from: own, of: index, model))
        }
    }

    private mutating func nextLine(from own: [Int], of index: Int, _ model: Model) -> BatchLine {
        let from = random.chance(90) ? (own.randomElement(using: &random) ?? 1) : anyLabel()
        // Mostly an open account in the source's currency (someone else's or the user's own).
        let currency = model.accounts[from]?.currency
        let candidates = model.accounts.values.filter { $0.currency == currency && !$0.closed && $0.label != from }.map(\.label).sorted()
        var to = random.chance(75) ? (candidates.randomElement(using: &random) ?? anyLabel()) : anyLabel()
        if to == from, random.chance(80) { to = anyLabel() }
        let key: String?
        if random.chance(40) {
            key = "k\(nextKey)"
            nextKey += 1
        } else {
            key = nil
        }
        let line = BatchLine(from: from, to: to, amount: transferAmount(model.accounts[from]), key: key)
        if key != nil { keyed[index, default: []].append(line) }
        return line
    }

    private mutating func pickAccount(_ own: [Int], _ model: Model) -> Int {
        random.chance(90) ? (own.randomElement(using: &random) ?? anyLabel()) : anyLabel()
    }

    /// Any label handed out so far, or the next one (not opened yet: no account has its number).
    private mutating func anyLabel() -> Int {
        Int.random(in: 1...nextLabel, using: &random)
    }

    private mutating func depositAmount(_ account: Model.Account?) -> String {
        let currency = account?.currency ?? .krw
        switch Int.random(in: 0..<100, using: &random) {
        case ..<45: return text(Int64.random(in: 1...300_000, using: &random) * unit(currency) / 100, currency)
        case ..<80: return text(Int64.random(in: 100...3_000_000, using: &random) * unit(currency), currency)
        case ..<88: return text(Int64.random(in: 1...AmountBounds.maximumOperationMinorUnits, using: &random), currency)
        case ..<93: return text(AmountBounds.maximumOperationMinorUnits + Int64.random(in: 1...1_000, using: &random), currency)
        default: return invalidAmount()
        }
    }

    private mutating func transferAmount(_ account: Model.Account?) -> String {
        let currency = account?.currency ?? .krw
        let balance = account?.balance ?? 0
        let perTransfer = TransferLimits.defaultLimits[currency]?.perTransfer.minorUnits ?? 5_000_000
        switch Int.random(in: 0..<100, using: &random) {
        case ..<45: return text(Int64.random(in: 1...max(1, balance / 2), using: &random), currency)
        case ..<60: return text(max(1, balance), currency)
        case ..<70: return text(balance + Int64.random(in: 1...1_000, using: &random), currency)
        case ..<80: return text(perTransfer + Int64.random(in: -3...3, using: &random), currency)
        case ..<92: return text(Int64.random(in: 1...10_000, using: &random) * unit(currency), currency)
        case ..<95: return text(AmountBounds.maximumOperationMinorUnits + 1, currency)
        default: return invalidAmount()
        }
    }

    private mutating func invalidAmount() -> String {
        ["0", "-5", "1e3", "abc", "", "12.345", "NaN", "5,000원", "1,0,0"].randomElement(using: &random) ?? "0"
    }

    /// A fault for one step in eight: the database aborting one of its first writes, or — for a transfer,
    /// whose unit of work spans Account, Transfer and Inbox — the unit of work throwing midway.
    private mutating func nextFault(for action: Action) -> Fault {
        guard random.chance(12) else { return .none }
        let transfers: Bool
        switch action {
        case .send, .batch: transfers = true
        default: transfers = false
        }
        switch Int.random(in: 0..<(transfers ? 5 : 2), using: &random) {
        case 0, 1: return .abortWrite(Int.random(in: 1...6, using: &random))
        case 2: return .throwAfterPosting
        case 3: return .throwOnRecord
        default: return .throwOnNotice
        }
    }

    /// One unit of `currency` in minor units (100 for USD, 1 for KRW).
    private func unit(_ currency: Currency) -> Int64 {
        var unit: Int64 = 1
        for _ in 0..<currency.minorUnitDigits { unit *= 10 }
        return unit
    }

    /// `1234567` as `1,234,567`.
    private func grouped(_ value: Int64) -> String {
        var digits = String(value)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(Substring(digits.suffix(3)), at: 0)
            digits = String(digits.dropLast(3))
        }
        return ([Substring(digits)] + groups).joined(separator: ",")
    }

    /// `minor` as a person types it: `12.50` in USD, `1,500` or `1500` in KRW.
    private mutating func text(_ minor: Int64, _ currency: Currency) -> String {
        let scale = unit(currency)
        let whole = minor / scale
        var text = random.chance(30) ? grouped(whole) : String(whole)
        if currency.minorUnitDigits > 0 {
            let fraction = String(minor % scale)
            text += "." + String(repeating: "0", count: currency.minorUnitDigits - fraction.count) + fraction
        }
        return text
    }
}
