import CommandKit
import Foundation
import SettingsDomain
import SettingsFeature
import SettingsInterface
import SharedKit
import Testing

/// `archive.api-key`, the second secret setting, and reading secrets without putting them on the
/// command line (`--value-stdin`, the hidden prompt).
@Suite("Settings: secrets off the command line")
struct SettingsSecretTests {
    /// Shaped like a Seoul Open Data key (40 characters).
    static let key = "4f6d4a7b5c6e6f70717273747576777879417a42"
    static let warning = "warning: a value on the command line is visible to other users in `ps` and kept in your shell history; "

    /// The sources a ``SecretValueInput`` was asked to read from.
    final class Sources: Sendable {
        private let asked = Locked<[SecretInput.Source]>([])
        func record(_ source: SecretInput.Source) { asked.withLock { $0.append(source) } }
        var all: [SecretInput.Source] { asked.withLock { $0 } }
    }

    // MARK: The key

    @Test func theArchiveKeyIsASecretWithItsOwnVariable() {
        let key = SettingKey.archiveAPIKey
        #expect(key.name == "archive.api-key")
        #expect(key.isSecret)
        #expect(key.environmentVariable == "MOA_ARCHIVE_API_KEY")
        #expect(key.defaultValue == nil)
        #expect(SettingKey.secretKeys == [.searchAPIToken, .archiveAPIKey])
        #expect(SettingsSnapshot.defaults.archiveAPIKey == nil)
    }

    @Test(arguments: [
        (Self.key, "***7a42"),
        ("  " + Self.key + "\n", "***7a42"), // surrounding blanks are not part of the key
        ("sample", "***"), // too short to show anything of it
        (String(repeating: "k", count: 128), "***kkkk"),
    ])
    func goodKeysAreStoredAndMasked(typed: String, shown: String) throws {
        let value = try SettingKey.archiveAPIKey.parse(typed)
        #expect(value == .secret(typed.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(value.displayText == shown)
    }

