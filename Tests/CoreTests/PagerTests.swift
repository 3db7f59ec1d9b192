import CommandKit
import DesignSystem
import Testing

/// Which pager a listing goes through (`MOA_PAGER`, `PAGER`, `less -FRX`); that it starts only on a
/// terminal is `PagerEndToEndTests`' (under a pseudo-terminal).
@Suite("CommandKit: the pager")
struct PagerTests {
    @Test func moaPagerWinsOverPagerWhichWinsOverLess() {
        #expect(Pager.command(environment: [:]) == "less -FRX")
        #expect(Pager.command(environment: ["PAGER": "more"]) == "more")
        #expect(Pager.command(environment: ["PAGER": "more", "MOA_PAGER": "most -s"]) == "most -s")
    }

    @Test func anEmptyPagerOrCatMeansNone() {
        #expect(Pager.command(environment: ["MOA_PAGER": ""]) == nil)
        #expect(Pager.command(environment: ["MOA_PAGER": "  ", "PAGER": "less"]) == nil)
        #expect(Pager.command(environment: ["PAGER": "cat"]) == nil)
    }

    @Test func anOutputThatIsNotATerminalNeverPages() {
        // Standard output of the test process is not a terminal: printPaged writes straight through.
        let out = CapturingOutput()
        let context = CommandContext(out: out, err: CapturingOutput(), environment: ["MOA_PAGER": "false"], paging: true)
        context.printPaged("a long listing")
        #expect(out.text == "a long listing\n")
    }
}
