import Testing

@testable import Conformance

@Suite struct ScenarioSelectionTests {
    func scenario(_ id: String, tags: [String] = []) -> Scenario {
        Scenario(id: id, title: id, requirements: ["CALLX-ARB-1"], tags: tags, steps: [])
    }

    @Test func globs() {
        #expect(ScenarioSelection.glob("arbitration.*", matches: "arbitration.two-devices"))
        #expect(ScenarioSelection.glob("*.late-*", matches: "arbitration.late-answer"))
        #expect(ScenarioSelection.glob("a?c.x", matches: "abc.x"))
        #expect(!ScenarioSelection.glob("arbitration", matches: "arbitration.two"))
        #expect(ScenarioSelection.glob("*", matches: ""))
        #expect(!ScenarioSelection.glob("a*b", matches: "acd"))
    }

    @Test func filtersByPatternAndTagAndReportsUnmatched() {
        let all = [scenario("b.two", tags: ["race"]), scenario("a.one"), scenario("b.three", tags: ["smoke"])]
        let picked = ScenarioSelection(patterns: ["b.*", "zz.*"], tags: ["race", "smoke"]).apply(to: all)
        #expect(picked.scenarios.map(\.id) == ["b.three", "b.two"])
        #expect(picked.unmatchedPatterns == ["zz.*"])
    }

    @Test func shardsPartitionDeterministically() {
        let all = (0..<10).map { scenario("s.n\($0)") }.shuffled()
        var union: [String] = []
        for i in 1...3 {
            let part = ScenarioSelection(shard: (i, 3)).apply(to: all).scenarios.map(\.id)
            #expect(part.count == (i == 1 ? 4 : 3))
            #expect(part == ScenarioSelection(shard: (i, 3)).apply(to: all.reversed()).scenarios.map(\.id))
            union += part
        }
        #expect(union.sorted() == all.map(\.id).sorted())
        #expect(ScenarioSelection.parseShard("2/3")! == (2, 3))
        for bad in ["0/3", "4/3", "1/0", "x/2", "1/2/3", ""] { #expect(ScenarioSelection.parseShard(bad) == nil) }
    }
}
