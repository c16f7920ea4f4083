import Foundation

@testable import Reports

/// Hand-built results for the renderer tests.
enum ReportFixtures {
    static let start = Date(timeIntervalSince1970: 1_790_000_000.125)

    static let requirements = [
        RequirementInfo(id: "CALLX-APNS-5", level: .must, statement: "apns-expiration is 0", section: "iOS"),
        RequirementInfo(id: "CALLX-ARB-1", level: .should, statement: "exactly one answer wins", section: "Arb"),
        RequirementInfo(id: "CALLX-TOK-7", level: .should, statement: "dead tokens are dropped", section: "Tok"),
        RequirementInfo(id: "CALLX-SEC-3", level: .must, statement: "no secrets in logs", section: "Sec"),
    ]

    static func scenario(
        _ id: String, _ status: ScenarioStatus, requirements: [String], failures: [CheckFailure] = [],
        title: String? = nil
    ) -> ScenarioResult {
        ScenarioResult(
            id: id, title: title ?? "Scenario \(id)", requirements: requirements, tags: ["t"], status: status,
            durationMs: 812.5, failures: failures,
            timeline: [
                TimelineItem(atMs: 0, kind: .request, actor: "a", summary: "POST /v1/calls"),
                TimelineItem(
                    atMs: 12, kind: .response, actor: "a", summary: "201 ringing",
                    detail: "authorization: Bearer abcdefghijklmnop\n{\"state\":\"ringing\"}"),
                TimelineItem(atMs: 30, kind: .push, actor: "b-phone", summary: "call.invited rev 1"),
            ],
            rerunCommand: "ringcheck run \(id) --suite callx")
    }

    static func failure(_ requirement: String, _ level: RequirementLevel) -> CheckFailure {
        CheckFailure(
            requirement: requirement, level: level, check: "VoIP push to b-phone has apns-expiration 0",
            expected: "0", actual: "3600",
            evidence: [
                EvidenceItem(
                    kind: .push, title: "POST /3/device/abc → 200",
                    text: "apns-expiration: 3600\nauthorization: bearer eyJhbGciOiJFUzI1NiJ9.e30.sig\n{\"aps\":{}}")
            ])
    }

    static func run(_ scenarios: [ScenarioResult], shard: Shard? = nil) -> RunResult {
        RunResult(
            ringcheckVersion: "0.1.0", suite: SuiteDescription(id: "callx", version: "0.1.0", title: "Callx"),
            target: "embedded reference backend", startedAt: start, finishedAt: start.addingTimeInterval(2.5),
            requirements: requirements, scenarios: scenarios, shard: shard)
    }

    /// One of each status, a MUST and a SHOULD failure.
    static var mixed: RunResult {
        run([
            scenario(
                "push.expiration", .fail, requirements: ["CALLX-APNS-5"], failures: [failure("CALLX-APNS-5", .must)]),
            scenario("arbitration.race", .pass, requirements: ["CALLX-ARB-1"]),
            scenario(
                "tokens.cleanup", .notApplicable(reason: "target has no fault injection"), requirements: ["CALLX-TOK-7"]
            ),
            scenario(
                "arbitration.late", .flaky, requirements: ["CALLX-ARB-1"], failures: [failure("CALLX-ARB-1", .should)]),
            scenario("basic.timeout", .timeout(message: "no push within 5s"), requirements: ["CALLX-ARB-1"]),
            scenario("basic.error", .error(message: "backend unreachable"), requirements: ["CALLX-ARB-1"]),
        ])
    }

    /// A lenient run whose only failure breaks a SHOULD: conformant, exit 0.
    static var warningOnly: RunResult {
        run([
            scenario("push.expiration", .pass, requirements: ["CALLX-APNS-5"]),
            scenario(
                "arbitration.late", .fail, requirements: ["CALLX-ARB-1"], failures: [failure("CALLX-ARB-1", .should)]),
        ])
    }

    /// A run Ctrl-C stopped after two scenarios, with one failed MUST; a third never ran.
    static var interrupted: RunResult {
        var r = run([
            scenario("arbitration.race", .pass, requirements: ["CALLX-ARB-1"]),
            scenario(
                "push.expiration", .fail, requirements: ["CALLX-APNS-5"], failures: [failure("CALLX-APNS-5", .must)]),
        ])
        r.notRun = [
            NotRunScenario(
                id: "tokens.cleanup", title: "Dead tokens are dropped", requirements: ["CALLX-TOK-7"],
                reason: "interrupted by SIGINT", rerunCommand: "ringcheck run tokens.cleanup")
        ]
        r.interruption = Interruption(signalNumber: 2)
        return r
    }

    static let hostile = "<script>alert('x')</script> & \"q\" | `code` \u{1B}[31m\u{07}"
}
