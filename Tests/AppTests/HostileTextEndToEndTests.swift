import Foundation
import Testing

/// Text that one party stores and another's terminal prints (issue C of "Close the trust boundary"):
/// an account name, a deposit memo, an imported catalogue title, each carrying escape sequences, a
/// bell, the 8-bit CSI and a bidi override. Through the real binary, none of them reaches the terminal
/// raw; each is shown as a visible stand-in instead.
@Suite("hostile stored text never reaches the terminal")
struct HostileTextEndToEndTests {
    /// Red text, an OSC window title ended by BEL, an 8-bit "clear screen" and a right-to-left override.
    static let hostile = "b\u{1B}[31mred\u{1B}]0;pwned\u{07}\u{9B}2J\u{202E}evil"

    /// Fails when `text` holds ESC, BEL, the 8-bit CSI or a bidi override.
    static func expectSafe(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let raw = text.unicodeScalars.filter { ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"].contains($0) }
        #expect(raw.isEmpty, "\(what) printed raw control characters: \(text.debugDescription)", sourceLocation: sourceLocation)
    }

    /// `hostile` as an SQL expression (char(…) for each control character).
    static let hostileSQL = "'b' || char(27) || '[31mred' || char(27) || ']0;pwned' || char(7) || char(155) || '2J' || char(8238) || 'evil'"

    @Test("typed input refuses it: an account name or a memo with control characters is bad data, 65")
    func inputRefusesControlCharacters() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        let account = try moa.openAccount(name: "생활비")
        for arguments in [["account", "rename", account, Self.hostile], ["account", "deposit", account, "1,000", "--memo", Self.hostile]] {
            let refused = try moa.run(arguments)
            #expect(refused.status == 65, "\(arguments[1]): \(refused.err)")
            Self.expectSafe(refused.out + refused.err, arguments[1] + "'s refusal")
        }
    }

    @Test("stored anyway (written into the database behind moa's back), it still prints as visible stand-ins")
    func storedControlCharactersNeverReachTheTerminal() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        let account = try moa.openAccount(name: "생활비")
        #expect(try moa.run(["account", "deposit", account, "1,000", "--memo", "lunch"]).status == 0)
        let digits = account.replacingOccurrences(of: "-", with: "")
        try moa.sql(
            "UPDATE account_accounts SET name = \(Self.hostileSQL) WHERE number = '\(digits)';"
                + "UPDATE account_entries SET memo = \(Self.hostileSQL) WHERE memo = 'lunch';")
        for arguments in [["account", "list"], ["account", "show", account], ["account", "history", account]] {
            let shown = try moa.run(arguments)
            #expect(shown.status == 0, "\(arguments): \(shown.err)")
            Self.expectSafe(shown.out + shown.err, arguments.joined(separator: " "))
            #expect(shown.out.contains("b␛[31mred"), "the name is still shown, visibly: \(shown.out)")
        }
        // Colour on (MOA_DISPLAY_COLOR=always): the theme's own colours reach the terminal, the stored ones do
        // not — only the design system's signed sequences pass.
        for arguments in [["account", "list"], ["account", "show", account], ["account", "history", account]] {
            let shown = try moa.run(arguments, environment: ["MOA_DISPLAY_COLOR": "always"])
            #expect(shown.status == 0, "\(arguments): \(shown.err)")
            #expect(shown.out.contains("b␛[31mred"), "the name is still shown, visibly: \(shown.out.debugDescription)")
            #expect(!shown.out.contains("\u{1B}[31mred") && !shown.out.contains("\u{1B}]"), "\(shown.out.debugDescription)")
            let raw = shown.out.unicodeScalars.filter { ["\u{07}", "\u{9B}", "\u{202E}"].contains($0) }
            #expect(raw.isEmpty, "\(arguments): \(shown.out.debugDescription)")
            if arguments[1] == "history" { #expect(shown.out.contains("\u{1B}[32m"), "colour is on: \(shown.out.debugDescription)") }
        }
        // --json stays exact: the stored bytes, escaped by JSON.
        let json = try moa.run(["account", "list", "--json"])
        #expect(json.out.contains(#"b\u001b[31mred"#), "\(json.out)")
    }

    @Test("an imported catalogue title, in archive events")
    func catalogueTitle() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let file = moa.home.appendingPathComponent("hostile.json")
        let title = String(data: try JSONEncoder().encode(Self.hostile), encoding: .utf8) ?? "\"\""
        let catalogue = """
            {"culturalEventInfo": {"list_total_count": 1, "RESULT": {"CODE": "INFO-000", "MESSAGE": "ok"}, "row": [
              {"CODENAME": "연극", "GUNAME": "종로구", "TITLE": \(title), "DATE": "2026-11-10~2027-01-04",
               "PLACE": "대학로", "ORG_NAME": "극단", "USE_TRGT": "누구나", "USE_FEE": "", "PLAYER": "", "PROGRAM": "",
               "ETC_DESC": "", "ORG_LINK": "", "MAIN_IMG": "", "RGSTDATE": "2026-09-01", "TICKET": "시민",
               "STRTDATE": "2026-11-10 00:00:00.0", "END_DATE": "2027-01-04 00:00:00.0", "THEMECODE": "기타",
               "LOT": "37.5", "LAT": "126.9", "IS_FREE": "무료", "HMPG_ADDR": ""}]}}
            """
        try FileManager.default.createDirectory(at: moa.home, withIntermediateDirectories: true)
        try Data(catalogue.utf8).write(to: file)
        let imported = try moa.run(["archive", "import", file.path])
        #expect(imported.status == 0, "\(imported.err)")
        Self.expectSafe(imported.out + imported.err, "archive import")
        let events = try moa.run(["archive", "events"])
        #expect(events.status == 0, "\(events.err)")
        Self.expectSafe(events.out + events.err, "archive events")
        #expect(events.out.contains("red"), "the event is listed: \(events.out)")
    }
}
