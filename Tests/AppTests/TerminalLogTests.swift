import DesignSystem
import Logging
import Testing

@testable import MoaApp

/// `moa`'s log lines (warnings, or everything with `--verbose`) reach the terminal through the same
/// filter as its output (issue 24, item 11): swift-log's stream handler wrote a server's sentence or
/// a stored title byte for byte, so ESC, BEL, a CSI or a bidi override in it acted on the terminal,
/// and a newline in it forged a line.
@Suite("moa · log lines on a terminal")
struct TerminalLogTests {
    @Test func aLogLineCarriesNoControlCharacterAndStaysOneLine() {
        let output = CapturingOutput()
        var handler = TerminalLogHandler(label: "moa.remote", level: .debug, output: output)
        handler.metadata["server"] = "bank\u{1B}]0;owned\u{07}"
        let logger = Logger(label: "moa.remote") { _ in handler }
        logger.warning("answer: \u{1B}[2Jcleared\nforged line \u{202E}evil", metadata: ["detail": "\u{9B}31m red"])
        logger.debug("quiet")
        let lines = output.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "", "two lines, each ending with its newline: \(output.text)")
        #expect(!output.text.unicodeScalars.contains { ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"].contains($0) }, "\(output.text)")
        #expect(lines.first?.contains(" warning moa.remote: answer: ") == true, "\(output.text)")
        #expect(lines.first?.contains("\\nforged line") == true, "\(output.text)")
        #expect(lines.first?.contains("server=bank") == true, "\(output.text)")
        // Shown, not obeyed: ESC and BEL as their Control Pictures.
        #expect(
            lines.dropFirst().first?.hasSuffix(" debug moa.remote: quiet server=bank\u{241B}]0;owned\u{2407}") == true, "\(output.text)")
    }

    @Test func belowItsLevelNothingIsWritten() {
        let output = CapturingOutput()
        let logger = Logger(label: "moa") { _ in TerminalLogHandler(label: "moa", level: .warning, output: output) }
        logger.info("not shown")
        #expect(output.text.isEmpty)
    }
}
