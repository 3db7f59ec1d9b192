import AccountData
import AccountDomain
import AccountFeature
import AccountInterface
import AuthInterface
import AuthTesting
import Foundation
import GRDB
import Money
import Persistence
import Registry
import SharedKit
import Storage
import Testing
import TransferInterface
import TransferTesting

extension AccountHarness {
    /// Account's `UserDataOwner` as the App composes it (Data + Feature modules).
    func userData() throws -> any UserDataOwner {
        try RegistryBuilder(modules: Self.modules(database: database, clock: clock, session: session))
            .validate(root: AccountUserDataKey.self).resolve()
    }

    func directory() throws -> any AccountDirectory {
        try RegistryBuilder(modules: [AccountDataModule(), ModuleOf.core(database: database)])
            .validate(root: AccountDirectoryKey.self).resolve()
    }

    func blockers(for user: UserID) async throws -> [String] {
        let owner = try userData()
        return try await database.perform { try owner.deletionBlockers(for: user, in: $0) }
    }

    func erase(_ user: UserID) async throws {
        let owner = try userData()
        try await database.perform { try owner.erase(user, in: $0) }
    }
}

@Suite("Account's share in deleting a user")
struct AccountUserDataTests {
    /// Ada: "Everyday" (checking) with money, "Rainy day" (savings) with money, "Empty" with none,
    /// "Old" closed. Bo: one account that received a transfer from Ada's "Everyday".
    private struct World {
        let harness: AccountHarness
        let everyday: AccountSummary, rainy: AccountSummary, empty: AccountSummary, old: AccountSummary
        let bos: AccountSummary

        init() async throws {
            harness = try AccountHarness(digits: ["00000001", "00000002", "00000003", "00000004", "00000005"])
            let service = harness.service
            everyday = try await service.open(kind: .checking, name: "Everyday")
            rainy = try await service.open(kind: .savings, name: "Rainy day")
            empty = try await service.open(kind: .checking, name: "Empty")
            old = try await service.open(kind: .checking, name: "Old")
            _ = try await service.close(old.number.description)
            _ = try await service.deposit("100,000", to: everyday.number.description, memo: "Salary")
            _ = try await service.deposit("50,000", to: rainy.number.description, memo: "Savings plan")
            harness.session.set(AccountHarness.bo)
            bos = try await service.open(kind: .checking, name: "Bo's")
            harness.session.set(FakeSessionProvider.ada)
            let posting = try harness.posting()
            let request = PostingRequest(
                from: everyday.number, to: bos.number, amount: Money(minorUnits: 30_000, currency: .krw),
                memo: "rent", reference: "transfer-1", initiatedBy: FakeSessionProvider.ada.id, at: harness.clock.now())
            _ = try await harness.database.perform { try posting.post(request, in: $0) }
        }

        /// Ada empties her accounts, as `moa auth delete` asks her to.
        func emptyAdasAccounts() async throws {
            _ = try await harness.service.withdraw("70,000", from: everyday.number.description, memo: "Cash out")
            _ = try await harness.service.withdraw("50,000", from: rainy.number.description, memo: nil)
        }
    }

