import Foundation
import Testing

/// Stored text reaches no terminal raw, whichever command shows it (issue 24, item 11): a catalogue
/// event whose title holds ESC, BEL, an 8-bit CSI and a bidi override (written into the database as
/// another program might, past the importer that cleans them) is listed, searched, archived, recommended
/// and shown by every command and by the interactive mode, as text and as JSON — and no byte of it
/// comes out raw.
@Suite("moa · stored text on every command")
struct StoredTextEndToEndTests {
    @Test func noCommandPrintsStoredControlCharactersRaw() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        #expect(try moa.run(["archive", "import", "--sample"]).status == 0)
        // One event that was (to archive: tickets, taste) and one to come (recommendations), both hostile.
        let id = try moa.sql("SELECT id FROM archive_events ORDER BY starts_on ASC LIMIT 1")
        let coming = try moa.sql("SELECT id FROM archive_events ORDER BY starts_on DESC LIMIT 1")
        try moa.sql(
            "UPDATE archive_events SET title = 'Evil ' || char(27) || '[31mRED' || char(7) || char(155) || '2J' || char(8238) || 'x', "
                + "search_text = search_text || ' evil' WHERE id IN ('\(id)', '\(coming)')")
        let archived = try moa.run(["archive", "add", id])
        #expect(archived.status == 0, "\(archived.err)")

        let commands: [(arguments: [String], stdin: String)] = [
            (["archive", "events", "--query", "evil"], ""), (["archive", "events", "--query", "evil", "--json"], ""),
            (["archive", "list"], ""), (["archive", "list", "--json"], ""), (["archive", "taste"], ""),
            (["archive", "taste", "--json"], ""),
            (["archive", "recommend", "--limit", "50"], ""), (["archive", "recommend", "--limit", "50", "--json"], ""),
            (["archive", "add", id], ""), (["archive", "add", id, "--json"], ""), (["inbox", "list"], ""),
            (["inbox", "list", "--json"], ""),
            // The interactive mode, plain and under --json: search the catalogue, open the event, archive it again.
            ([], "2\n2\nevil\n\nn\n3\n1\n4\nnice\n\n0\n0\n0\n0\n0\n"), (["--json"], "2\n2\nevil\n\nn\n3\n1\n4\nnice\n\n0\n0\n0\n0\n0\n"),
        ]
        var shown = 0
        for (arguments, stdin) in commands {
            let result = try moa.run(arguments, stdin: stdin)
            #expect(!BadInputEndToEndTests.hostileBytes(result.out), "\(arguments): \(result.out.debugDescription)")
            #expect(!BadInputEndToEndTests.hostileBytes(result.err), "\(arguments): \(result.err.debugDescription)")
            if result.out.contains("Evil") || result.err.contains("Evil") { shown += 1 }
        }
        // The title was there to be shown (the walk proves something only if commands printed it).
        #expect(shown >= 6, "the stored title was shown by \(shown) commands")
    }
}
