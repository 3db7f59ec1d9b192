import AccountDomain
import AccountInterface
import Foundation
import Money
import Testing

/// Several postings planned in memory before one write: each sees the balances the ones before it
/// left, so a batch is refused or accepted exactly as if written one by one.
@Suite("Account · the ledger's plan")
struct LedgerPlanTests {
    static let at = Date(timeIntervalSince1970: 1_795_687_200)

    static func account(_ prefix: String, owner: String?, balance: Int64) throws -> LedgerAccount {
        LedgerAccount(
            id: "id-\(prefix)", number: try AccountNumber(prefix: prefix), name: prefix, kind: owner == nil ? "cash" : "checking",
            ownerID: owner, currency: .krw, balance: balance, openedAt: at, isClosed: false)
    }

    static func krw(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .krw) }

    @Test func aSecondMoveFromTheSameAccountSeesTheFirstOnesBalance() throws {
        let a = try Self.account("11000000001", owner: "u1", balance: 150)
        let b = try Self.account("11000000002", owner: "u2", balance: 0)
        let c = try Self.account("11000000003", owner: "u3", balance: 0)
        var plan = LedgerPlan()
        try plan.move(Self.krw(100), from: a, to: b, kinds: (.transferOut, .transferIn), memo: nil, reference: "t1", at: Self.at)
        #expect(throws: PostingError.self) {
            try plan.move(Self.krw(100), from: a, to: c, kinds: (.transferOut, .transferIn), memo: nil, reference: "t2", at: Self.at)
        }
        let (debit, credit) = try plan.move(
            Self.krw(50), from: a, to: c, kinds: (.transferOut, .transferIn), memo: nil, reference: "t3", at: Self.at)
        // Each account is written once, from the balance read to the last one planned.
        #expect(plan.balances.map(\.account.id) == ["id-11000000001", "id-11000000002", "id-11000000003"])
        #expect(plan.balances.map(\.expected) == [150, 0, 0])
        #expect(plan.balances.map(\.after) == [0, 100, 50])
        #expect(plan.current(a).balance == 0)
        // The refused move left nothing: four entries, each with the balance after its own move.
        #expect(plan.entries.map(\.balanceAfter.minorUnits) == [50, 100, 0, 50])
        #expect(plan.entries.map(\.amount.minorUnits) == [-100, 100, -50, 50])
        #expect((debit, credit) == (2, 3))
        #expect(plan.entries[debit].written(id: 7).counterparty == c.number)
    }

    @Test func aCashAccountMayGoBelowZeroAndItsEntryNamesNoCounterparty() throws {
        let cash = try Self.account("00000000001", owner: nil, balance: 0)
        let a = try Self.account("11000000001", owner: "u1", balance: 0)
        var plan = LedgerPlan()
        let (debit, credit) = try plan.move(
            Self.krw(500), from: cash, to: a, kinds: (.withdrawal, .deposit), memo: "in", reference: nil, at: Self.at)
        #expect(plan.balances.map(\.after) == [-500, 500])
        #expect(plan.entries[credit].written(id: 2).counterparty == nil)
        #expect(plan.entries[debit].written(id: 1).counterparty == a.number)
    }
}
