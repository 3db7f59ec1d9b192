import Money
import SharedKit
import Testing

@testable import DesignSystem

/// How the theme starts its own escape sequences: its per-process signature, then ESC.
private let esc = ANSI.signature + "\u{1B}"

private func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }

private func rule(_ count: Int) -> String { String(repeating: "─", count: count) }

private func terminal(tty: Bool, _ environment: [String: String] = ["TERM": "xterm-256color"]) -> TerminalEnvironment {
    TerminalEnvironment(environment: environment, isTerminal: tty)
}

/// The character that occupies display column `column` (0-based) of `line`.
private func characterAtDisplayColumn(_ column: Int, in line: String) -> Character? {
    var start = 0
    for character in line {
        let width = String(character).displayWidth
        if column < start + width { return character }
        start += width
    }
    return nil
}

private struct InsufficientFundsSample: UserFacingError {
    var message = "Insufficient funds: the balance is 5,000 KRW."
    var hint: String? = "Deposit money first, or send a smaller amount."
    var exitStatus: SharedKit.ExitStatus { .refused }
}

/// Renders one of every component, for the "is there any ANSI at all" checks.
private func renderEverything(_ theme: Theme) -> String {
    let table = Table(columns: [.init("이름"), .init("Amount", alignment: .right)], rows: [["가", "1"]])
    return [
        table.render(theme: theme),
        Card(title: "카드", lines: ["body"]).render(theme: theme),
        KeyValueRows(["Key": "Value"]).render(theme: theme),
        AmountText(Money(minorUnits: 10_000, currency: .krw)).render(theme: theme),
        ProgressBar(done: 5, total: 10).render(theme: theme),
        ErrorText(InsufficientFundsSample()).render(theme: theme),
    ].joined(separator: "\n")
}

@Suite("Design system")
struct DesignSystemTests {
    // MARK: Display width

    @Test func displayWidthOfLatinHangulCJKAndKana() {
        #expect(displayWidth("") == 0)
        #expect(displayWidth("abc") == 3)
        #expect(displayWidth("한글") == 4)
        #expect(displayWidth("생활비 통장") == 11)
        #expect(displayWidth("漢字") == 4)
        #expect(displayWidth("こんにちは") == 10)
        #expect(displayWidth("カタカナ") == 8)
        #expect(displayWidth("ＡＢ") == 4) // fullwidth forms
        #expect(displayWidth("￦") == 2) // U+FFE6 fullwidth won sign
        #expect(displayWidth("ｶ") == 1) // halfwidth katakana
        #expect(displayWidth("「」") == 4) // CJK punctuation
        #expect(displayWidth("…") == 1) // ambiguous: narrow
        #expect(displayWidth("ㄱ") == 2) // compatibility jamo
    }

    @Test func combiningAndZeroWidthCharactersTakeNoColumns() {
        #expect(displayWidth("e\u{301}") == 1) // e + combining acute
        #expect(displayWidth("Cafe\u{301}") == 4)
        #expect(displayWidth("\u{301}") == 0) // a lone combining mark
        #expect(displayWidth("a\u{200B}b") == 2) // zero-width space
        #expect(displayWidth("\u{FEFF}") == 0) // BOM
        #expect(displayWidth("\u{1112}\u{1161}\u{11AB}") == 2) // 한 as decomposed jamo
        #expect(displayWidth("a\u{0}\u{7}b") == 2) // control characters
    }

    @Test func emojiAreTwoColumnsAndSequencesCountOnce() {
        #expect(displayWidth("👍") == 2)
        #expect(displayWidth("🎉🎉") == 4)
        #expect(displayWidth("👍🏽") == 2) // skin tone modifier
        #expect(displayWidth("👨\u{200D}👩\u{200D}👧") == 2) // ZWJ family
        #expect(displayWidth("🇰🇷") == 2) // flag
        #expect(displayWidth("❤\u{FE0F}") == 2) // emoji presentation
        #expect(displayWidth("1\u{FE0F}\u{20E3}") == 2) // keycap
        #expect(displayWidth("🚀 go") == 5)
    }

    @Test func ansiEscapeSequencesTakeNoColumns() {
        #expect(displayWidth("\(esc)[1;32m초록\(esc)[0m") == 4)
        #expect(displayWidth("\(esc)]8;;https://example.com\u{7}link\(esc)]8;;\u{7}") == 4) // OSC 8 hyperlink
        #expect("\(esc)[31mred\(esc)[0m".strippingANSI == "red")
        #expect("한글".displayWidth == 4)
    }

