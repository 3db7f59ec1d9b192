import Foundation
import Testing

/// Every command's `--json`, once, on one home: a session from sign-up to deletion. Each run must
/// succeed and print JSON; with `MOA_JSON_CAPTURE` set (as `.ci/run` does), every output is kept and
/// `Scripts/check-json-schemas` validates it against the command's schema in docs/json — with the
/// `--json` output of every other end-to-end test.
@Suite("moa · every command's --json")
struct JSONOutputEndToEndTests {
    static let email = "json@example.com"
    static let password = "a long passphrase nobody guesses"

    /// Runs `moa ARGUMENTS --json`; it must exit 0 and print one JSON document (or JSON lines).
    @discardableResult
    static func json(_ moa: MoaProcess, _ arguments: [String], stdin: String = "", sourceLocation: SourceLocation = #_sourceLocation)
        throws -> Any
    {
        let result = try moa.run(arguments + ["--json"], stdin: stdin)
        #expect(result.status == 0, "moa \(arguments.joined(separator: " ")): \(result.err)", sourceLocation: sourceLocation)
        let text = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
        if let document = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) { return document }
        let lines = try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
        #expect(!lines.isEmpty, "moa \(arguments.joined(separator: " ")) printed no JSON", sourceLocation: sourceLocation)
        return lines
    }

    @Test func everyCommandPrintsJSON() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try Self.json(moa, ["auth", "signup", "--email", Self.email, "--password-stdin"], stdin: Self.password)
        let code = try moa.mailedCode(to: Self.email)
        try Self.json(moa, ["auth", "verify", "--email", Self.email, "--code", code, "--password-stdin"], stdin: Self.password)
        try Self.json(moa, ["auth", "login", "--email", Self.email, "--password-stdin"], stdin: Self.password)
        try Self.json(moa, ["auth", "whoami"])
        try Self.json(moa, ["auth", "pin", "status"])
        try Self.json(moa, ["auth", "pin", "set", "--pin-stdin"], stdin: "480917\n480917\n")
        try Self.json(moa, ["auth", "pin", "remove", "--password-stdin"], stdin: Self.password)

        try Self.json(moa, ["settings", "list"])
        try Self.json(moa, ["settings", "get", "display.page-size"])
        try Self.json(moa, ["settings", "set", "display.page-size", "30"])
        try Self.json(moa, ["settings", "reset", "display.page-size"])

        let opened = try #require(try Self.json(moa, ["account", "open", "--type", "checking", "--name", "Main"]) as? [String: Any])
        let main = try #require(opened["number"] as? String)
        let other = try #require(
            (try Self.json(moa, ["account", "open", "--type", "savings", "--name", "Other"]) as? [String: Any])?["number"] as? String)
        try Self.json(moa, ["account", "list"])
        try Self.json(moa, ["account", "rename", other, "Rainy day"])
        try Self.json(moa, ["account", "deposit", main, "1,000,000", "--memo", "pay"])
        try Self.json(moa, ["account", "withdraw", main, "10,000"])
        try Self.json(moa, ["account", "show", main])
        try Self.json(moa, ["account", "history", main])

        let sent = try #require(
            try Self.json(moa, ["transfer", "send", "--from", main, "--to", other, "50,000", "--memo", "save"]) as? [String: Any])
        let transfer = try #require(sent["id"] as? String)
        try Self.json(moa, ["transfer", "show", transfer])
        try Self.json(moa, ["transfer", "list"])
        try Self.json(moa, ["transfer", "recipients", "add", other, "--alias", "rainy"])
        try Self.json(moa, ["transfer", "recipients", "list"])
        let batch = moa.home.appendingPathComponent("batch.csv")
        try "from,to,amount,memo\n\(main),\(other),1000,one\n\(main),\(other),2000,two\n".write(
            to: batch, atomically: true, encoding: .utf8)
        try Self.json(moa, ["transfer", "batch", batch.path])
        try Self.json(moa, ["transfer", "recipients", "remove", "rainy"])

        try Self.json(moa, ["inbox"])
        let page = try #require(try Self.json(moa, ["inbox", "list"]) as? [String: Any])
        let notice = try #require((page["notices"] as? [[String: Any]])?.first?["id"] as? Int)
        try Self.json(moa, ["inbox", "read", String(notice)])
        try Self.json(moa, ["inbox", "read", "--all"])

        try Self.json(moa, ["archive", "import", "--sample"])
        let events = try #require(try Self.json(moa, ["archive", "events"]) as? [String: Any])
        let event = try #require((events["events"] as? [[String: Any]])?.first?["id"] as? String)
        try Self.json(moa, ["search", "events", "--text", "서울"])
        let ticket = try #require(try Self.json(moa, ["archive", "add", event, "--rating", "5"]) as? [String: Any])
        try Self.json(moa, ["archive", "list"])
        try Self.json(moa, ["archive", "taste"])
        try Self.json(moa, ["archive", "recommend"])
        try Self.json(moa, ["archive", "preferences", "choices"])
        try Self.json(moa, ["archive", "preferences", "set", "--districts", "종로구", "--categories", "전시/미술"])
        try Self.json(moa, ["archive", "preferences", "show"])
        try Self.json(moa, ["archive", "preferences", "clear"])
        try Self.json(moa, ["archive", "export", "--format", "json", "--output", moa.home.appendingPathComponent("tickets.json").path])
        try Self.json(moa, ["archive", "remove", try #require(ticket["id"] as? String)])

        try Self.json(moa, ["search", "status"])
        try Self.json(moa, ["search", "logout"])
        try Self.json(moa, ["doctor"])

        try Self.json(moa, ["account", "withdraw", other, "53,000"])
        try Self.json(moa, ["account", "close", other])
        try Self.json(moa, ["auth", "logout"])
    }

    @Test func aMoneyNoticeGivesItsTransferAsFields() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn(Self.email, password: Self.password)
        let main = try moa.openAccount(name: "Main")
        let other = try moa.openAccount("savings", name: "Other")
        try moa.run(["account", "deposit", main, "3,000,000"])
        // At or above notifications.large-transfer (1,000,000 KRW): a "large transfer sent" notice.
        let sent = try #require(try Self.json(moa, ["transfer", "send", "--from", main, "--to", other, "1,500,000"]) as? [String: Any])
        let page = try #require(try Self.json(moa, ["inbox", "list"]) as? [String: Any])
        let notice = try #require((page["notices"] as? [[String: Any]])?.first { $0["kind"] as? String == "large-transfer-sent" })
        let transfer = try #require(notice["transfer"] as? [String: Any])
        let amount = try #require(transfer["amount"] as? [String: Any])
        #expect(amount["minor_units"] as? Int == 1_500_000 && amount["currency"] as? String == "KRW")
        #expect(transfer["from"] as? String == main && transfer["to"] as? String == other)
        #expect(transfer["transfer_id"] as? String == sent["id"] as? String)
        // A notice about something else has none.
        let login = try #require((page["notices"] as? [[String: Any]])?.first { $0["kind"] as? String == "new-login" })
        #expect(login["transfer"] is NSNull)
    }
}
