import ArchiveData
import ArchiveDomain
import ArchiveFeature
import ArchiveInterface
import CommandKit
import DesignSystem
import Foundation
import Networking
import SettingsInterface
import SharedKit
import Testing

/// `moa archive import --api`: the key comes from the `archive.api-key` setting, never from the
/// command line; `--api-key KEY` still works, with a warning.
@Suite("Live import: where the API key comes from")
struct LiveImportKeyTests {
    static let key = "4f6d4a7b5c6e6f70717273747576777879417a42"
    static let apiKeyWarning =
        "warning: --api-key puts your key where other users see it in `ps` and your shell keeps it in its history; "
        + "store it with `moa settings set archive.api-key --value-stdin` and use --api.\n"

    static func page(total: Int, _ rows: [String]) -> HTTPResponse { LiveImportTests.page(total: total, rows) }

    @Test func withoutAKeyApiIsAConfigurationErrorWithTheWayToSetOne() async throws {
        let harness = try ArchiveHarness()
        let err = CapturingOutput()
        await #expect(throws: ArchiveImportError.apiKeyNotSet) { try await harness.run(["import", "--api"], err: err) }
        #expect(harness.http.requests.isEmpty)
        #expect(err.text.isEmpty, "no warning: nothing was on the command line")

        let error = ArchiveImportError.apiKeyNotSet
        #expect(error.exitStatus == .configuration)
        #expect(error.exitStatus.rawValue == 78)
        let report = CapturingOutput()
        let status = CommandContext(out: CapturingOutput(), err: report).report(error)
        #expect(status.rawValue == 78)
        #expect(
            report.text == """
                error: No Seoul Open Data API key is set, so the live catalogue cannot be imported.
                hint: Store your key (from data.seoul.go.kr, “인증키 신청”) with `moa settings set archive.api-key --value-stdin`, or set MOA_ARCHIVE_API_KEY.

                """)
        #expect(try harness.eventCount() == 0)
    }

    @Test func theKeyOfTheSettingGoesOutWithTheRequestAndNowhereElse() async throws {
        let page = Self.page(total: 5000, [row("가", start: "2026-12-01"), row("나", start: "2026-12-02")])
        let stub = StubHTTPClient([.success(page), .success(page)])
        let harness = try ArchiveHarness(http: stub)
        harness.settings.update { $0.archiveAPIKey = Self.key }
        let err = CapturingOutput()
        let output = try await harness.run(["import", "--api", "--from", "11", "--to", "12"], err: err)
        #expect(stub.requests.map(\.pathSegments) == [[Self.key, "json", "culturalEventInfo", "11", "12"]])
        #expect(output.contains("│ New        2"))
        #expect(!output.contains(Self.key) && !output.contains("4f6d4a7b"))
        #expect(err.text.isEmpty)
        #expect(try harness.eventCount() == 2)

        let json = try await harness.run(["import", "--api", "--from", "11", "--to", "12"], json: true)
        #expect(!json.contains(Self.key))
        #expect(stub.requests.count == 2 && stub.requests[1].pathSegments.first == Self.key)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(decoded["source"] as? String == "Seoul Open Data API, rows 11–12")
    }

    @Test func aFailureNamesNeitherTheKeyNorItsURL() async throws {
        let stub = StubHTTPClient([
            .failure(.transport("connection reset for http://openapi.seoul.go.kr:8088/\(Self.key)/json/culturalEventInfo/1/1000")),
            .success(.json(#"{"RESULT": {"CODE": "INFO-100", "MESSAGE": "인증키(\#(Self.key))가 유효하지 않습니다."}}"#)),
        ])
        let harness = try ArchiveHarness(http: stub)
        harness.settings.update { $0.archiveAPIKey = Self.key }
        for _ in 0..<2 {
            await #expect {
                try await harness.run(["import", "--api"])
            } throws: { error in
                guard let error = error as? ArchiveImportError else { return false }
                let report = CapturingOutput()
                CommandContext(out: CapturingOutput(), err: report).report(error)
                let json = CapturingOutput()
                CommandContext(json: true, out: CapturingOutput(), err: json).report(error)
                return !report.text.contains(Self.key) && report.text.contains("***") && !json.text.contains(Self.key)
            }
        }
        #expect(try harness.eventCount() == 0)
    }

    @Test func theRowRangeIsCheckedBeforeTheKey() async throws {
        let harness = try ArchiveHarness()
        await #expect(throws: ArchiveError.invalidRowRange(from: 5, to: 2)) {
            try await harness.run(["import", "--api", "--from", "5", "--to", "2"])
        }
        #expect(harness.http.requests.isEmpty)
    }

    @Test func aSettingsFailureIsReportedAsItIs() async throws {
        struct Broken: Error, UserFacingError {
            var message: String {
                "The environment variable MOA_ARCHIVE_API_KEY (archive.api-key) must be 1 to 128 characters without spaces; its value is not shown."
            }
            var exitStatus: SharedKit.ExitStatus { .configuration }
        }
        let harness = try ArchiveHarness()
        harness.settings.fail(with: Broken())
        await #expect(throws: Broken.self) { try await harness.run(["import", "--api"]) }
        #expect(harness.http.requests.isEmpty)
    }

    @Test func apiKeyStillWorksButWarnsOnStandardErrorWithoutTheKey() async throws {
        let stub = StubHTTPClient([.success(Self.page(total: 1, [row("가", start: "2026-12-01")]))])
        let harness = try ArchiveHarness(http: stub)
        harness.settings.update { $0.archiveAPIKey = "the-setting-is-not-used" }
        let err = CapturingOutput()
        let output = try await harness.run(["import", "--api-key", Self.key], err: err)
        #expect(stub.requests.first?.pathSegments.first == Self.key)
        #expect(err.text == Self.apiKeyWarning)
        #expect(!err.text.contains(Self.key) && !output.contains(Self.key))
        #expect(try harness.eventCount() == 1)
    }

    @Test(arguments: [
        (["import", "--api", "--api-key", "k"], "Give either --api (the key from the archive.api-key setting) or --api-key, not both."),
        (["import", "a.json", "--api"], "Give either a FILE or --api, not both."),
        (["import", "a.json", "--api-key", "k"], "Give either a FILE or --api, not both."),
        (["import", "--sample", "--api"], "--sample goes alone."),
        (["import", "a.json", "--to", "3"], "--from and --to go with --api."),
        (["import"], "Give a FILE to import, --api for the live API, or --sample."),
    ])
    func usageMistakesSayWhatToDo(arguments: [String], message: String) {
        #expect {
            _ = try ArchiveCommand.parseAsRoot(arguments)
        } throws: { error in
            ArchiveCommand.exitCode(for: error).rawValue == ExitStatus.usage.rawValue && ArchiveCommand.message(for: error) == message
        }
    }

    @Test func theHelpShowsApiAndWarnsAboutApiKey() {
        #expect {
            // `X --help` parses to ArgumentParser's help command; running it throws the help request.
            var parsed = try ArchiveCommand.parseAsRoot(["import", "--help"])
            try parsed.run()
        } throws: { error in
            // The message is wrapped: compare words.
            let help = ArchiveCommand.fullMessage(for: error).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return help.contains("moa archive import --api [--from N] [--to M]") && help.contains("archive.api-key")
                && help.contains("--value-stdin") && help.contains("--api-key") && help.contains("`ps`")
        }
    }

    @Test func otherHintsPointToApiNotToAKeyOnTheCommandLine() {
        for hint in [
            ArchiveImportError.fileNotFound("x.json").hint, ArchiveImportError.apiKeyMissing.hint,
        ] {
            #expect(hint?.contains("--api-key KEY") == false)
        }
        #expect(ArchiveImportError.apiKeyMissing.hint?.contains("moa settings set archive.api-key --value-stdin") == true)
    }
}
