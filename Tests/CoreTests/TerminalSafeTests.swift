import DesignSystem
import Testing

@Suite("DesignSystem · terminal-safe text")
struct TerminalSafeTests {
    @Test(
        "every control character that can act on a terminal becomes a visible stand-in",
        arguments: [
            ("\u{1B}[2J", "␛[2J"), // ESC: erase the screen
            ("\u{1B}]0;title\u{07}", "␛]0;title␇"), // OSC window title, ended by BEL
            ("a\u{00}b\u{7F}c", "a␀b␡c"), // NUL and DEL
            ("\u{9B}31m", "\u{FFFD}31m"), // the 8-bit CSI (C1)
            ("\u{202E}txt.exe", "\u{FFFD}txt.exe"), // right-to-left override
            ("\u{2066}x\u{2069}\u{200F}", "\u{FFFD}x\u{FFFD}\u{FFFD}"), // isolates and a mark
            ("mid\rline", "mid␍line"), // a carriage return that would overwrite the line
            ("b\r\n\u{0353}x", "b\r\n\u{0353}x"), // CRLF moves nothing, even before a combining mark (found by fuzzing)
        ])
    func neutralizes(raw: String, shown: String) {
        #expect(TerminalSafe.neutralize(raw) == shown)
        #expect(TerminalSafe.neutralize(raw, keepingStyle: true) == shown)
    }

    @Test("plain text, Hangul, emoji, newlines and tabs pass unchanged")
    func harmlessTextIsUntouched() {
        let text = "생활비 통장\t10,000 KRW\n👩‍💻 café"
        #expect(TerminalSafe.neutralize(text) == text)
    }

    @Test("the theme's SGR colours pass only when kept; anything else that starts with ESC never does")
    func styling() {
        let painted = Theme.colored.paint("ok", .success)
        #expect(painted.contains("\u{1B}["))
        #expect(TerminalSafe.neutralize(painted, keepingStyle: true) == "\u{1B}[32mok\u{1B}[0m") // the signature is gone
        #expect(!TerminalSafe.neutralize(painted).contains("\u{1B}"))
        // The same SGR from stored text (no signature) is neutralized, colour on or off, inside a painted
        // cell or beside it.
        let stored = "b\u{1B}[31mred\u{1B}[8m"
        #expect(TerminalSafe.neutralize(stored, keepingStyle: true) == "b␛[31mred␛[8m")
        let cell = Theme.colored.paint(stored, .danger)
        #expect(TerminalSafe.neutralize(cell, keepingStyle: true) == "\u{1B}[31mb␛[31mred␛[8m\u{1B}[0m")
        // Cursor movement, an OSC and an unterminated CSI are not styling.
        for sequence in [
            "\u{1B}[2A", "\u{1B}]8;;https://evil.example\u{1B}\\", "\u{1B}[31", "\u{1B}[" + String(repeating: "1;", count: 40) + "m",
        ] {
            #expect(!TerminalSafe.neutralize(sequence, keepingStyle: true).hasPrefix("\u{1B}"), "\(sequence.debugDescription)")
        }
    }

    @Test("TerminalSafeOutput filters every write, keeps a progress line's leading return, and never wraps twice")
    func output() {
        let captured = CapturingOutput()
        let safe = TerminalSafeOutput(captured, keepsStyle: false)
        safe.write("\r[====] 50% \u{1B}]0;x\u{07}\n")
        #expect(captured.text == "\r[====] 50% ␛]0;x␇\n")
        let again = TerminalSafeOutput(safe, keepsStyle: true)
        again.write(Theme.colored.paint("!", .warning) + " \u{1B}[2mforged")
        #expect(captured.text.hasSuffix("\u{1B}[33m!\u{1B}[0m ␛[2mforged"))
    }
}
