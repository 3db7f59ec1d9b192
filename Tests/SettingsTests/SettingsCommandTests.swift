import CommandKit
import Foundation
import SettingsDomain
import SettingsFeature
import SettingsInterface
import SharedKit
import Testing

@Suite("Settings: commands")
struct SettingsCommandTests {
    static let token = "ghp_abcdefghijklmnopqrstuvwxyz9876"

    @Test func listShowsEveryKeyWithValueDefaultSourceAndDescription() async throws {
        let manager = makeManager(environment: ["MOA_DISPLAY_PAGE_SIZE": "50"])
        _ = try await manager.set("transfer.daily-limit", to: "20,000,000")
        let run = try await CommandHarness(manager: manager).run(["list"])
        #expect(run.status == 0)
        let lines = run.out.components(separatedBy: "\n")
        #expect(lines.first == "Settings of ada@example.com; what you have not set follows this device, then the defaults.")
        #expect(lines.dropFirst().first?.split(separator: " ").map(String.init) == ["Key", "Value", "Default", "Source", "Description"])
        for key in SettingKey.allCases { #expect(run.out.contains(key.name)) }
        #expect(lines.contains { $0.hasPrefix("display.page-size") && $0.contains("50") && $0.contains(" env ") })
        #expect(
            lines.contains {
                $0.hasPrefix("transfer.daily-limit") && $0.contains("20,000,000 KRW") && $0.contains("10,000,000 KRW")
                    && $0.contains(" user ")
            })
    }

    @Test func theSecretIsMaskedInListAndGet() async throws {
        let manager = makeManager()
        let harness = CommandHarness(manager: manager)
        let set = try await harness.run(["set", "search.api-token", Self.token])
        #expect(set.out == "search.api-token = ***9876 (saved for ada@example.com)\n")
        for arguments in [["list"], ["get", "search.api-token"]] {
            let run = try await harness.run(arguments)
            #expect(run.out.contains("***9876"))
            #expect(!run.out.contains("ghp_"), "\(arguments) leaks the token")
        }
    }

    @Test func theSecretIsNeverInJSONOnlyWhetherItIsSet() async throws {
        let manager = makeManager()
        let harness = CommandHarness(manager: manager)
        let unset = try await harness.run(["get", "search.api-token", "--json"])
        #expect(unset.out.contains(#""value" : {"#) && unset.out.contains(#""set" : false"#))
        _ = try await harness.run(["set", "search.api-token", Self.token])
        for arguments in [["list", "--json"], ["get", "search.api-token", "--json"], ["set", "search.api-token", Self.token, "--json"]] {
            let run = try await harness.run(arguments)
            #expect(run.status == 0)
            #expect(!run.out.contains("ghp_") && !run.out.contains("9876"), "\(arguments) leaks the token")
            #expect(run.out.contains(#""set" : true"#))
        }
    }

