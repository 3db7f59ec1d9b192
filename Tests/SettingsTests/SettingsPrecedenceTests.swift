import Foundation
import Money
import SettingsDomain
import SettingsInterface
import SharedKit
import Testing

@Suite("Settings: precedence and limits")
struct SettingsPrecedenceTests {
    private func entry(_ key: SettingKey, _ manager: SettingsManager) async throws -> SettingEntry {
        try await manager.entry(named: key.name).entry
    }

    @Test func flagBeatsEnvironmentBeatsStoredBeatsDefault() async throws {
        let store = MemorySettingsStore()
        let scope = SwitchableScope(.ada)
        let key = SettingKey.displayPageSize
        // default
        #expect(
            try await entry(key, makeManager(store: store, scope: scope)) == SettingEntry(key: key, value: .integer(20), source: .default))
        // device < user
        scope.become(.device)
        _ = try await makeManager(store: store, scope: scope).set(key.name, to: "30")
        scope.become(.ada)
        #expect(
            try await entry(key, makeManager(store: store, scope: scope)) == SettingEntry(key: key, value: .integer(30), source: .device))
        _ = try await makeManager(store: store, scope: scope).set(key.name, to: "40")
        #expect(try await entry(key, makeManager(store: store, scope: scope)) == SettingEntry(key: key, value: .integer(40), source: .user))
        // environment beats stored
        let environment = ["MOA_DISPLAY_PAGE_SIZE": "50"]
        #expect(
            try await entry(key, makeManager(store: store, scope: scope, environment: environment))
                == SettingEntry(key: key, value: .integer(50), source: .environment(variable: "MOA_DISPLAY_PAGE_SIZE")))
        // flag beats environment
        #expect(
            try await entry(key, makeManager(store: store, scope: scope, flags: [key.name: "60"], environment: environment))
                == SettingEntry(key: key, value: .integer(60), source: .flag))
    }

    @Test func resetOneFallsBackToTheDeviceThenTheDefault() async throws {
        let store = MemorySettingsStore()
        let scope = SwitchableScope(.device)
        let manager = makeManager(store: store, scope: scope)
        _ = try await manager.set("display.page-size", to: "30")
        scope.become(.ada)
        _ = try await manager.set("display.page-size", to: "50")
        let reset = try await manager.reset("display.page-size")
        #expect(reset.removed && reset.setting.entry == SettingEntry(key: .displayPageSize, value: .integer(30), source: .device))
        #expect(try await manager.reset("display.page-size").removed == false)
        scope.become(.device)
        let deviceReset = try await manager.reset("display.page-size")
        #expect(deviceReset.setting.entry == SettingEntry(key: .displayPageSize, value: .integer(20), source: .default))
        #expect(try await store.values(in: .device).own.isEmpty)
        #expect(try await store.values(in: .ada).own.isEmpty)
    }

    @Test func resetAllRemovesOnlyTheCurrentScope() async throws {
        let store = MemorySettingsStore()
        let scope = SwitchableScope(.device)
        let manager = makeManager(store: store, scope: scope)
        _ = try await manager.set("display.color", to: "never")
        scope.become(.ada)
        for (key, value) in [
            ("display.page-size", "10"), ("account.default", "110-234-567890"), ("search.api-token", "tok_1234567890abcdef"),
        ] {
            _ = try await manager.set(key, to: value)
        }
        #expect(try await manager.storedCount().count == 3)
        let result = try await manager.resetAll()
        #expect(result.removed == 3 && result.scope == .ada)
        #expect(try await manager.storedCount().count == 0)
        #expect(try await manager.snapshot().color == .never)
        #expect(try await store.values(in: .device).own == ["display.color": "never"])
    }

    @Test func everyLayerIsReportedInTheListAndTheSnapshot() async throws {
        let store = MemorySettingsStore()
        store.put("display.language", "ko", in: .device)
        store.put("transfer.daily-limit", "20000000", in: .ada)
        let manager = makeManager(
            store: store, flags: ["display.color": "never"],
            environment: ["MOA_DISPLAY_PAGE_SIZE": "77", "MOA_NOTIFICATIONS_LARGE_TRANSFER": "2,000,000"])
        let report = try await manager.report()
        let sources = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.key, $0.source.code) })
        #expect(
            sources == [
                .displayLanguage: "device", .displayColor: "flag", .displayPageSize: "env", .accountDefault: "default",
                .transferPerTransferLimit: "default", .transferDailyLimit: "user", .notificationsLargeTransfer: "env",
                .searchAPIBaseURL: "default", .searchAPIToken: "default", .searchOAuthBaseURL: "default",
                .searchOAuthClientID: "default", .archiveAPIKey: "default",
            ])
        let snapshot = try await manager.snapshot()
        #expect(snapshot.language == .ko && snapshot.color == .never && snapshot.pageSize == 77)
        #expect(snapshot.transferLimits.daily == Money(minorUnits: 20_000_000, currency: .krw))
        #expect(snapshot.largeTransferThreshold == Money(minorUnits: 2_000_000, currency: .krw))
        #expect(report.warnings.isEmpty)
    }

    @Test func commandFlagsOfOneCommandJoinTheComposedOnes() async throws {
        let manager = makeManager(flags: ["display.page-size": "5"])
        let report = try await manager.report(flags: SettingsOverrides(["display.color": "never"]))
        #expect(report.snapshot.color == .never && report.snapshot.pageSize == 5)
    }

    @Test func anInvalidEnvironmentValueIsAnErrorNamingTheVariable() async throws {
        let manager = makeManager(environment: ["MOA_DISPLAY_PAGE_SIZE": "lots"])
        await #expect {
            _ = try await manager.snapshot()
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error == .invalidValue(.displayPageSize, value: "lots", origin: .environment(variable: "MOA_DISPLAY_PAGE_SIZE"))
                && error.message.contains("MOA_DISPLAY_PAGE_SIZE") && error.exitStatus == .configuration
        }
        // An empty variable counts as unset.
        #expect(try await makeManager(environment: ["MOA_DISPLAY_PAGE_SIZE": ""]).snapshot().pageSize == 20)
    }

    @Test func anInvalidFlagOrUnknownFlagKeyIsAUsageError() async {
        await #expect(throws: SettingsError.invalidValue(.displayColor, value: "purple", origin: .flag)) {
            _ = try await makeManager(flags: ["display.color": "purple"]).snapshot()
        }
        await #expect(throws: SettingsError.unknownKey("display.colour", suggestion: .displayColor)) {
            _ = try await makeManager(flags: ["display.colour": "never"]).snapshot()
        }
    }

    @Test func anInvalidStoredValueIsIgnoredWithAWarningSoResetStillWorks() async throws {
        let store = MemorySettingsStore()
        store.put("display.page-size", "9000", in: .ada)
        let manager = makeManager(store: store)
        let report = try await manager.report()
        #expect(report.snapshot.pageSize == 20)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.en.contains("moa settings reset display.page-size") == true)
        #expect(try await manager.reset("display.page-size").removed)
        #expect(try await manager.report().warnings.isEmpty)
    }

    // MARK: daily ≥ per-transfer

    @Test func raisingThePerTransferLimitAboveTheDailyOneIsRefusedNamingBoth() async throws {
        let manager = makeManager()
        await #expect {
            _ = try await manager.set("transfer.per-transfer-limit", to: "12,000,000")
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.message
                == "transfer.per-transfer-limit cannot be 12,000,000 KRW: it must not exceed transfer.daily-limit, which is 10,000,000 KRW."
                && error.exitStatus == .dataError && error.hint == "Raise transfer.daily-limit first."
        }
        #expect(try await manager.snapshot().transferLimits == SettingsSnapshot.defaults.transferLimits)
    }

    @Test func loweringTheDailyLimitBelowThePerTransferOneIsRefusedNamingBoth() async throws {
        let manager = makeManager()
        await #expect(
            throws: SettingsError.limitsInverted(
                changed: .transferDailyLimit, perTransfer: Money(minorUnits: 5_000_000, currency: .krw),
                daily: Money(minorUnits: 3_000_000, currency: .krw), byReset: false)
        ) {
            _ = try await manager.set("transfer.daily-limit", to: "3,000,000 KRW")
        }
        // Equal is allowed; then raising per-transfer in the right order works.
        _ = try await manager.set("transfer.daily-limit", to: "5,000,000")
        _ = try await manager.set("transfer.daily-limit", to: "30,000,000")
        _ = try await manager.set("transfer.per-transfer-limit", to: "20,000,000")
        #expect(
            try await manager.snapshot().transferLimits
                == TransferLimits(
                    perTransfer: Money(minorUnits: 20_000_000, currency: .krw), daily: Money(minorUnits: 30_000_000, currency: .krw)))
    }

    @Test func resettingOneSideIsRefusedWhenTheDefaultWouldBreakTheRule() async throws {
        let manager = makeManager()
        _ = try await manager.set("transfer.daily-limit", to: "30,000,000")
        _ = try await manager.set("transfer.per-transfer-limit", to: "20,000,000")
        await #expect {
            _ = try await manager.reset("transfer.daily-limit")
        } throws: { error in
            (error as? SettingsError)?.message
                == "Resetting transfer.daily-limit to 10,000,000 KRW would put it below transfer.per-transfer-limit, which is 20,000,000 KRW."
        }
        #expect(try await manager.snapshot().transferLimits.daily == Money(minorUnits: 30_000_000, currency: .krw))
    }

    @Test func aUsersLimitIsJudgedAgainstTheDevicesOtherLimit() async throws {
        let store = MemorySettingsStore()
        let scope = SwitchableScope(.device)
        _ = try await makeManager(store: store, scope: scope).set("transfer.daily-limit", to: "50,000,000")
        scope.become(.ada)
        // Ada's daily limit falls back to the device's 50,000,000, so 40,000,000 per transfer is fine.
        _ = try await makeManager(store: store, scope: scope).set("transfer.per-transfer-limit", to: "40,000,000")
        #expect(try await makeManager(store: store, scope: scope).snapshot().transferLimits.perTransfer.minorUnits == 40_000_000)
    }

    @Test func limitsBrokenFromOutsideAreHeldToTheDailyLimitWithAWarning() async throws {
        let manager = makeManager(environment: ["MOA_TRANSFER_DAILY_LIMIT": "1,000,000"])
        let report = try await manager.report()
        #expect(
            report.snapshot.transferLimits
                == TransferLimits(
                    perTransfer: Money(minorUnits: 1_000_000, currency: .krw), daily: Money(minorUnits: 1_000_000, currency: .krw)))
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.en.contains("each transfer is held to 1,000,000 KRW") == true)
    }
}
