import Conformance
import Testing

@testable import RingcheckCLI

/// The banded edit distance behind "did you mean": the same answers as the full table within its limit,
/// none beyond it, and no suggestion for an input longer than any name.
@Suite struct SuggestionTests {
    /// The whole Levenshtein table, as the suggestions computed it before the band.
    static func fullDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for i in stride(from: 1, through: a.count, by: 1) {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    @Test func theBandAgreesWithTheFullTableWithinItsLimit() {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abc.")
        for _ in 0..<2_000 {
            let a = String((0..<Int.random(in: 0...9, using: &generator)).map { _ in letters.randomElement()! })
            let b = String((0..<Int.random(in: 0...9, using: &generator)).map { _ in letters.randomElement()! })
            let limit = Int.random(in: 0...6, using: &generator)
            let full = Self.fullDistance(a, b)
            #expect(Suggestion.distance(a, b, limit: limit) == (full <= limit ? full : nil), "'\(a)' '\(b)' \(limit)")
        }
    }

    @Test func aHugeInputGetsNoSuggestionAndIsEchoedShort() {
        let long = String(repeating: "a", count: 100_000)
        #expect(Suggestion.distance(long, "arbitration.late-answer", limit: 3) == nil)
        #expect(Suggestion.closest(to: long, among: ["a", "aa"], limit: 100_000) == nil)
        #expect(Suggestion.shown(long) == String(repeating: "a", count: 80) + "… (100000 bytes)")
        #expect(
            Suggestion.closest(to: "arbitraton.late-answer", among: ["arbitration.late-answer", "x"], limit: 4)
                == "arbitration.late-answer")
        #expect(RunCommand.closest(to: long, among: ["arbitration.late-answer"]).isEmpty)
        #expect(RunCommand.closest(to: "arbitraton", among: ["arbitration.late-answer"]) == ["arbitration.late-answer"])
    }
}
