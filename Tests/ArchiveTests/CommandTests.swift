import ArchiveData
import ArchiveDomain
import ArchiveFeature
import ArchiveInterface
import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import SharedKit
import Testing

@Suite("Archive commands")
struct CommandTests {
    @Test func importPrintsACardAndTheSkippedRows() async throws {
        let harness = try ArchiveHarness()
        let folder = try ArchiveHarness.temporaryFolder()
        let path = try folder.file("events.json", ArchiveSamples.seoulEventsJSON)
        let text = try await harness.run(["import", path])
        #expect(text.contains("┌─ Import · \(path) "))
        #expect(text.contains("│ Rows       13"))
        #expect(text.contains("│ New        10"))
        #expect(text.contains("│ Skipped    3"))
        #expect(text.contains("│ Catalogue  10 events"))
        #expect(text.contains(" 11  뮤지컬 〈명성황후〉 30주년 기념 공연  duplicate of row 1"))
        #expect(text.contains(" 12  —                                     no title"))
        #expect(text.contains(" 13  남산골 한옥마을 전통혼례 재현         invalid start date “미정”"))

        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try await harness.run(["import", path], json: true).utf8)) as? [String: Any])
        #expect((json["new"] as? Int, json["unchanged"] as? Int, json["catalogue_count"] as? Int) == (0, 10, 10))
        let skipped = try #require(json["skipped"] as? [[String: Any]])
        #expect(skipped.map { $0["reason"] as? String } == ["duplicate", "no_title", "invalid_start_date"])
        #expect(skipped.first?["detail"] as? String == "duplicate of row 1")
    }

    @Test func progressIsDrawnOnATerminalOnly() {
        let terminal = CapturingOutput()
        let display = ImportProgressDisplay(output: terminal, theme: .plain, isTerminal: true, enabled: true)
        display.update(.read(rows: 4))
        display.update(.writing(done: 0, of: 4))
        display.update(.writing(done: 2, of: 4))
        display.update(.writing(done: 4, of: 4))
        display.finish()
        #expect(
            terminal.text == "\rImporting [░░░░░░░░░░░░░░░░░░░░]   0%  0/4\rImporting [██████████░░░░░░░░░░]  50%  2/4"
                + "\rImporting [████████████████████] 100%  4/4\n")

        let pipe = CapturingOutput()
        let quiet = ImportProgressDisplay(output: pipe, theme: .plain, isTerminal: false, enabled: true)
        quiet.update(.writing(done: 4, of: 4))
        quiet.finish()
        #expect(pipe.text.isEmpty)
    }

    @Test(arguments: [
        ["import"], ["import", "a.json", "--api-key", "k"], ["import", "a.json", "--from", "3"],
        ["events", "--free", "--paid"],
        ["add"], ["add", "abc", "--title", "x"], ["add", "--title", "x", "--category", "연극"],
        ["export", "--format", "xml"], ["remove"],
    ])
    func usageMistakesAreCaughtWhileParsing(arguments: [String]) {
        #expect(throws: (any Error).self) { try ArchiveCommand.parseAsRoot(arguments) }
        do {
            _ = try ArchiveCommand.parseAsRoot(arguments)
        } catch {
            #expect(ArchiveCommand.exitCode(for: error).rawValue == ExitStatus.usage.rawValue)
        }
    }

    @Test func theManualFormNamesWhatIsMissing() {
        #expect {
            try ArchiveCommand.parseAsRoot(["add", "--title", "x", "--category", "연극"])
        } throws: { error in
            ArchiveCommand.message(for: error).contains("A ticket by hand also needs --region, --date.")
        }
    }
}