    @Test func listJSONIsAnArrayOfStableFields() async throws {
        let run = try await CommandHarness(manager: makeManager()).run(["list", "--json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
        #expect(array.count == SettingKey.allCases.count)
        for object in array { #expect(Set(object.keys) == ["key", "value", "default", "source", "description"]) }
        let byKey = Dictionary(uniqueKeysWithValues: array.map { ($0["key"] as? String ?? "", $0) })
        #expect(byKey["display.page-size"]?["value"] as? Int == 20)
        #expect(byKey["display.language"]?["value"] as? String == "en")
        #expect(byKey["account.default"]?["value"] is NSNull)
        let limit = byKey["transfer.per-transfer-limit"]?["value"] as? [String: Any]
        #expect(limit?["minor_units"] as? Int == 5_000_000 && limit?["currency"] as? String == "KRW")
        #expect(byKey["search.api-token"]?["default"] is NSNull)
        #expect(byKey["display.color"]?["source"] as? String == "default")
    }

    @Test func getShowsWhereTheValueComesFrom() async throws {
        let run = try await CommandHarness(manager: makeManager(environment: ["MOA_DISPLAY_COLOR": "never"])).run(["get", "display.color"])
        #expect(run.out.contains("never") && run.out.contains("env MOA_DISPLAY_COLOR"))
        let json = try await CommandHarness(manager: makeManager()).run(["get", "display.page-size", "--json"])
        #expect(json.out.contains(#""key" : "display.page-size""#) && json.out.contains(#""value" : 20"#))
    }

    @Test func theNoColorFlagIsAFlagLayer() async throws {
        let run = try await CommandHarness(manager: makeManager()).run(["get", "display.color", "--no-color", "--json"])
        #expect(run.out.contains(#""source" : "flag""#) && run.out.contains(#""value" : "never""#))
    }

    @Test func setRefusalsAreReportedWithTheirExitStatus() async throws {
        let harness = CommandHarness(manager: makeManager())
        let bad = try await harness.run(["set", "display.page-size", "500"])
        #expect(bad.status == 65)
        #expect(bad.err == "error: display.page-size must be a whole number from 1 to 200, not “500”.\n")
        let unknown = try await harness.run(["set", "display.langauge", "ko"])
        #expect(unknown.status == 64)
        #expect(unknown.err.hasPrefix("error: Unknown setting “display.langauge”. Did you mean display.language?"))
        let korean = try await harness.run(["set", "display.page-size", "0"], language: .ko)
        #expect(korean.err.contains("1부터 200까지의 정수"))
    }

    @Test func aSetThatAnEnvironmentVariableOverridesSaysSo() async throws {
        let run = try await CommandHarness(manager: makeManager(environment: ["MOA_DISPLAY_PAGE_SIZE": "50"])).run([
            "set", "display.page-size", "30",
        ])
        #expect(run.out.contains("display.page-size = 50"))
        #expect(run.out.contains("Note: MOA_DISPLAY_PAGE_SIZE is set"))
    }

    @Test func settingTheLanguageAnswersInIt() async throws {
        let harness = CommandHarness(manager: makeManager())
        let run = try await harness.run(["set", "display.language", "ko"])
        #expect(run.out == "display.language = ko (ada@example.com에 저장함)\n")
        let list = try await harness.run(["list"])
        #expect(
            list.out.components(separatedBy: "\n").dropFirst().first?.split(separator: " ").map(String.init) == [
                "키", "값", "기본값", "출처", "설명",
            ])
    }

    @Test func resetOneKey() async throws {
        let manager = makeManager()
        let harness = CommandHarness(manager: manager)
        _ = try await harness.run(["set", "display.page-size", "77"])
        let run = try await harness.run(["reset", "display.page-size"])
        #expect(run.out == "Reset display.page-size: it is now 20 (default).\n")
        #expect(try await manager.snapshot().pageSize == 20)
    }

    @Test func resetAllWithoutATerminalNeedsYesAndChangesNothing() async throws {
        let manager = makeManager()
        let harness = CommandHarness(manager: manager, confirmation: .always(true))
        _ = try await manager.set("display.page-size", to: "77")
        _ = try await manager.set("display.color", to: "never")
        let refused = try await harness.run(["reset"])
        #expect(refused.status == 64)
        #expect(refused.err.contains("needs a confirmation") && refused.err.contains("--yes"))
        #expect(try await manager.storedCount().count == 2)
        let forced = try await harness.run(["reset", "--yes"])
        #expect(forced.status == 0 && forced.out == "Reset 2 settings for ada@example.com.\n")
        #expect(try await manager.storedCount().count == 0)
    }

    @Test func resetAllOnATerminalAsksFirst() async throws {
        let manager = makeManager()
        _ = try await manager.set("display.page-size", to: "77")
        _ = try await manager.set("display.color", to: "never")
        let asked = Asked()
        let declining = CommandHarness(
            manager: manager,
            confirmation: ConfirmationPrompt { question, _ in
                asked.record(question)
                return false
            })
        let declined = try await declining.run(["reset"], interactive: true)
        #expect(asked.questions == ["Reset all 2 settings? [y/N]"])
        #expect(declined.status == 0 && declined.out == "Nothing was reset.\n")
        #expect(try await manager.storedCount().count == 2)
        _ = try await manager.reset("display.color")
        let accepted = try await CommandHarness(manager: manager, confirmation: .always(true)).run(["reset"], interactive: true)
        #expect(accepted.out == "Reset 1 setting for ada@example.com.\n")
        #expect(try await manager.storedCount().count == 0)
        let nothing = try await CommandHarness(manager: manager, confirmation: .always(true)).run(["reset"])
        #expect(nothing.status == 0 && nothing.out == "Nothing to reset: no setting is stored for ada@example.com.\n")
    }

    @Test @MainActor func theViewModelTurnsARefusalIntoState() async {
        let viewModel = SettingsViewModel(manager: makeManager())
        await viewModel.send(.set("display.color", value: "blue"))
        #expect(viewModel.state.outcome == nil)
        #expect(viewModel.state.error?.message == "display.color must be one of auto, always, never, not “blue”.")
        await viewModel.send(.set("display.color", value: "never"))
        #expect(viewModel.state.error == nil)
        guard case .changed(let setting)? = viewModel.state.outcome else {
            Issue.record("expected a change")
            return
        }
        #expect(setting.entry == SettingEntry(key: .displayColor, value: .color(.never), source: .user))
    }
}

/// Questions a fake prompt was asked.
final class Asked: Sendable {
    private let asked = Locked<[String]>([])
    var questions: [String] { asked.withLock { $0 } }
    func record(_ question: String) { asked.withLock { $0.append(question) } }
}
