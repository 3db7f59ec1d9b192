import Foundation
import Testing
import TransferFeature
import TransferInterface

@Suite("moa transfer recipients …, send --to @alias")
struct RecipientsCommandTests {
    @Test func addListAndRemoveAFavourite() async throws {
        let f = try CommandFixture()
        let added = try await f.run(["recipients", "add", f.h.bobs.digits, "--alias", "bob"])
        #expect(added.status == 0, "\(added.err)")
        #expect(added.out.contains("Saved @bob → \(f.h.bobs.description)."))

        let list = try await f.run(["recipients"])
        #expect(list.status == 0)
        #expect(list.out.contains("Favourites"))
        #expect(list.out.contains("@bob") && list.out.contains(f.h.bobs.description) && list.out.contains("2026-01-01"))
        #expect(list.out.contains("Recent recipients") && list.out.contains("No transfers yet."))

        let removed = try await f.run(["recipients", "remove", "@BOB"])
        #expect(removed.status == 0)
        #expect(removed.out.contains("Removed @bob (\(f.h.bobs.description))"))
        let empty = try await f.run(["recipients", "list"])
        #expect(empty.out.contains("No favourites yet"))
    }

    @Test func listJSONHasFavouritesAndRecentsWithStableFields() async throws {
        let f = try CommandFixture()
        _ = try await f.run(["recipients", "add", f.h.bobs.description, "--alias", "Bob"])
        _ = try await f.run(["send", "--from", f.h.checking.description, "--to", f.h.savings.description, "1,000"])
        _ = try await f.run(["send", "--from", f.h.checking.description, "--to", f.h.bobs.description, "1,000"])
        for arguments in [["recipients", "--json"], ["recipients", "list", "--json"]] {
            let run = try await f.run(arguments)
            #expect(run.status == 0, "\(run.err)")
            let json = try run.json()
            let favourites = try #require(json["favourites"] as? [[String: Any]])
            #expect(favourites.count == 1)
            #expect(Set(favourites[0].keys) == ["alias", "account_number", "added_at"])
            #expect(favourites[0]["alias"] as? String == "Bob")
            #expect(favourites[0]["account_number"] as? String == f.h.bobs.description)
            #expect(favourites[0]["added_at"] as? String == "2026-01-01T00:00:00Z")
            let recents = try #require(json["recents"] as? [[String: Any]])
            #expect(recents.compactMap { $0["account_number"] as? String } == [f.h.bobs.description, f.h.savings.description])
            #expect(recents.first?["alias"] as? String == "Bob")
            #expect(recents.last?["alias"] is NSNull)
            #expect(recents.first?["last_sent_at"] as? String == "2026-01-01T00:00:00Z")
        }
    }

    @Test func refusalsSayWhatIsWrongWithTheirStatus() async throws {
        let f = try CommandFixture()
        _ = try await f.run(["recipients", "add", f.h.bobs.description, "--alias", "bob"])
        let taken = try await f.run(["recipients", "add", f.h.savings.description, "--alias", "BOB"])
        #expect(taken.status == 1)
        #expect(taken.err.hasPrefix("error: You already have a favourite called @bob (\(f.h.bobs.description)).\n"))
        let again = try await f.run(["recipients", "add", f.h.bobs.digits, "--alias", "bobby"])
        #expect(again.status == 1)
        #expect(again.err.contains("\(f.h.bobs.description) is already one of your favourites, as @bob."))
        let badAlias = try await f.run(["recipients", "add", f.h.savings.description, "--alias", "my savings"])
        #expect(badAlias.status == 65)
        #expect(badAlias.err.contains("“my savings” is not a usable alias"))
        let typo = try await f.run(["recipients", "add", "110-0000-0003-2", "--alias", "typo"])
        #expect(typo.status == 65)
        let unknown = try await f.run(["recipients", "remove", "carol"])
        #expect(unknown.status == 69)
        #expect(unknown.err.hasPrefix("error: You have no favourite recipient called @carol.\n"))
    }

    @Test func sendToAnAliasAndRefuseAnUnknownOne() async throws {
        let f = try CommandFixture()
        _ = try await f.run(["recipients", "add", f.h.bobs.description, "--alias", "bob"])
        let sent = try await f.run(["send", "--from", f.h.checking.description, "--to", "@bob", "50,000", "--json"])
        #expect(sent.status == 0, "\(sent.err)")
        #expect(try sent.json()["to"] as? String == f.h.bobs.description)
        let refused = try await f.run(["send", "--from", f.h.checking.description, "--to", "@carol", "50,000"])
        #expect(refused.status == 69)
        #expect(refused.err.hasPrefix("error: You have no favourite recipient called @carol, so nothing was sent.\n"))
        #expect(f.h.accounts.postings.count == 1)
    }

    @Test func aBatchRowMaySendToAnAlias() async throws {
        let f = try CommandFixture()
        _ = try await f.run(["recipients", "add", f.h.bobs.description, "--alias", "bob"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recipients-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try """
        from,to,amount
        \(f.h.checking.description),@bob,1000
        \(f.h.checking.description),@nobody,1000
        """.write(to: file, atomically: true, encoding: .utf8)
        let run = try await f.run(["batch", file.path])
        #expect(run.status == 1)
        #expect(run.out.contains("You have no favourite recipient called @nobody, so nothing was sent."))
        #expect(f.h.accounts.postings.map(\.to) == [f.h.bobs])
    }
}