    @Test func everyOpenAccountThatHoldsMoneyIsABlockerNamedInASentence() async throws {
        let world = try await World()
        let blockers = try await world.harness.blockers(for: FakeSessionProvider.ada.id)
        #expect(
            blockers == [
                "Account \(world.everyday.number) (Everyday) holds 70,000 KRW.",
                "Account \(world.rainy.number) (Rainy day) holds 50,000 KRW.",
            ])
        #expect(try await world.harness.blockers(for: AccountHarness.bo.id) == ["Account \(world.bos.number) (Bo's) holds 30,000 KRW."])
        try await world.emptyAdasAccounts()
        #expect(try await world.harness.blockers(for: FakeSessionProvider.ada.id).isEmpty)
        #expect(try await world.harness.blockers(for: "user-nobody").isEmpty)
        #expect(try world.harness.userData().name == "Account")
    }

    @Test func eraseClosesAndAnonymisesButKeepsTheLedgerAndTheCounterpartysHistory() async throws {
        let world = try await World()
        let harness = world.harness
        try await world.emptyAdasAccounts()
        harness.session.set(AccountHarness.bo)
        let bosHistoryBefore = try await harness.service.history(of: world.bos.number.description).entries
        harness.session.set(FakeSessionProvider.ada)
        let entriesBefore = try harness.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM account_entries") }

        harness.clock.advance(by: 3600)
        try await harness.erase(FakeSessionProvider.ada.id)

        // The ledger is whole and balanced.
        #expect(try await harness.audit().isEmpty)
        #expect(try harness.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM account_entries") } == entriesBefore)
        // Bo's side is exactly as it was: balance, the transfer from Ada's former account, its memo.
        harness.session.set(AccountHarness.bo)
        #expect(try await harness.service.show(world.bos.number.description).balance == Money(minorUnits: 30_000, currency: .krw))
        let bosHistory = try await harness.service.history(of: world.bos.number.description).entries
        #expect(bosHistory == bosHistoryBefore)
        #expect(bosHistory.first?.counterparty == world.everyday.number)
        #expect(bosHistory.first?.memo == "rent")
        #expect(try await harness.service.list().map(\.number) == [world.bos.number]) // none of Ada's became Bo's

        // Nothing is Ada's any more, and nothing names her.
        harness.session.set(FakeSessionProvider.ada)
        #expect(try await harness.service.list().isEmpty)
        await #expect(throws: AccountError.notFound(world.everyday.number.description)) {
            try await harness.service.show(world.everyday.number.description)
        }
        let directory = try harness.directory()
        #expect(try await directory.accounts(of: FakeSessionProvider.ada.id).isEmpty)
        for account in [world.everyday, world.rainy, world.empty, world.old] {
            let erased = try #require(try await directory.account(number: account.number))
            #expect(erased.ownerID == AccountUserData.erasedOwner)
            #expect(erased.name == AccountUserData.erasedName)
            #expect(erased.isClosed)
            #expect(erased.balance.isZero)
        }
        let adasMemos = try harness.database.read { db in
            try String.fetchAll(db, sql: "SELECT memo FROM account_entries WHERE memo IN ('Salary', 'Savings plan', 'Cash out')")
        }
        #expect(adasMemos.isEmpty)
        #expect(
            try harness.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM account_accounts WHERE owner_id = 'user-ada'") }
                == 0)
    }

    @Test func anErasedAccountTakesNoMoreMoney() async throws {
        let world = try await World()
        let harness = world.harness
        try await world.emptyAdasAccounts()
        try await harness.erase(FakeSessionProvider.ada.id)
        let posting = try harness.posting()
        let request = PostingRequest(
            from: world.bos.number, to: world.everyday.number, amount: Money(minorUnits: 1_000, currency: .krw),
            memo: nil, reference: "transfer-2", initiatedBy: AccountHarness.bo.id, at: harness.clock.now())
        await #expect(throws: PostingError.closedAccount(world.everyday.number)) {
            try await harness.database.perform { try posting.post(request, in: $0) }
        }
    }

    @Test func eraseRefusesToCloseAnAccountThatHoldsMoneyAndChangesNothing() async throws {
        let world = try await World()
        let harness = world.harness
        await #expect(throws: AccountError.closeWithBalance(world.everyday.number, balance: Money(minorUnits: 70_000, currency: .krw))) {
            try await harness.erase(FakeSessionProvider.ada.id)
        }
        #expect(try await harness.service.list().map(\.name) == ["Everyday", "Empty", "Rainy day", "Old"])
        #expect(try await harness.service.history(of: world.everyday.number.description).entries.contains { $0.memo == "Salary" })
    }

    @Test func anEraseThatRollsBackLeavesTheAccountsTheUsers() async throws {
        struct AnotherFeatureFailed: Error {}
        let world = try await World()
        let harness = world.harness
        try await world.emptyAdasAccounts()
        let owner = try harness.userData()
        await #expect(throws: AnotherFeatureFailed.self) {
            try await harness.database.perform { transaction in
                try owner.erase(FakeSessionProvider.ada.id, in: transaction)
                throw AnotherFeatureFailed()
            }
        }
        #expect(try await harness.service.list().map(\.name) == ["Everyday", "Empty", "Rainy day", "Old"])
    }
}
