import Foundation
import Testing

/// `moa tour` is also an end-to-end test of the composed app: every feature, in one process, on a
/// throwaway home. No network: user search points at a closed port, so the tour must skip it.
@Suite("moa tour")
struct TourTests {
    /// Where nothing listens: connecting is refused at once.
    static let closedSearchAPI = "http://127.0.0.1:9"

    /// Runs `moa tour ARGUMENTS` with its temporary folder inside the test's own folder.
    static func tour(_ moa: MoaProcess, _ arguments: [String] = []) throws -> (result: MoaProcess.Result, temporary: URL) {
        let temporary = moa.home.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try moa.run(
            ["tour"] + arguments,
            environment: [
                "TMPDIR": temporary.path,
                "MOA_SEARCH_API_BASE_URL": closedSearchAPI,
                // The person's own settings variables must not change the script.
                "MOA_DISPLAY_PAGE_SIZE": "50",
                "MOA_TRANSFER_PER_TRANSFER_LIMIT": "9,000,000",
                "MOA_DISPLAY_LANGUAGE": "ko",
            ])
        return (result, temporary)
    }

    @Test func theTourShowsEveryFeatureAndExitsZero() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let (result, temporary) = try Self.tour(moa)
        let out = result.out
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err.isEmpty)

        // Every step, in order.
        let headers = [
            "1/11 Sign up", "2/11 Two accounts and a deposit", "3/11 A transfer", "4/11 Settings",
            "5/11 A refused transfer", "6/11 Events", "7/11 Tickets", "8/11 Taste card",
            "9/11 Recommendations", "10/11 Search", "11/11 Inbox",
        ]
        let positions = headers.map { out.range(of: $0)?.lowerBound }
        for (header, position) in zip(headers, positions) { #expect(position != nil, "missing step \(header)") }
        let found = positions.compactMap { $0 }
        #expect(found == found.sorted(), "the steps are in order")

        // 1. Sign-up through the interactive entry, the code from the outbox, verified, logged in.
        #expect(out.contains("A verification code is on its way to tour@moa.example."))
        #expect(ScreenText.line(in: out, containing: ["Code from the e-mail (empty to stop): ", "(read from outbox/", "-verify.eml)"]))
        #expect(out.contains("tour@moa.example is verified."))
        #expect(out.contains("Logged in as tour@moa.example."))
        #expect(!out.contains("a minute with every feature of moa"), "the passphrase is typed, never shown")

        // 2–3. Accounts, a deposit, a transfer and its receipt.
        #expect(out.contains("$ moa account open --type checking --name '생활비 통장'"))
        #expect(ScreenText.line(in: out, containing: ["Opened checking account", "“생활비 통장” in KRW."]))
        #expect(ScreenText.line(in: out, containing: ["Opened savings account", "“비상금” in KRW."]))
        #expect(ScreenText.line(in: out, containing: ["Deposited 2,500,000 KRW — balance of", ": 2,500,000 KRW"]))
        #expect(ScreenText.line(in: out, containing: ["Saved @savings → ", "moa transfer send --to @savings"]))
        #expect(out.contains("--to @savings 300,000 --memo 비상금"))
        #expect(out.contains("┌─ Transfer sent ─"))
        #expect(ScreenText.line(in: out, containing: ["│ Amount", "300,000 KRW"]))
        #expect(ScreenText.line(in: out, containing: ["│ New balance", "2,200,000 KRW"]))
        #expect(ScreenText.line(in: out, containing: ["│ Transfer ID"]))

        // 4–5. Settings change, then the refusal as the person sees it; nothing moved.
        #expect(out.contains("display.page-size = 5 (saved for tour@moa.example)"))
        #expect(out.contains("transfer.per-transfer-limit = 1,000,000 KRW (saved for tour@moa.example)"))
        #expect(
            out.contains(
                "error: 1,500,000 KRW is above the per-transfer limit of 1,000,000 KRW.\nhint: Split it, or raise transfer.per-transfer-limit with `moa settings set`.\n(exit 1: refused by a business rule)"
            ))
        let afterRefusal = ScreenText.section(of: out, from: "5/11 A refused transfer", to: "6/11 Events")
        #expect(ScreenText.line(in: afterRefusal, containing: ["생활비 통장", "checking", "2,200,000 KRW", "open"]))
        #expect(ScreenText.line(in: afterRefusal, containing: ["비상금", "savings", "300,000 KRW", "open"]))

        // 6. The bundled sample, five per page (the setting of step 4, not MOA_DISPLAY_PAGE_SIZE).
        #expect(ScreenText.line(in: out, containing: ["│ Catalogue", "10 events"]))
        #expect(ScreenText.line(in: out, containing: ["Skipped because"]))
        #expect(out.contains("Page 1 of 2 · 10 events · next: --page 2"))

        // 7. Two tickets.
        let tickets = ScreenText.section(of: out, from: "7/11 Tickets", to: "8/11 Taste card")
        #expect(tickets.components(separatedBy: "\nArchived “").count - 1 == 2)
        #expect(ScreenText.line(in: tickets, containing: ["rated 5/5", "as ticket"]))
        #expect(ScreenText.line(in: tickets, containing: ["rated 4/5", "as ticket"]))

        // 8. The taste card.
        #expect(ScreenText.line(in: out, containing: ["┌─ Your taste · 2 tickets · as of "]))
        for part in ["│ Top categories", "│ Top districts", "│ Weekdays", "│ Free vs paid", "│ Average rating 4.5 (2 rated)."] {
            #expect(out.contains(part), "taste card: \(part)")
        }

        // 9. Recommendations, each with its reason.
        let recommendations = ScreenText.section(of: out, from: "9/11 Recommendations", to: "10/11 Search").components(separatedBy: "\n")
        #expect(recommendations.contains { $0.hasPrefix("Recommended for you · from your 2 tickets · as of ") })
        let first = try #require(recommendations.firstIndex { $0.hasPrefix("1. ") && $0.contains("score ") })
        #expect(recommendations.indices.contains(first + 2))
        if recommendations.indices.contains(first + 2) {
            let place = recommendations[first + 1]
            let reason = recommendations[first + 2]
            #expect(place.hasPrefix("   ") && place.contains("  id "))
            #expect(reason.hasPrefix("   ") && reason.lowercased().contains("your") && reason.contains("ticket"), "reason line: \(reason)")
        }

        // 10. Event search always; user search skipped without a reachable server, in one line.
        #expect(out.contains("$ moa search events --region 종로구 --paid"))
        #expect(out.contains("page 1 of 1 · 3 events"))
        #expect(out.contains("User search skipped: \(Self.closedSearchAPI) did not answer ("))
        #expect(!out.contains("$ moa search users"))

        // 11. The inbox holds the new-login notice Auth published at sign-in, then it is all read.
        let inbox = ScreenText.section(of: out, from: "11/11 Inbox", to: "Ledger OK")
        #expect(inbox.contains("Inbox · 1 unread"))
        #expect(ScreenText.line(in: inbox, containing: ["●", "New login to tour@moa.example"]))
        #expect(inbox.contains("Marked 1 notice as read."))

        // The ledger is sound; the home is gone; the person's home was never touched.
        #expect(out.contains("Ledger OK: 2 accounts, 4 entries"))
        #expect(out.contains("The tour's home was removed"))
        #expect(!out.contains("\u{1B}["), "no colour when stdout is not a terminal")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: moa.home.appendingPathComponent("moa.sqlite").path))
    }

    @Test func keepLeavesTheHomeWithTheDemoUserLoggedIn() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let (result, temporary) = try Self.tour(moa, ["--keep"])
        #expect(result.status == 0, "stderr: \(result.err)")
        let line = try #require(result.out.components(separatedBy: "\n").first { $0.hasPrefix("The tour's home is kept at ") })
        let path = String(line.dropFirst("The tour's home is kept at ".count).prefix { $0 != ":" })
        #expect(path.hasPrefix(temporary.path))
        #expect(FileManager.default.fileExists(atPath: path + "/moa.sqlite"))

        let list = try moa.run(["--home", path, "account", "list", "--json"])
        #expect(list.status == 0, "stderr: \(list.err)")
        let accounts = try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]] ?? []
        let balances = accounts.compactMap { ($0["balance"] as? [String: Any])?["minor_units"] as? Int }.sorted()
        #expect(balances == [300_000, 2_200_000])
    }

    @Test func theTourHasNoJSONAndNeverTakesAHome() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let json = try moa.run(["tour", "--json"])
        #expect(json.status == 64)
        #expect(json.err.contains("no --json output"))
        let home = try moa.run(["tour", "--home", moa.home.path])
        #expect(home.status == 64)
        #expect(home.err.contains("The tour never uses a home of yours"))
        #expect(!FileManager.default.fileExists(atPath: moa.home.appendingPathComponent("moa.sqlite").path))
    }
}
