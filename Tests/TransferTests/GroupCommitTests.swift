import AccountInterface
import AccountTesting
import AuthInterface
import AuthTesting
import Foundation
import Money
import Persistence
import SharedKit
import Testing
import TransferDomain
import TransferInterface

/// A unit of work without a database that holds its first two transactions a moment (so that both of
/// a process's group writers are busy and the sends launched meanwhile queue up behind them, into one
/// group) and counts transactions and the keys each serialized on.
final class HoldingUnitOfWork: UnitOfWork {
    private let state = Locked<(transactions: Int, keys: [[String]])>((0, []))

    var transactions: Int { state.withLock { $0.transactions } }
    var keys: [[String]] { state.withLock { $0.keys } }

    func perform<T: Sendable>(_ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        try await perform(serializingOn: [], work)
    }

    func perform<T: Sendable>(serializingOn keys: [String], _ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        let first = state.withLock { state in
            state.transactions += 1
            state.keys.append(keys.sorted())
            return state.transactions <= 2
        }
        if first { try await Task.sleep(for: .milliseconds(200)) }
        return try await NoDatabaseUnitOfWork().perform(work)
    }
}

/// A unit of work without a database that holds every transaction a moment, and records which were
/// written at the same time.
final class OverlapRecordingUnitOfWork: UnitOfWork {
    private let state = Locked<(inFlight: Int, most: Int, transactions: Int)>((0, 0, 0))

    /// The most transactions in flight at once, and how many ran.
    var most: Int { state.withLock { $0.most } }
    var transactions: Int { state.withLock { $0.transactions } }

    func perform<T: Sendable>(_ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        try await perform(serializingOn: [], work)
    }

