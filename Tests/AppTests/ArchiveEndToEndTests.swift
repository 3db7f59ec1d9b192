import Foundation
import Testing

@Suite("moa archive and event search end to end")
struct ArchiveEndToEndTests {
    @Test func anEmptyCatalogueSaysHowToImportAndTheSampleFillsIt() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let empty = try moa.run(["search", "events"])
        #expect(empty.out.contains("moa archive import") || empty.err.contains("moa archive import"))

        let imported = try moa.run(["archive", "import", "--sample", "--json"])
        #expect(imported.status == 0, "\(imported.err)")
        let report = try JSONSerialization.jsonObject(with: Data(imported.out.utf8)) as? [String: Any]
        #expect((report?["new"] as? Int ?? 0) > 0)

        let again = try moa.run(["archive", "import", "--sample", "--json"])
        let second = try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any]
        #expect(second?["new"] as? Int == 0) // idempotent: nothing duplicated
        #expect(second?["unchanged"] as? Int == report?["new"] as? Int)

        let jongno = try moa.run(["search", "events", "--region", "종로구", "--json"])
        #expect(jongno.status == 0, "\(jongno.err)")
        #expect(jongno.out.contains("종로구"))
        #expect(!jongno.out.contains("\"district\" : \"중구\""))
    }

    @Test func ticketsNeedALoginAndFeedTheTasteCard() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.run(["archive", "import", "--sample"])
        #expect(try moa.run(["archive", "list"]).status == 77)
        try moa.loggedIn()
        let added = try moa.run([
            "archive", "add", "--title", "연극 '햄릿'", "--category", "연극", "--region", "종로구",
            "--date", "2025-05-01", "--rating", "5",
        ])
        #expect(added.status == 0, "\(added.err)")
        let taste = try moa.run(["archive", "taste", "--json"])
        #expect(taste.status == 0, "\(taste.err)")
        #expect(taste.out.contains("종로구"))
    }
}
