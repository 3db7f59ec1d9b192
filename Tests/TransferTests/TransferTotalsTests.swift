import Foundation
import Testing

@testable import TransferDomain

/// The daily limit's sum over a window, written once for both engines: whole quarters of an hour
/// from the per-quarter totals, the uneven edges from the transfers themselves.
@Suite("Transfer · the sum sent over a window")
struct TransferTotalsTests {
    /// 2026-11-26 10:00:00 UTC, on a quarter.
    static let ten = Date(timeIntervalSince1970: 1_795_687_200)

    struct Calls {
        var quarters: [(Int64, Int64)] = []
        var exact: [(Date, Date)] = []
    }

    static func sent(from start: Date, until end: Date) throws -> (total: Int64, calls: Calls) {
        var calls = Calls()
        let total = try TransferTotals.sent(
            from: start, until: end,
            quarters: { first, last in
                calls.quarters.append((first, last))
                return 1_000 * (last - first)
            },
            exact: { from, until in
                calls.exact.append((from, until))
                return Int64(until.timeIntervalSince(from))
            })
        return (total, calls)
    }

    @Test func aWindowWithUnevenEdgesReadsTheWholeQuartersAndBothEdges() throws {
        let (start, end) = (Self.ten.addingTimeInterval(7 * 60), Self.ten.addingTimeInterval(52 * 60))
        let (total, calls) = try Self.sent(from: start, until: end)
        let first = TransferTotals.quarter(containing: Self.ten.addingTimeInterval(15 * 60), roundingUp: false)
        #expect(calls.quarters.map(\.0) == [first] && calls.quarters.map(\.1) == [first + 2])
        #expect(calls.exact.map(\.0) == [start, Self.ten.addingTimeInterval(45 * 60)])
        #expect(calls.exact.map(\.1) == [Self.ten.addingTimeInterval(15 * 60), end])
        #expect(total == 2_000 + 8 * 60 + 7 * 60)
    }

    @Test func aWindowOnQuartersReadsNoTransfer() throws {
        let (total, calls) = try Self.sent(from: Self.ten, until: Self.ten.addingTimeInterval(24 * 3_600))
        #expect(calls.exact.isEmpty)
        #expect(calls.quarters.count == 1 && calls.quarters[0].1 - calls.quarters[0].0 == 96)
        #expect(total == 96_000)
    }

    @Test func aWindowInsideOneQuarterReadsOnlyTheTransfers() throws {
        let (start, end) = (Self.ten.addingTimeInterval(60), Self.ten.addingTimeInterval(14 * 60))
        let (total, calls) = try Self.sent(from: start, until: end)
        #expect(calls.quarters.isEmpty)
        #expect(calls.exact.map(\.0) == [start] && calls.exact.map(\.1) == [end])
        #expect(total == 13 * 60)
    }

    @Test func anEmptyWindowReadsNothing() throws {
        let (total, calls) = try Self.sent(from: Self.ten, until: Self.ten)
        #expect(total == 0 && calls.quarters.isEmpty && calls.exact.isEmpty)
    }
}
