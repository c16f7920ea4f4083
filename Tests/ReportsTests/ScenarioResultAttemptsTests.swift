import Testing

@testable import Reports

/// `ScenarioResult.combining(_:)`: what `--repeat` makes of one scenario's attempts.
@Suite struct ScenarioResultAttemptsTests {
    typealias F = ReportFixtures

    /// One attempt as the engine returns it.
    static func attempt(
        _ status: ScenarioStatus, ms: Double = 100, failures: [CheckFailure] = [], note: String = "",
        spreads: [Double] = []
    ) -> ScenarioResult {
        ScenarioResult(
            id: "arbitration.race", title: "Race", requirements: ["CALLX-ARB-1"], tags: ["race"], status: status,
            durationMs: ms, failures: failures,
            timeline: [TimelineItem(atMs: 0, kind: .note, actor: "ringcheck", summary: note)],
            rerunCommand: "ringcheck run arbitration.race", raceSpreadsMs: spreads)
    }

    static let finding = [F.failure("CALLX-ARB-1", .must)]

    @Test func oneAttemptComesBackAsItIs() {
        for status in [
            ScenarioStatus.pass, .notApplicable(reason: "no faults"), .error(message: "x"), .timeout(message: "y"),
        ] {
            let one = Self.attempt(status, spreads: [0.2])
            #expect(ScenarioResult.combining([one]) == one)
        }
        let failed = Self.attempt(.fail, failures: Self.finding)
        #expect(ScenarioResult.combining([failed]) == failed)
        #expect(failed.attempts == 1 && failed.passedAttempts == 0)
        let flaky = ScenarioResult.combining([Self.attempt(.pass), failed])
        #expect(ScenarioResult.combining([flaky]) == flaky)
    }

    @Test func passedAndFailedIsFlakyShowingTheFirstFailure() {
        let combined = ScenarioResult.combining([
            Self.attempt(.pass, ms: 90, note: "first"),
            Self.attempt(.timeout(message: "slow"), ms: 300, note: "second"),
            Self.attempt(.fail, ms: 120, failures: Self.finding, note: "third"),
            Self.attempt(.fail, ms: 110, failures: [F.failure("CALLX-APNS-5", .must)], note: "fourth"),
        ])
        #expect(combined.status == .flaky && combined.status.isFailure)
        #expect(combined.attempts == 4 && combined.passedAttempts == 1)
        // A failing attempt is shown before an earlier timeout: it is what the backend did wrong.
        #expect(combined.failures == Self.finding)
        #expect(combined.timeline.map(\.summary) == ["third"])
        #expect(combined.durationMs == 300)
        #expect(combined.id == "arbitration.race" && combined.rerunCommand == "ringcheck run arbitration.race")
    }

    @Test func withoutAFailureTheFirstAttemptThatDidNotPassIsShown() {
        let combined = ScenarioResult.combining([
            Self.attempt(.pass, note: "first"), Self.attempt(.error(message: "unreachable"), note: "second"),
            Self.attempt(.timeout(message: "slow"), note: "third"),
        ])
        // Passing and not passing is flaky whatever the other attempts were.
        #expect(combined.status == .flaky)
        #expect(combined.timeline.map(\.summary) == ["second"])
        let neverPassed = ScenarioResult.combining([
            Self.attempt(.timeout(message: "slow"), note: "first"),
            Self.attempt(.error(message: "down"), note: "second"),
        ])
        #expect(neverPassed.status == .timeout(message: "slow"))
        #expect(neverPassed.passedAttempts == 0 && neverPassed.attempts == 2)
    }

    @Test func allPassingShowsTheLastAttempt() {
        let combined = ScenarioResult.combining([
            Self.attempt(.pass, ms: 80, note: "first", spreads: [0.1]),
            Self.attempt(.pass, ms: 95, note: "second", spreads: [0.3, 0.2]),
        ])
        #expect(combined.status == .pass)
        #expect(combined.attempts == 2 && combined.passedAttempts == 2)
        #expect(combined.timeline.map(\.summary) == ["second"])
        #expect(combined.durationMs == 95)
        #expect(combined.raceSpreadsMs == [0.1, 0.3, 0.2])
    }

    @Test func aFailureWithoutAFindingIsAHarnessError() {
        let empty = Self.attempt(.fail)
        #expect(ScenarioResult.combining([empty]).status == .error(message: "failed without a finding"))
        // Also when another attempt passed: it says nothing about the backend, so it is not flaky either.
        let mixed = ScenarioResult.combining([Self.attempt(.pass), empty])
        #expect(mixed.status == .error(message: "failed without a finding"))
        #expect(mixed.passedAttempts == 1)
    }

    @Test func combinedAttemptsDecideTheRunVerdict() {
        let flaky = ScenarioResult.combining([Self.attempt(.pass), Self.attempt(.fail, failures: Self.finding)])
        #expect(F.run([flaky]).verdict == .nonConformant)
        let passing = ScenarioResult.combining([Self.attempt(.pass), Self.attempt(.pass)])
        #expect(F.run([passing]).verdict == .conformant)
    }
}