    @Test(arguments: [
        "", "   ", "two words", "tab\there", "line\nbreak", "bell\u{07}", "del\u{7F}", "nbsp\u{00A0}inside",
        String(repeating: "k", count: 129),
    ])
    func badKeysAreRefusedWithoutRepeatingThem(typed: String) async throws {
        #expect(throws: SettingValueRejected.self) { try SettingKey.archiveAPIKey.parse(typed) }
        let manager = makeManager()
        await #expect {
            _ = try await manager.set("archive.api-key", to: typed)
        } throws: { error in
            guard let error = error as? SettingsError, case .invalidValue(.archiveAPIKey, _, .argument) = error else { return false }
            let shownTyped = typed.trimmingCharacters(in: .whitespaces)
            return error.exitStatus == .dataError
                && error.message == "archive.api-key must be 1 to 128 characters without spaces; the value given is not shown."
                && (shownTyped.isEmpty || !error.localizedMessage.ko.contains(shownTyped))
        }
        #expect(try await manager.storedCount().count == 0)
    }

    @Test func theKeyReachesOtherFeaturesThroughTheSnapshotButNeverItsDescription() async throws {
        let manager = makeManager()
        #expect(try await manager.snapshot().archiveAPIKey == nil)
        _ = try await manager.set("archive.api-key", to: Self.key)
        let snapshot = try await manager.snapshot()
        #expect(snapshot.archiveAPIKey == Self.key)
        #expect(!"\(snapshot)".contains(Self.key) && "\(snapshot)".contains("archiveAPIKey: set, hidden"))
        #expect(!String(reflecting: snapshot).contains(Self.key))
        _ = try await manager.reset("archive.api-key")
        #expect(try await manager.snapshot().archiveAPIKey == nil)
    }

    @Test func theKeyIsStoredPerUser() async throws {
        let store = MemorySettingsStore()
        let scope = SwitchableScope(.ada)
        let manager = makeManager(store: store, scope: scope)
        _ = try await manager.set("archive.api-key", to: Self.key)
        scope.become(.bob)
        #expect(try await manager.snapshot().archiveAPIKey == nil)
        scope.become(.ada)
        #expect(try await manager.snapshot().archiveAPIKey == Self.key)
    }

    @Test func theEnvironmentVariableBeatsTheStoredKey() async throws {
        let store = MemorySettingsStore()
        store.put("archive.api-key", "stored-key-0000000000", in: .ada)
        let manager = makeManager(store: store, environment: ["MOA_ARCHIVE_API_KEY": "env-key-11111111111111"])
        #expect(try await manager.snapshot().archiveAPIKey == "env-key-11111111111111")
        let entry = try await manager.entry(named: "archive.api-key")
        #expect(entry.entry.source == .environment(variable: "MOA_ARCHIVE_API_KEY"))
        // Without the variable, the stored key.
        #expect(try await makeManager(store: store).snapshot().archiveAPIKey == "stored-key-0000000000")
    }

    @Test func aBadKeyInTheEnvironmentIsAConfigurationErrorThatDoesNotShowIt() async throws {
        let manager = makeManager(environment: ["MOA_ARCHIVE_API_KEY": "my secret key"])
        await #expect {
            _ = try await manager.snapshot()
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.exitStatus == .configuration && error.message.contains("MOA_ARCHIVE_API_KEY")
                && !error.message.contains("my secret") && error.hint == "Fix or unset MOA_ARCHIVE_API_KEY."
        }
    }

    // MARK: Shown masked, never in --json

    @Test func theKeyIsMaskedInListAndGetAndAbsentFromJSON() async throws {
        let manager = makeManager()
        _ = try await manager.set("archive.api-key", to: Self.key)
        let harness = CommandHarness(manager: manager)
        for arguments in [["list"], ["get", "archive.api-key"]] {
            let run = try await harness.run(arguments)
            #expect(run.status == 0)
            #expect(run.out.contains("***7a42"), "\(arguments) shows the masked key")
            #expect(!run.out.contains("4f6d4a7b"), "\(arguments) leaks the key")
        }
        for arguments in [["list", "--json"], ["get", "archive.api-key", "--json"]] {
            let run = try await harness.run(arguments)
            #expect(run.status == 0)
            #expect(!run.out.contains("4f6d4a7b") && !run.out.contains("7a42"), "\(arguments) leaks the key")
        }
        let get = try await harness.run(["get", "archive.api-key", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(get.out.utf8)) as? [String: Any])
        #expect((object["value"] as? [String: Any])?["set"] as? Bool == true)
        #expect(object["default"] is NSNull)
    }

    // MARK: set, with --value-stdin, the prompt, or a VALUE with a warning

    @Test func valueStdinReadsOneLineAndWarnsOfNothing() async throws {
        let manager = makeManager()
        let sources = Sources()
        let harness = CommandHarness(manager: manager, secretInput: .lines([Self.key], asked: sources.record))
        let run = try await harness.run(["set", "archive.api-key", "--value-stdin"])
        #expect(run.status == 0)
        #expect(run.out == "archive.api-key = ***7a42 (saved for ada@example.com)\n")
        #expect(run.err.isEmpty)
        #expect(sources.all == [.standardInput])
        #expect(try await manager.snapshot().archiveAPIKey == Self.key)
    }

    @Test func valueStdinWorksForTheSearchTokenAndWithJSON() async throws {
        let manager = makeManager()
        let token = "ghp_abcdefghijklmnopqrstuvwxyz9876"
        let run = try await CommandHarness(manager: manager, secretInput: .lines([token])).run([
            "set", "search.api-token", "--value-stdin", "--json",
        ])
        #expect(run.status == 0 && run.err.isEmpty)
        #expect(!run.out.contains("ghp_") && run.out.contains(#""set" : true"#))
        #expect(try await manager.snapshot().searchAPI.token == token)
    }

    @Test func withoutAValueATerminalIsAskedAndAPipeIsRead() async throws {
        let manager = makeManager()
        let sources = Sources()
        let onTerminal = try await CommandHarness(manager: manager, secretInput: .lines([Self.key], asked: sources.record))
            .run(["set", "archive.api-key"], interactive: true)
        #expect(onTerminal.status == 0 && onTerminal.err.isEmpty)
        #expect(sources.all == [.prompt])
        #expect(try await manager.snapshot().archiveAPIKey == Self.key)

        let piped = Sources()
        let fromPipe = try await CommandHarness(manager: manager, secretInput: .lines(["other-key-2222222222"], asked: piped.record))
            .run(["set", "archive.api-key"])
        #expect(fromPipe.status == 0)
        #expect(piped.all == [.standardInput])
        #expect(try await manager.snapshot().archiveAPIKey == "other-key-2222222222")
    }

    @Test func aValueOnTheCommandLineStillWorksWithOneWarningOnStandardError() async throws {
        let manager = makeManager()
        let run = try await CommandHarness(manager: manager).run(["set", "archive.api-key", Self.key])
        #expect(run.status == 0)
        #expect(run.out == "archive.api-key = ***7a42 (saved for ada@example.com)\n")
        #expect(run.err == Self.warning + "use `moa settings set archive.api-key --value-stdin` instead.\n")
        #expect(!run.err.contains("4f6d4a7b"))
        #expect(try await manager.snapshot().archiveAPIKey == Self.key)

        let token = try await CommandHarness(manager: manager).run(["set", "search.api-token", "ghp_abcdefghijklmnopqrstuvwxyz9876"])
        #expect(token.err == Self.warning + "use `moa settings set search.api-token --value-stdin` instead.\n")
        let plain = try await CommandHarness(manager: manager).run(["set", "display.page-size", "30"])
        #expect(plain.err.isEmpty, "only secrets are warned about")
    }

    @Test func valueStdinWithAValueIsAUsageErrorThatStoresNothing() async throws {
        let manager = makeManager()
        let sources = Sources()
        let run = try await CommandHarness(manager: manager, secretInput: .lines(["unused"], asked: sources.record))
            .run(["set", "archive.api-key", Self.key, "--value-stdin"])
        #expect(run.status == 64)
        #expect(run.err == "error: Give the value either as VALUE or with --value-stdin, not both.\n")
        #expect(run.out.isEmpty)
        #expect(sources.all.isEmpty, "standard input is not read")
        #expect(try await manager.storedCount().count == 0)
    }

    @Test func valueStdinForAPlainSettingIsAUsageError() async throws {
        let manager = makeManager()
        let sources = Sources()
        let harness = CommandHarness(manager: manager, secretInput: .lines(["30"], asked: sources.record))
        let run = try await harness.run(["set", "display.page-size", "--value-stdin"])
        #expect(run.status == 64)
        #expect(
            run.err
                == "error: --value-stdin is only for secret settings (search.api-token, archive.api-key): give display.page-size as VALUE.\n"
        )
        let withValue = try await harness.run(["set", "display.page-size", "30", "--value-stdin"])
        #expect(withValue.status == 64)
        #expect(sources.all.isEmpty)
        #expect(try await manager.storedCount().count == 0)
        let unknown = try await harness.run(["set", "archive.api-kee", "--value-stdin"])
        #expect(unknown.status == 64 && unknown.err.contains("Did you mean archive.api-key?"))
    }

    @Test func nothingOnStandardInputIsAUsageError() async throws {
        let manager = makeManager()
        let empty = try await CommandHarness(manager: manager, secretInput: .lines([])).run(["set", "archive.api-key", "--value-stdin"])
        #expect(empty.status == 64)
        #expect(empty.err.hasPrefix("error: No value for archive.api-key was read from standard input: pipe it in as one line"))
        let blank = try await CommandHarness(manager: manager, secretInput: .lines([""])).run(["set", "archive.api-key", "--value-stdin"])
        #expect(blank.status == 64)
        let prompt = try await CommandHarness(manager: manager, secretInput: .lines([])).run(["set", "archive.api-key"], interactive: true)
        #expect(prompt.status == 64 && prompt.err == "error: No value for archive.api-key was entered.\n")
        let bad = try await CommandHarness(manager: manager, secretInput: .lines(["two words"])).run([
            "set", "archive.api-key", "--value-stdin",
        ])
        #expect(bad.status == 65 && !bad.err.contains("two words"))
        #expect(try await manager.storedCount().count == 0)
    }

    @Test func theHelpOfSetExplainsValueStdin() {
        #expect {
            // `X --help` parses to ArgumentParser's help command; running it throws the help request.
            var parsed = try SettingsCommand.parseAsRoot(["set", "--help"])
            try parsed.run()
        } throws: { error in
            // The message is wrapped: compare words.
            let help = SettingsCommand.fullMessage(for: error).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return help.contains("--value-stdin") && help.contains("`ps`") && help.contains("archive.api-key")
        }
    }
}
