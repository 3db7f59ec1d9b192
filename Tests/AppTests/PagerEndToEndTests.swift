import Foundation
import Testing

/// Long listings page like every other terminal tool: through `MOA_PAGER` (else `PAGER`, else
/// `less -FRX`) when standard output is a terminal — here a pseudo-terminal made by util-linux's
/// `script` — and never when it is a pipe, with `--json`, or with `--no-pager`.
@Suite("moa · the pager", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
struct PagerEndToEndTests {
    /// A home with an account whose history is long (30 deposits), and a pager that records what it
    /// was given in `paged`.
    struct Setup {
        let moa: MoaProcess
        let account: String
        let paged: URL
        var pager: [String: String] { ["MOA_PAGER": "cat > '\(paged.path)'", "PAGER": "false"] }

        init() throws {
            moa = try MoaProcess()
            try moa.loggedIn()
            account = try moa.openAccount(name: "Pages")
            for day in 1...30 { try moa.run(["account", "deposit", account, "\(day),000", "--memo", "deposit \(day)"]) }
            paged = moa.home.appendingPathComponent("paged.txt")
        }

        func pagedText() -> String? { try? String(contentsOf: paged, encoding: .utf8) }
    }

    @Test func onATerminalALongHistoryGoesThroughThePager() throws {
        let setup = try Setup()
        defer { setup.moa.remove() }
        let result = try setup.moa.runOnTerminal(["account", "history", setup.account, "--limit", "30"], environment: setup.pager)
        #expect(result.status == 0, "\(result.out)")
        let paged = try #require(setup.pagedText(), "the pager did not start")
        #expect(paged.contains("deposit 30") && paged.contains("deposit 1"))
        // The pager had the listing; the terminal did not get it a second time.
        #expect(!result.out.contains("deposit 30"))
    }

    @Test func pipedNothingPages() throws {
        let setup = try Setup()
        defer { setup.moa.remove() }
        let piped = try setup.moa.run(["account", "history", setup.account, "--limit", "30"], environment: setup.pager)
        #expect(piped.status == 0 && piped.out.contains("deposit 30"))
        #expect(setup.pagedText() == nil)
    }

    @Test func noPagerJSONAndAnEmptyPagerPrintStraightToTheTerminal() throws {
        let setup = try Setup()
        defer { setup.moa.remove() }
        for (arguments, extra) in [
            (["--no-pager"], setup.pager), (["--json"], setup.pager), ([], ["MOA_PAGER": "", "PAGER": "false"]),
        ] {
            let result = try setup.moa.runOnTerminal(
                ["account", "history", setup.account, "--limit", "30"] + arguments, environment: extra)
            #expect(result.status == 0)
            #expect(result.out.contains("deposit 30"), "\(arguments)")
            #expect(setup.pagedText() == nil, "\(arguments) paged")
        }
    }

    @Test func transfersEventsAndTheInboxPageToo() throws {
        let setup = try Setup()
        defer { setup.moa.remove() }
        try setup.moa.run(["archive", "import", "--sample"])
        for arguments in [["transfer", "list"], ["archive", "events"], ["search", "events"], ["inbox"]] {
            try? FileManager.default.removeItem(at: setup.paged)
            let result = try setup.moa.runOnTerminal(arguments, environment: setup.pager)
            #expect(result.status == 0, "\(arguments): \(result.out)")
            #expect(setup.pagedText() != nil, "\(arguments) did not page")
        }
    }

    @Test func aPagerThatSetsUpTheTerminalRunsInTheForeground() throws {
        // `stty` (like less) changes the terminal: a pager started in a process group of its own is
        // stopped by SIGTTOU, and moa would wait for it forever.
        let setup = try Setup()
        defer { setup.moa.remove() }
        let result = try setup.moa.runOnTerminal(
            ["account", "history", setup.account, "--limit", "30"],
            environment: ["MOA_PAGER": "stty sane; cat > '\(setup.paged.path)'", "PAGER": "false"])
        #expect(result.status == 0, "\(result.out)")
        #expect(setup.pagedText()?.contains("deposit 30") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/less")))
    func theDefaultLessQuitsAtOnceOnAShortListing() throws {
        // `less -FRX`, the default, on a listing that fits the screen: shown, and moa ends.
        let setup = try Setup()
        defer { setup.moa.remove() }
        let result = try setup.moa.runOnTerminal(
            ["account", "history", setup.account, "--limit", "3"], environment: ["MOA_PAGER": "less -FRX"])
        #expect(result.status == 0, "\(result.out)")
        #expect(result.out.contains("deposit 30"))
    }

    @Test func aPagerThatDoesNotExistLeavesTheListingOnTheTerminal() throws {
        let setup = try Setup()
        defer { setup.moa.remove() }
        let result = try setup.moa.runOnTerminal(
            ["account", "history", setup.account, "--limit", "30"], environment: ["MOA_PAGER": "no-such-pager-\(UUID().uuidString)"])
        #expect(result.status == 0)
        #expect(result.out.contains("deposit 30"))
    }
}
