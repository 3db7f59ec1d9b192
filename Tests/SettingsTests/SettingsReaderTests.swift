import Money
import SettingsDomain
import SettingsInterface
import SettingsTesting
import SharedKit
import Testing

@Suite("Settings: reading from other features")
struct SettingsReaderTests {
    @Test func changesEmitANewSnapshotAfterEachSetAndReset() async throws {
        let manager = makeManager()
        let reader: any SettingsReader = manager
        var changes = reader.changes().makeAsyncIterator()
        _ = try await manager.set("display.page-size", to: "33")
        #expect(await changes.next()?.pageSize == 33)
        _ = try await manager.set("transfer.daily-limit", to: "12,000,000")
        #expect(await changes.next()?.transferLimits.daily == Money(minorUnits: 12_000_000, currency: .krw))
        _ = try await manager.set("notifications.large-transfer", to: "3,000,000 KRW")
        #expect(await changes.next()?.largeTransferThreshold == Money(minorUnits: 3_000_000, currency: .krw))
        _ = try await manager.reset("display.page-size")
        #expect(await changes.next()?.pageSize == 20)
        _ = try await manager.resetAll()
        #expect(await changes.next() == SettingsSnapshot.defaults)
    }

    @Test func aRefusedChangeEmitsNothing() async throws {
        let manager = makeManager()
        var changes = manager.changes().makeAsyncIterator()
        _ = try? await manager.set("display.page-size", to: "0")
        _ = try await manager.set("display.page-size", to: "21")
        #expect(await changes.next()?.pageSize == 21, "the first snapshot seen is the valid change")
    }

    @Test func theFakeReaderEmitsWhatTheTestChanges() async throws {
        let fake = FakeSettingsReader()
        #expect(try await fake.snapshot() == .defaults)
        var changes = fake.changes().makeAsyncIterator()
        fake.update { $0.language = .ko }
        #expect(await changes.next()?.language == .ko)
        #expect(fake.current.language == .ko)
        fake.fail(with: TestFailure())
        await #expect(throws: TestFailure.self) { _ = try await fake.snapshot() }
    }

    // MARK: A Transfer-like consumer

    /// What Transfer will do: read the limits through the Interface, never through Settings' internals.
    struct LimitGuard {
        let settings: any SettingsReader

        struct OverLimit: Error, Equatable {
            let amount: Money
            let limit: Money
        }

        func check(_ amount: Money) async throws {
            let limit = try await settings.snapshot().transferLimits.perTransfer
            if try amount.isGreater(than: limit) { throw OverLimit(amount: amount, limit: limit) }
        }
    }

    @Test func aConsumerRefusesAnAmountOverThePerTransferLimit() async throws {
        let settings = FakeSettingsReader()
        let guardrail = LimitGuard(settings: settings)
        try await guardrail.check(Money(minorUnits: 5_000_000, currency: .krw))
        await #expect(
            throws: LimitGuard.OverLimit(
                amount: Money(minorUnits: 5_000_001, currency: .krw),
                limit: Money(minorUnits: 5_000_000, currency: .krw))
        ) {
            try await guardrail.check(Money(minorUnits: 5_000_001, currency: .krw))
        }
        settings.update {
            $0.transferLimits = TransferLimits(
                perTransfer: Money(minorUnits: 1_000, currency: .krw), daily: Money(minorUnits: 2_000, currency: .krw))
        }
        await #expect(throws: LimitGuard.OverLimit.self) { try await guardrail.check(Money(minorUnits: 1_001, currency: .krw)) }
    }

    @Test func theSameConsumerWorksOnTheRealManager() async throws {
        let manager = makeManager()
        _ = try await manager.set("transfer.per-transfer-limit", to: "100,000")
        let guardrail = LimitGuard(settings: manager)
        try await guardrail.check(Money(minorUnits: 100_000, currency: .krw))
        await #expect(throws: LimitGuard.OverLimit.self) { try await guardrail.check(Money(minorUnits: 100_001, currency: .krw)) }
    }
}

struct TestFailure: Error {}