    func perform<T: Sendable>(serializingOn keys: [String], _ work: @Sendable (any Transaction) throws -> T) async throws -> T {
        state.withLock { state in
            state.inFlight += 1
            state.transactions += 1
            state.most = max(state.most, state.inFlight)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        try await Task.sleep(for: .milliseconds(150))
        return try await NoDatabaseUnitOfWork().perform(work)
    }
}

/// The user of the request in flight, as the server's composition has it: one `SendMoney` for every user.
struct TaskLocalSession: SessionProvider {
    @TaskLocal static var user: AuthenticatedUser?
    func currentUser() async throws -> AuthenticatedUser? { Self.user }
}

/// Group commit (``SendMoney`` through its transfer groups): sends that arrive together are written
/// together, and each is still answered with its own receipt or refusal, as if sent one by one.
@Suite("Transfers that arrive together are written together")
struct GroupCommitTests {
    /// `count` sends at once through one `SendMoney`; their outcomes, in the order launched.
    func together(
        _ h: Harness, _ unitOfWork: HoldingUnitOfWork, _ count: Int, _ draft: @escaping @Sendable (Int) -> TransferDraft
    ) async -> [Result<TransferReceipt, any Error>] {
        let sendMoney = h.sendMoney(unitOfWork: unitOfWork)
        return await withTaskGroup(of: (Int, Result<TransferReceipt, any Error>).self) { group in
            for n in 0..<count {
                group.addTask {
                    do { return (n, .success(try await sendMoney.send(draft(n)))) } catch { return (n, .failure(error)) }
                }
            }
            var outcomes: [(Int, Result<TransferReceipt, any Error>)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// `drafts` sent at once, each as its user, through one `SendMoney` on `unitOfWork`; their outcomes.
    func sentAtOnce(
        _ h: Harness, _ unitOfWork: some UnitOfWork, _ drafts: [(AuthenticatedUser, TransferDraft)]
    ) async -> [Result<TransferReceipt, any Error>] {
        let sendMoney = h.sendMoney(unitOfWork: unitOfWork, session: TaskLocalSession())
        return await withTaskGroup(of: (Int, Result<TransferReceipt, any Error>).self) { group in
            for (n, (user, draft)) in drafts.enumerated() {
                group.addTask {
                    await TaskLocalSession.$user.withValue(user) {
                        do { return (n, .success(try await sendMoney.send(draft))) } catch { return (n, .failure(error)) }
                    }
                }
            }
            var outcomes: [(Int, Result<TransferReceipt, any Error>)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Two groups are written at once only when they share no sender and no account: one that
    /// shares either would only wait for the other's locks while holding its own, so its transfers
    /// wait in the queue and go with the next group instead. Found by measuring: on 16 hot accounts,
    /// two groups at a time queued on each other's locks, and one at a time sent more per second.
    @Test func groupsSharingASenderOrAnAccountAreNeverWrittenAtOnce() async throws {
        let h = try Harness()
        let bobsOther = try AccountNumber(prefix: "11000000008")
        try h.accounts.add(owner: Harness.bob.id, number: bobsOther.digits, balance: krw(0), name: "Bob 2")
        let ada = FakeSessionProvider.ada
        func draft(_ from: AccountNumber, _ to: AccountNumber, _ key: String) -> TransferDraft {
            TransferDraft(from: from.description, to: to.description, amount: "1,000", memo: nil, idempotencyKey: key)
        }

        // Twelve of one sender at once: one group at a time (the first alone, the others together).
        let hot = OverlapRecordingUnitOfWork()
        let hotOutcomes = await sentAtOnce(h, hot, (0..<12).map { (ada, draft(h.checking, h.bobs, "hot-\($0)")) })
        #expect(hotOutcomes.allSatisfy { (try? $0.get()) != nil })
        #expect(hot.most == 1, "\(hot.most) groups of one sender written at once")
        #expect(hot.transactions < 12, "nothing was grouped")

        // Two senders, four accounts: written side by side.
        let apart = OverlapRecordingUnitOfWork()
        let apartOutcomes = await sentAtOnce(
            h, apart, [(ada, draft(h.checking, h.savings, "apart-ada")), (Harness.bob, draft(h.bobs, bobsOther, "apart-bob"))])
        #expect(apartOutcomes.allSatisfy { (try? $0.get()) != nil })
        #expect(apart.most == 2)

        // Two senders, one account in common: one after the other.
        let shared = OverlapRecordingUnitOfWork()
        let sharedOutcomes = await sentAtOnce(
            h, shared, [(ada, draft(h.checking, h.savings, "shared-ada")), (Harness.bob, draft(h.bobs, h.savings, "shared-bob"))])
        #expect(sharedOutcomes.allSatisfy { (try? $0.get()) != nil })
        #expect(shared.most == 1 && shared.transactions == 2)
        #expect(h.accounts.balance(of: h.savings) == krw(3_000), "one from each case that sends there")
    }

    @Test func theDailyLimitHoldsExactlyInsideAGroup() async throws {
        let h = try Harness()
        let unitOfWork = HoldingUnitOfWork()
        // 20 sends of 3,000,000 won at once under the default daily limit of 10,000,000.
        let outcomes = await together(h, unitOfWork, 20) {
            TransferDraft(from: h.checking.description, to: h.bobs.description, amount: "3,000,000", memo: nil, idempotencyKey: "k\($0)")
        }
        let sent = outcomes.compactMap { try? $0.get() }
        #expect(sent.count == 3)
        for case .failure(let error) in outcomes {
            guard case TransferError.dailyLimitExceeded(_, _, let remaining)? = error as? TransferError else {
                Issue.record("refused with \(error), not the daily limit")
                continue
            }
            #expect(remaining == krw(1_000_000))
        }
        #expect(h.accounts.balance(of: h.checking) == krw(41_000_000))
        #expect(h.store.all.count == 3)
        #expect(unitOfWork.transactions < 20, "every send had its own transaction: nothing was grouped")
        // Each transaction serialized on its senders: here, only Ada.
        #expect(unitOfWork.keys.allSatisfy { $0 == ["transfer-sender:\(FakeSessionProvider.ada.id.rawValue)"] })
    }

    @Test func oneKeySentManyTimesAtOnceIsOneTransferAndTheRestReplays() async throws {
        let h = try Harness()
        let unitOfWork = HoldingUnitOfWork()
        let outcomes = await together(h, unitOfWork, 6) { _ in
            TransferDraft(from: h.checking.description, to: h.bobs.description, amount: "70,000", memo: "rent", idempotencyKey: "rent")
        }
        let receipts = try outcomes.map { try $0.get() }
        #expect(receipts.filter { !$0.replayed }.count == 1)
        #expect(Set(receipts.map(\.transfer.id)).count == 1)
        #expect(h.accounts.postings.count == 1)
        #expect(h.accounts.balance(of: h.checking) == krw(49_930_000))
    }

    /// Keys are compared as the databases compare them, byte for byte: "café" in NFC and in NFD are
    /// two keys, two transfers — never one answered with the other's receipt.
    @Test func keysThatLookAlikeButDifferInBytesAreTwoTransfers() async throws {
        let h = try Harness()
        let unitOfWork = HoldingUnitOfWork()
        let keys = ["warm-up", "warm-up-2", "caf\u{E9}", "cafe\u{301}"]
        let outcomes = await together(h, unitOfWork, 4) { n in
            TransferDraft(from: h.checking.description, to: h.bobs.description, amount: "1,000", memo: nil, idempotencyKey: keys[n])
        }
        let receipts = try outcomes.map { try $0.get() }
        #expect(receipts.allSatisfy { !$0.replayed })
        #expect(Set(receipts.map(\.transfer.id)).count == 4)
        #expect(h.accounts.postings.count == 4)
    }

    @Test func eachRefusalIsItsOwnAndTheOthersAreWritten() async throws {
        let h = try Harness(balance: 1_000_000)
        let unitOfWork = HoldingUnitOfWork()
        // 10 sends of 300,000 from 1,000,000: three fit; one names nobody's account.
        let outcomes = await together(h, unitOfWork, 10) { n in
            TransferDraft(
                from: h.checking.description, to: (n == 9 ? h.nobodys : h.bobs).description, amount: "300,000", memo: nil,
                idempotencyKey: "k\(n)")
        }
        let sent = outcomes.compactMap { try? $0.get() }
        #expect(sent.count == 3)
        var insufficient = 0
        for case .failure(let error) in outcomes {
            switch error as? PostingError {
            case .insufficientFunds?: insufficient += 1
            case .unknownAccount(let number)?: #expect(number == h.nobodys)
            default: Issue.record("refused with \(error)")
            }
        }
        #expect(insufficient == 6)
        #expect(h.accounts.balance(of: h.checking) == krw(100_000))
        // The sender's balance after each is the one its own posting left, in the order written.
        #expect(Set(sent.map(\.transfer.fromBalanceAfter)) == [krw(700_000), krw(400_000), krw(100_000)])
    }
}