    @Test func truncationRespectsDisplayWidth() {
        #expect("Hello, world".truncated(toDisplayWidth: 5) == "Hell…")
        #expect("Hello".truncated(toDisplayWidth: 5) == "Hello")
        #expect("안녕하세요".truncated(toDisplayWidth: 5) == "안녕…")
        #expect("안녕하세요".truncated(toDisplayWidth: 6) == "안녕…") // never half a wide character
        #expect("안녕하세요".truncated(toDisplayWidth: 6).displayWidth == 5)
        #expect("abc".truncated(toDisplayWidth: 0) == "")
        #expect("abcdef".truncated(toDisplayWidth: 4, ellipsis: "...") == "a...")
        #expect("abcdef".truncated(toDisplayWidth: 2, ellipsis: "...") == "ab")
        #expect("\(esc)[32mHello\(esc)[0m".truncated(toDisplayWidth: 4) == "\(esc)[32mHel\(esc)[0m…")
    }

    @Test func paddingRespectsDisplayWidth() {
        #expect("한".padded(toDisplayWidth: 4) == "한  ")
        #expect("한".padded(toDisplayWidth: 4, alignment: .right) == "  한")
        #expect("ab".padded(toDisplayWidth: 5, alignment: .center) == " ab  ")
        #expect("toolong".padded(toDisplayWidth: 3) == "toolong")
        #expect("가나다".fitted(toDisplayWidth: 4) == "가… ")
        #expect("\(esc)[1m한\(esc)[0m".padded(toDisplayWidth: 3) == "\(esc)[1m한\(esc)[0m ")
    }

    // MARK: Colour resolution

    @Test func autoColoursOnlyAnInteractiveCapableTerminal() {
        #expect(ColorMode.auto.isColorEnabled(terminal: terminal(tty: true)))
        #expect(ColorMode.auto.isColorEnabled(terminal: terminal(tty: true, [:])))
        #expect(!ColorMode.auto.isColorEnabled(terminal: terminal(tty: false)))
        #expect(!ColorMode.auto.isColorEnabled(terminal: terminal(tty: true, ["TERM": "dumb"])))
        #expect(!ColorMode.auto.isColorEnabled(terminal: terminal(tty: true, ["TERM": "xterm", "NO_COLOR": "1"])))
        #expect(!ColorMode.auto.isColorEnabled(terminal: terminal(tty: true, ["NO_COLOR": "anything"])))
        #expect(ColorMode.auto.isColorEnabled(terminal: terminal(tty: true, ["TERM": "xterm", "NO_COLOR": ""])))
        #expect(!ColorMode.auto.isColorEnabled(noColorFlag: true, terminal: terminal(tty: true)))
    }

    @Test func explicitModesAndTheNoColorFlag() {
        // `always` is an explicit user choice: it beats NO_COLOR and a pipe, but not --no-color.
        #expect(ColorMode.always.isColorEnabled(terminal: terminal(tty: false, ["NO_COLOR": "1", "TERM": "dumb"])))
        #expect(!ColorMode.always.isColorEnabled(noColorFlag: true, terminal: terminal(tty: true)))
        #expect(!ColorMode.never.isColorEnabled(terminal: terminal(tty: true)))
        #expect(ColorMode(rawValue: "always") == .always)
        #expect(ColorMode(rawValue: "rainbow") == nil)
    }

    @Test(arguments: [
        (ColorMode.auto, false, ["TERM": "xterm", "NO_COLOR": "1"], true), // NO_COLOR
        (ColorMode.auto, true, ["TERM": "xterm"], true), // --no-color
        (ColorMode.always, true, ["TERM": "xterm"], true), // --no-color beats always
        (ColorMode.auto, false, ["TERM": "xterm"], false), // not a TTY
        (ColorMode.auto, false, ["TERM": "dumb"], true), // dumb terminal
        (ColorMode.never, false, ["TERM": "xterm"], true),
    ])
    func noEscapeSequencesWhenColourIsOff(mode: ColorMode, flag: Bool, environment: [String: String], tty: Bool) {
        let theme = Theme.resolve(mode: mode, noColorFlag: flag, terminal: terminal(tty: tty, environment))
        #expect(!theme.isColorEnabled)
        #expect(!renderEverything(theme).contains("\u{1B}"))
    }

