import Foundation
import Money
import SettingsDomain
import SettingsInterface
import SharedKit
import Testing

@Suite("Settings: validation")
struct SettingsValidationTests {
    /// (key, typed, stored text, shown text)
    @Test(arguments: [
        (SettingKey.displayLanguage, "ko", "ko", "ko"),
        (.displayLanguage, " EN ", "en", "en"),
        (.displayColor, "always", "always", "always"),
        (.displayColor, "Never", "never", "never"),
        (.displayColor, "auto", "auto", "auto"),
        (.displayPageSize, "1", "1", "1"),
        (.displayPageSize, "200", "200", "200"),
        (.displayPageSize, "050", "50", "50"),
        (.accountDefault, "110-234-567890", "110-234-567890", "110-234-567890"),
        (.accountDefault, "12345678", "12345678", "12345678"),
        (.accountDefault, "12345678901234567890", "12345678901234567890", "12345678901234567890"),
        (.transferPerTransferLimit, "5,000,000", "5000000", "5,000,000 KRW"),
        (.transferPerTransferLimit, "5000000", "5000000", "5,000,000 KRW"),
        (.transferPerTransferLimit, "5,000,000 KRW", "5000000", "5,000,000 KRW"),
        (.transferDailyLimit, "20,000,000 krw", "20000000", "20,000,000 KRW"),
        (.transferDailyLimit, "1", "1", "1 KRW"),
        (.notificationsLargeTransfer, "1,000,000", "1000000", "1,000,000 KRW"),
        (.notificationsLargeTransfer, " 250000 krw ", "250000", "250,000 KRW"),
        (.searchAPIBaseURL, "https://api.github.com", "https://api.github.com", "https://api.github.com"),
        (.searchAPIBaseURL, "http://127.0.0.1:8080/api/v3/", "http://127.0.0.1:8080/api/v3", "http://127.0.0.1:8080/api/v3"),
        (.searchAPIToken, "ghp_abcdefghijklmnopqrstuvwxyz1234", "ghp_abcdefghijklmnopqrstuvwxyz1234", "***1234"),
        (.searchAPIToken, "short", "short", "***"),
    ])
    func goodValuesAreStoredCanonically(key: SettingKey, typed: String, stored: String, shown: String) throws {
        let value = try key.parse(typed)
        #expect(value.storageText == stored)
        #expect(value.displayText == shown)
        #expect(try key.parse(value.storageText) == value, "the stored text parses back to the same value")
    }

