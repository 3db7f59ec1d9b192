import Testing

@Suite("Scripts/graph")
struct GraphTests {
    @Test("docs/module-graph.md is what Scripts/graph generates")
    func committedGraphIsUpToDate() throws {
        let result = try Scripts.run("graph", ["--check"])
        #expect(result.status == 0, "\(result)")
    }
}