    @Test func escapeSequencesWhenAlwaysOnATerminal() {
        let theme = Theme.resolve(mode: .always, terminal: terminal(tty: true))
        #expect(theme.isColorEnabled)
        #expect(renderEverything(theme).contains(esc))
        #expect(Theme.resolve(mode: .auto, terminal: terminal(tty: true)).isColorEnabled)
    }

    @Test func themePaintsTokensWithSGRCodes() {
        #expect(Theme.colored.paint("ok", .success) == "\(esc)[32mok\(esc)[0m")
        #expect(Theme.colored.paint("Title", .heading) == "\(esc)[1mTitle\(esc)[0m")
        #expect(Theme.colored.paint("x", .danger, .bold) == "\(esc)[31;1mx\(esc)[0m")
        #expect(Theme.colored.paint("x", .debit) == "x") // default foreground
        #expect(Theme.colored.paint("", .danger) == "")
        #expect(Theme.colored.styled("u", [.bold, .underline]) == "\(esc)[1;4mu\(esc)[0m")
        #expect(Theme.plain.paint("ok", .success) == "ok")
        #expect(Theme.plain.styled("u", .underline) == "u")
    }

    // MARK: Table

    @Test func tableAlignsHangulCellsByDisplayWidth() {
        let table = Table(
            columns: [.init("계좌"), .init("예금주"), .init("잔액", alignment: .right)],
            rows: [["생활비 통장", "홍길동", "10,000"], ["Savings", "Kim", "1,250,000"]])
        let lines = table.render().split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "계좌" + spaces(7) + "  " + "예금주" + "  " + spaces(5) + "잔액",
                rule(11) + "  " + rule(6) + "  " + rule(9),
                "생활비 통장" + "  " + "홍길동" + "  " + spaces(3) + "10,000",
                "Savings" + spaces(4) + "  " + "Kim" + spaces(3) + "  " + "1,250,000",
            ])
        #expect(lines.allSatisfy { $0.displayWidth == 30 })
        // The column gaps sit at the same display columns (11–12 and 19–20) on every line.
        for line in lines {
            #expect([11, 12, 19, 20].map { characterAtDisplayColumn($0, in: line) } == [" ", " ", " ", " "])
            #expect(characterAtDisplayColumn(29, in: line) != " ") // right-aligned last column
        }
    }

    @Test func tableRightAlignsNumbers() {
        let table = Table(
            columns: [.init("Item"), .init("Amount", alignment: .right)],
            rows: [["a", "5"], ["b", "1,000"]])
        #expect(
            table.render() == """
                Item  Amount
                ────  ──────
                a          5
                b      1,000
                """)
    }

    @Test func tableTruncatesToTheColumnMaximumWidth() {
        let table = Table(
            columns: [.init("메모", maxWidth: 6), .init("N", alignment: .right)],
            rows: [["가나다라마", "1"], ["abcdefgh", "2"], ["ok", "3"]])
        let lines = table.render().split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "메모    N",
                rule(6) + "  " + rule(1),
                "가나… " + "  1",
                "abcde…" + "  2",
                "ok    " + "  3",
            ])
        #expect(lines.allSatisfy { $0.displayWidth == 9 })
    }

    @Test func tableCellsAreSanitisedAndMissingCellsBlank() {
        let table = Table(columns: [.init("A"), .init("B")], rows: [["x\ny"], ["1", "2", "extra"]])
        #expect(table.render() == "A    B\n───  ─\nx y\n1    2")
    }

    @Test func colouredTableHasTheSameLayoutAsPlain() {
        let table = Table(
            columns: [.init("거래"), .init("금액", alignment: .right)],
            rows: [
                ["입금", AmountText(Money(minorUnits: 5_000, currency: .krw)).render(theme: .colored)],
                ["출금", AmountText(Money(minorUnits: -12_000, currency: .krw)).render(theme: .colored)],
            ])
        let coloured = table.render(theme: .colored)
        #expect(coloured.contains(esc))
        let plainRows = Table(columns: table.columns, rows: [["입금", "+5,000 KRW"], ["출금", "-12,000 KRW"]])
        #expect(coloured.strippingANSI == plainRows.render())
    }

    @Test func emptyTableShowsTheEmptyState() {
        #expect(Table(columns: [.init("A")]).render() == "Nothing to show.")
        let empty = Table(columns: [.init("A")], emptyMessage: "No accounts yet. Open one with `moa account open`.")
        #expect(empty.render() == "No accounts yet. Open one with `moa account open`.")
        #expect(empty.render(theme: .colored) == "\(esc)[2mNo accounts yet. Open one with `moa account open`.\(esc)[0m")
    }

    // MARK: Card and key-value rows

    @Test func aLeftAlignedLastColumnLeavesNoTrailingBlanks() {
        let table = Table(columns: [.init("Key"), .init("Requires")], rows: [["DatabaseKey", "—"], ["A", "ClockKey"]])
        let lines = table.render().split(separator: "\n").map(String.init)
        #expect(lines == ["Key" + spaces(10) + "Requires", rule(11) + "  " + rule(8), "DatabaseKey  —", "A" + spaces(12) + "ClockKey"])
    }

    @Test func cardBoxesAHangulTitleByDisplayWidth() {
        let card = Card(title: "생활비 통장", lines: ["잔액  10,000 KRW", "Owner"])
        let lines = card.render().split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "┌─ 생활비 통장 " + rule(4) + "┐",
                "│ 잔액  10,000 KRW │",
                "│ Owner" + spaces(11) + " │",
                "└" + rule(18) + "┘",
            ])
        #expect(lines.allSatisfy { $0.displayWidth == 20 })
    }

    @Test func cardWithoutTitleASCIIAndMaximumWidth() {
        #expect(Card(lines: ["abc"]).render() == "┌─────┐\n│ abc │\n└─────┘")
        #expect(
            Card(title: "Hi", lines: ["abc"]).render(theme: Theme(isColorEnabled: false, glyphs: .ascii))
                == "+- Hi -+\n| abc  |\n+------+")
        let narrow = Card(lines: ["가나다라마바"], maxWidth: 10).render()
        #expect(narrow == "┌────────┐\n│ 가나…  │\n└────────┘")
        let titled = Card(title: "아주 긴 제목입니다", lines: ["x"], maxWidth: 12).render()
        #expect(titled.split(separator: "\n").allSatisfy { String($0).displayWidth == 12 })
    }

    @Test func keyValueRowsAlignValues() {
        let rows = KeyValueRows(["계좌": "생활비 통장", "Balance": "10,000 KRW", "Memo": "line1\nline2", "Empty": ""])
        #expect(
            rows.render() == """
                계좌     생활비 통장
                Balance  10,000 KRW
                Memo     line1
                         line2
                Empty
                """)
        #expect(KeyValueRows(["A": "1"], indent: 2).render() == "  A  1")
        #expect(KeyValueRows(["A": "1"]).render(theme: .colored) == "\(esc)[2mA\(esc)[0m  1")
    }

    // MARK: Amounts

    @Test func amountsAreSignedAndColouredByDirection() {
        let credit = AmountText(Money(minorUnits: 10_000, currency: .krw))
        #expect(credit.plainText == "+10,000 KRW")
        #expect(credit.render() == "+10,000 KRW")
        #expect(credit.render(theme: .colored) == "\(esc)[32m+10,000 KRW\(esc)[0m")

        let debit = AmountText(Money(minorUnits: -1_250, currency: .usd))
        #expect(debit.render() == "-12.50 USD")
        #expect(debit.render(theme: .colored) == "-12.50 USD") // default foreground: no escape

        let zero = AmountText(Money(minorUnits: 0, currency: .krw))
        #expect(zero.render(theme: .colored) == "0 KRW")

        #expect(AmountText(Money(minorUnits: 10_000, currency: .krw), showsCurrency: false).render() == "+10,000")
        let balance = AmountText(Money(minorUnits: 10_000, currency: .krw), kind: .balance)
        #expect(balance.render(theme: .colored) == "10,000 KRW")
    }

    // MARK: Progress

    @Test func progressBarAtZeroHalfAndFull() {
        #expect(ProgressBar(done: 0, total: 10, width: 10).render() == "[░░░░░░░░░░]   0%  0/10")
        #expect(ProgressBar(done: 5, total: 10, width: 10).render() == "[█████░░░░░]  50%  5/10")
        #expect(ProgressBar(done: 10, total: 10, width: 10).render() == "[██████████] 100%  10/10")
        #expect(ProgressBar(done: 1, total: 3, width: 10).render() == "[███░░░░░░░]  33%  1/3")
        #expect(ProgressBar(done: 999, total: 1_000, width: 4, label: "Rows").render() == "Rows [███░]  99%  999/1000")
    }

    @Test func progressBarEdgeCases() {
        #expect(ProgressBar(done: 0, total: 0, width: 10).render() == "[██████████] 100%  0/0")
        #expect(ProgressBar(done: 12, total: 10, width: 4).render() == "[████] 100%  10/10")
        #expect(ProgressBar(done: -3, total: 10, width: 4).render() == "[░░░░]   0%  0/10")
        #expect(ProgressBar(done: Int.max - 1, total: Int.max, width: 4).percent == 99)
        #expect(
            ProgressBar(done: 1, total: 2, width: 4).render(theme: Theme(isColorEnabled: false, glyphs: .ascii))
                == "[##..]  50%  1/2")
        #expect(
            ProgressBar(done: 1, total: 2, width: 2).render(theme: .colored)
                == "[\(esc)[36m█\(esc)[0m\(esc)[2m░\(esc)[0m]  50%  1/2")
    }

    @Test func progressReporterRedrawsInPlaceOnATerminal() {
        let output = CapturingOutput()
        let reporter = ProgressReporter(total: 4, output: output, theme: .plain, isInteractive: true, width: 4)
        reporter.update(done: 1)
        reporter.update(done: 1) // unchanged: no redraw
        reporter.advance()
        reporter.finish()
        reporter.update(done: 4) // after finish: ignored
        #expect(output.text == "\r[█░░░]  25%  1/4\r[██░░]  50%  2/4\n")
    }

    @Test func progressReporterClearsTheRestOfALongerPreviousLine() {
        let output = CapturingOutput()
        let reporter = ProgressReporter(total: 10, output: output, theme: .plain, isInteractive: true, width: 2)
        reporter.update(done: 10)
        reporter.update(done: 9)
        #expect(output.text == "\r[██] 100%  10/10\r[█░]  90%  9/10 ")
    }

    @Test func progressReporterIsSilentOnAPipeUntilFinish() {
        let output = CapturingOutput()
        let reporter = ProgressReporter(total: 4, output: output, theme: .plain, isInteractive: false, width: 4)
        for _ in 0..<3 { reporter.advance() }
        #expect(output.text.isEmpty)
        reporter.finish()
        reporter.finish()
        #expect(output.text == "[███░]  75%  3/4\n")
        #expect(!output.text.contains("\r"))
    }

    @Test func progressReporterLogsEveryStepOnAPipeWhenAsked() {
        let output = CapturingOutput()
        let reporter = ProgressReporter(
            total: 8, output: output, theme: .plain, isInteractive: false, width: 4, logEvery: 25)
        for _ in 0..<8 { reporter.advance() }
        reporter.finish()
        #expect(
            output.text == """
                [█░░░]  25%  2/8
                [██░░]  50%  4/8
                [███░]  75%  6/8
                [████] 100%  8/8

                """)
    }

    // MARK: Errors and output

    @Test func errorsRenderMessageAndHint() {
        let error = InsufficientFundsSample()
        #expect(
            ErrorText(error).render() == """
                error: Insufficient funds: the balance is 5,000 KRW.
                hint: Deposit money first, or send a smaller amount.
                """)
        #expect(
            ErrorText(error).render(theme: .colored) == """
                \(esc)[31;1merror:\(esc)[0m Insufficient funds: the balance is 5,000 KRW.
                \(esc)[36mhint:\(esc)[0m Deposit money first, or send a smaller amount.
                """)
        #expect(ErrorText(message: "No such account.").render() == "error: No such account.")
        #expect(ErrorText(message: "Two problems:\n- a\n- b").render() == "error: Two problems:\n       - a\n       - b")
    }

    @Test func capturingOutputCollectsWrites() {
        let output = CapturingOutput()
        output.write("a")
        output.writeLine("b")
        output.writeLine()
        #expect(output.text == "ab\n\n")
        output.clear()
        #expect(output.text.isEmpty)
    }
}