    @Test(arguments: [
        (SettingKey.displayLanguage, "fr"), (.displayLanguage, ""), (.displayLanguage, "korean"),
        (.displayColor, "blue"), (.displayColor, "yes"), (.displayColor, ""),
        (.displayPageSize, "0"), (.displayPageSize, "201"), (.displayPageSize, "500"), (.displayPageSize, "-5"),
        (.displayPageSize, "+5"), (.displayPageSize, "2.5"), (.displayPageSize, "ten"), (.displayPageSize, "99999999999999999999"),
        (.accountDefault, "1234567"), (.accountDefault, "123456789012345678901"), (.accountDefault, "1234-abcd-5678"),
        (.accountDefault, "-12345678"), (.accountDefault, "12345678-"), (.accountDefault, "1234--5678"), (.accountDefault, "１２３４５６７８"),
        (.transferPerTransferLimit, "0"), (.transferPerTransferLimit, "-1,000"), (.transferPerTransferLimit, "5,000 USD"),
        (.transferPerTransferLimit, "5000.5"), (.transferPerTransferLimit, "five"), (.transferPerTransferLimit, "50,00"),
        (.transferDailyLimit, ""), (.transferDailyLimit, "1e7"), (.transferDailyLimit, "99999999999999999999"),
        (.notificationsLargeTransfer, "0"), (.notificationsLargeTransfer, "-1"), (.notificationsLargeTransfer, "1,000 USD"),
        (.notificationsLargeTransfer, "lots"), (.notificationsLargeTransfer, ""),
        (.searchAPIBaseURL, "ftp://example.com"), (.searchAPIBaseURL, "api.github.com"), (.searchAPIBaseURL, "https://"),
        (.searchAPIBaseURL, "https://user:pw@example.com"), (.searchAPIBaseURL, "https://exa mple.com"),
        (.searchAPIBaseURL, "https://example.com/?q=1"),
        (.searchAPIToken, ""), (.searchAPIToken, "two words"), (.searchAPIToken, String(repeating: "x", count: 513)),
        (.searchAPIToken, "tab\there"),
    ])
    func badValuesAreRefusedNamingKeyValueAndWhatIsAllowed(key: SettingKey, typed: String) async throws {
        #expect(throws: SettingValueRejected.self) { try key.parse(typed) }
        let manager = makeManager()
        await #expect {
            _ = try await manager.set(key.name, to: typed)
        } throws: { error in
            guard let error = error as? SettingsError, case .invalidValue(key, typed, .argument) = error else { return false }
            let message = error.message
            return error.exitStatus == .dataError && message.hasPrefix(key.name + " must be " + key.allowed.en)
                && (key.isSecret ? !message.contains(typed) || typed.isEmpty : message.contains("“\(SettingsError.echo(typed))”"))
                && !error.localizedMessage.ko.isEmpty
        }
        #expect(try await manager.storedCount().count == 0, "nothing was stored")
    }

    @Test func thePageSizeMessageReadsAsDocumented() {
        let error = SettingsError.invalidValue(.displayPageSize, value: "500", origin: .argument)
        #expect(error.message == "display.page-size must be a whole number from 1 to 200, not “500”.")
        #expect(error.localizedMessage.ko == "display.page-size에는 1부터 200까지의 정수만 쓸 수 있습니다(입력값: “500”).")
        #expect(error.message(in: .ko) == error.localizedMessage.ko)
    }

    @Test func aRefusedSecretIsNeverRepeated() {
        let error = SettingsError.invalidValue(.searchAPIToken, value: "my secret token", origin: .argument)
        #expect(!error.message.contains("my secret"))
        #expect(!error.localizedMessage.ko.contains("my secret"))
        let fromEnvironment = SettingsError.invalidValue(
            .searchAPIToken, value: "my secret token", origin: .environment(variable: "MOA_SEARCH_API_TOKEN"))
        #expect(!fromEnvironment.message.contains("my secret"))
        #expect(fromEnvironment.message.contains("MOA_SEARCH_API_TOKEN"))
    }

    @Test(arguments: [
        ("display.langauge", SettingKey.displayLanguage),
        ("display.colour", .displayColor),
        ("display.pagesize", .displayPageSize),
        ("page-size", .displayPageSize),
        ("language", .displayLanguage),
        ("transfer.daily-limt", .transferDailyLimit),
        ("search.api-tokn", .searchAPIToken),
        ("acount.default", .accountDefault),
        ("notifications.large-transfr", .notificationsLargeTransfer),
    ])
    func anUnknownKeySuggestsTheClosestKnownOne(typed: String, expected: SettingKey) async {
        await #expect(throws: SettingsError.unknownKey(typed, suggestion: expected)) {
            _ = try await makeManager().set(typed, to: "x")
        }
    }

    @Test func theUnknownKeyMessageAndExitStatus() {
        let error = SettingsError.unknownKey("display.langauge", suggestion: .displayLanguage)
        #expect(error.message == "Unknown setting “display.langauge”. Did you mean display.language?")
        #expect(error.exitStatus == .usage)
        #expect(error.localizedMessage.ko.contains("display.language"))
    }

    @Test func somethingFarFromEveryKeySuggestsNothing() throws {
        #expect(throws: SettingsError.unknownKey("completely.unrelated", suggestion: nil)) { try SettingKey.named("completely.unrelated") }
        #expect(try SettingKey.named(" Display.Language ") == .displayLanguage)
    }

    @Test func editDistanceCountsASwapOnce() async {
        // Through the public path: one swap away is always suggested.
        await #expect(throws: SettingsError.unknownKey("dipslay.color", suggestion: .displayColor)) {
            _ = try await makeManager().entry(named: "dipslay.color")
        }
    }

    @Test func setWithoutAValueIsAUsageError() async {
        await #expect(throws: SettingsError.missingValue(.displayPageSize)) {
            _ = try await makeManager().set("display.page-size", to: nil)
        }
        #expect(SettingsError.missingValue(.displayPageSize).exitStatus == .usage)
    }

    @Test func environmentVariableNamesFollowTheRule() {
        #expect(SettingKey.displayPageSize.environmentVariable == "MOA_DISPLAY_PAGE_SIZE")
        #expect(SettingKey.searchAPIToken.environmentVariable == "MOA_SEARCH_API_TOKEN")
        #expect(SettingKey.transferPerTransferLimit.environmentVariable == "MOA_TRANSFER_PER_TRANSFER_LIMIT")
        #expect(SettingKey.accountDefault.environmentVariable == "MOA_ACCOUNT_DEFAULT")
    }

    @Test func theDefaultsAreTheDocumentedOnes() {
        let defaults = SettingsSnapshot.defaults
        #expect(defaults.language == .en && defaults.color == .auto && defaults.pageSize == 20 && defaults.defaultAccount == nil)
        #expect(
            defaults.transferLimits
                == TransferLimits(
                    perTransfer: Money(minorUnits: 5_000_000, currency: .krw),
                    daily: Money(minorUnits: 10_000_000, currency: .krw)))
        #expect(defaults.searchAPI.baseURL.absoluteString == "https://api.github.com")
        #expect(defaults.searchAPI.token == nil)
        #expect(defaults.largeTransferThreshold == Money(minorUnits: 1_000_000, currency: .krw))
        #expect(SettingKey.notificationsLargeTransfer.defaultValue == .money(Money(minorUnits: 1_000_000, currency: .krw)))
        #expect(SettingKey.notificationsLargeTransfer.environmentVariable == "MOA_NOTIFICATIONS_LARGE_TRANSFER")
    }

    @Test func theLargeTransferThresholdIsIndependentOfTheLimits() async throws {
        let manager = makeManager()
        // Above both limits is fine: it only decides when a notice is left, it refuses nothing.
        _ = try await manager.set("notifications.large-transfer", to: "20,000,000")
        _ = try await manager.set("notifications.large-transfer", to: "1")
        #expect(try await manager.snapshot().largeTransferThreshold == Money(minorUnits: 1, currency: .krw))
        #expect(try await manager.snapshot().transferLimits == SettingsSnapshot.defaults.transferLimits)
    }

    @Test func theSearchSettingsNeverPrintTheirToken() {
        let settings = SearchAPISettings(baseURL: SettingsSnapshot.defaultSearchBaseURL, token: "ghp_secret_value_1234")
        #expect(!"\(settings)".contains("ghp_secret"))
        #expect(!String(reflecting: settings).contains("ghp_secret"))
    }
}
