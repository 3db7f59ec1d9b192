import Foundation
import Money
import SettingsDomain
import SettingsInterface
import SharedKit
import Testing

/// Transfer limits for every currency (issue B), and amounts bounded like every amount Moa moves.
@Suite("Settings: limits per currency and their bounds")
struct SettingsCurrencyLimitTests {
    @Test func everySupportedCurrencyHasLimitsByDefaultAndKRWsAreTheSettings() throws {
        let limits = SettingsSnapshot.defaults.transferLimits
        for currency in Currency.supported {
            let own = try #require(limits.limits(in: currency), "\(currency.code) has no limits")
            #expect(own.perTransfer.currency == currency && own.daily.currency == currency)
            #expect(own.perTransfer.isPositive && own.daily.minorUnits == 2 * own.perTransfer.minorUnits)
        }
        #expect(limits.limits(in: .krw) == CurrencyLimits(perTransfer: limits.perTransfer, daily: limits.daily))
        #expect(limits.limits(in: .usd) == CurrencyLimits(perTransfer: usd(3_500_00), daily: usd(7_000_00)))
        #expect(TransferLimits.configurableCurrency == .krw)
    }

    @Test func theSettingsChangeOnlyTheKRWLimits() async throws {
        let manager = makeManager()
        _ = try await manager.set("transfer.daily-limit", to: "30,000,000")
        _ = try await manager.set("transfer.per-transfer-limit", to: "20,000,000")
        let limits = try await manager.snapshot().transferLimits
        #expect(limits.limits(in: .krw) == CurrencyLimits(perTransfer: krw(20_000_000), daily: krw(30_000_000)))
        #expect(limits.limits(in: .usd) == TransferLimits.defaultLimits[.usd])
    }

    @Test func aCurrencyWithoutLimitsHasNone() {
        let limits = TransferLimits(perTransfer: krw(1), daily: krw(1), others: [:])
        #expect(limits.limits(in: .usd) == nil)
        #expect(limits.limits(in: .krw) != nil)
    }

    @Test(arguments: [
        (SettingKey.transferPerTransferLimit, "100,000,000,000", true), (.transferPerTransferLimit, "100,000,000,001", false),
        (.transferDailyLimit, "1,000,000,000,000", true), (.transferDailyLimit, "1,000,000,000,001", false),
        (.notificationsLargeTransfer, "100,000,000,000", true), (.notificationsLargeTransfer, "9,000,000,000,000,000,000", false),
    ])
    func amountSettingsHaveAMaximum(key: SettingKey, typed: String, accepted: Bool) async throws {
        if accepted {
            #expect(throws: Never.self) { try key.parse(typed) }
        } else {
            #expect(throws: SettingValueRejected.self) { try key.parse(typed) }
            let error = SettingsError.invalidValue(key, value: typed, origin: .argument)
            #expect(error.exitStatus == .dataError)
            #expect(error.message.contains("at most"))
        }
    }

    @Test func theNotesSayTheLimitsBindKRW() {
        #expect(SettingKey.transferPerTransferLimit.note?.contains("binds transfers in KRW") == true)
        #expect(SettingKey.transferDailyLimit.note?.contains("binds transfers in KRW") == true)
    }
}

private func krw(_ units: Int64) -> Money { Money(minorUnits: units, currency: .krw) }
private func usd(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }
