import Foundation
import Testing

@testable import Reports

/// The console's size: one defect seen in many scenarios is printed once, grouped by requirement and
/// check, with one line per push; the full evidence stays for `--verbose` and the HTML report.
@Suite struct ConsoleGroupingTests {
    typealias F = ReportFixtures
    static let plain = ConsoleStyle(colors: false)

    /// A capture as the engine's evidence holds it, padded to about 100 lines like a real one.
    static func captureText(_ sequence: Int) -> String {
        let headers = (0..<80).map { ["name": "x-header-\($0)", "value": "value \($0)"] }
        let capture: [String: Any] = [
            "sequence": sequence, "mock": "apns", "authority": "api.push.apple.com",
            "addressedHost": "api.sandbox.push.apple.com", "headers": headers,
            "apns": ["pushType": "voip", "priority": 10, "expiration": 1_796_155_155, "topic": "com.example.voip"],
            "json": ["aps": [:] as [String: Any], "callx": ["type": "call.invited", "callId": "c\(sequence)"]],
            "response": ["status": 200, "headers": [] as [Any]], "outcome": "accepted",
        ]
        let data = try! JSONSerialization.data(withJSONObject: capture, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// `failing` scenarios that each fail CALLX-APNS-5 with a ~100-line capture, and `passing` that pass.
    static func manyFailures(failing: Int, passing: Int) -> RunResult {
        let failed = (0..<failing).map { i in
            F.scenario(
                String(format: "calls.s%02d", i), .fail, requirements: ["CALLX-APNS-5"],
                failures: [
                    CheckFailure(
                        requirement: "CALLX-APNS-5", level: .must,
                        check: "invariant headers.apns-expiration on every push and event", expected: "\"0\"",
                        actual: "\"1796155155\"",
                        evidence: [EvidenceItem(kind: .push, title: "push #\(i) to b-phone", text: captureText(i))])
                ])
        }
        let passed = (0..<passing).map { F.scenario("basic.p\($0)", .pass, requirements: ["CALLX-ARB-1"]) }
        return F.run(failed + passed)
    }

    static func lineCount(_ text: String) -> Int { text.split(separator: "\n", omittingEmptySubsequences: false).count }

    @Test func oneDefectInManyScenariosPrintsOneGroup() throws {
        let run = Self.manyFailures(failing: 80, passing: 20)
        #expect(Self.captureText(0).split(separator: "\n").count > 90)
        let summary = ConsoleReport.summary(run, style: Self.plain)
        // Before grouping this was 80 × (failure + ~100 capture lines): over 8,000 lines.
        #expect(Self.lineCount(summary) <= 30, "\(summary)")
        // The whole console report: one progress line per scenario plus a summary that does not grow with them.
        let console = ReportFormat.console.render(run)
        #expect(Self.lineCount(console) <= run.scenarios.count + 30)
        #expect(
            summary.contains(
                "── MUST CALLX-APNS-5 failed in 80 scenarios: headers.apns-expiration, checked on every push and event")
        )
        #expect(summary.contains("first: calls.s00 — Scenario calls.s00"))
        #expect(summary.contains("must be: \"0\""))
        #expect(summary.contains("actual:  \"1796155155\" (2026-12-01 19:59:15 UTC, 71 days after the run ended)"))
        #expect(
            summary.contains(
                "push: push #0 to b-phone [api.sandbox.push.apple.com, voip, priority 10, apns-expiration 1796155155 (2026-12-01 19:59:15 UTC, 71 days after the run ended), call.invited, status 200]"
            ))
        #expect(
            summary.contains("also in: calls.s01, calls.s02, calls.s03, calls.s04, calls.s05, calls.s06 and 73 more"))
        #expect(summary.contains("re-run: ringcheck run calls.s00 --suite callx"))
        #expect(!summary.contains("x-header-3"))
        #expect(summary.hasSuffix("Verdict: non-conformant (exit 1)\n"))
    }

    @Test func verboseAndTheHTMLReportKeepEveryCapture() {
        let run = Self.manyFailures(failing: 80, passing: 0)
        let verbose = ConsoleReport.summary(run, style: Self.plain, verbose: true)
        #expect(Self.lineCount(verbose) > 80 * 90)
        #expect(verbose.contains("re-run: ringcheck run calls.s79 --suite callx"))
        #expect(verbose.contains("\"c79\""))
        let html = HTMLReport.render(run)
        #expect(html.contains("x-header-79") && html.contains("&quot;c79&quot;"))
    }

    @Test func differentChecksAndHarnessProblemsGetGroupsOfTheirOwn() {
        let summary = ConsoleReport.summary(F.mixed, style: Self.plain)
        // The MUST first, then the SHOULD, then the scenarios that stopped without a verdict.
        let must = try! #require(summary.range(of: "── MUST CALLX-APNS-5 failed in 1 scenario:"))
        let should = try! #require(summary.range(of: "── ⚠ SHOULD CALLX-ARB-1 warning in 1 scenario:"))
        let timeout = try! #require(summary.range(of: "── timeout in 1 scenario: no push within 5s"))
        let error = try! #require(summary.range(of: "── error in 1 scenario: backend unreachable"))
        #expect(must.lowerBound < should.lowerBound && should.lowerBound < timeout.lowerBound)
        #expect(timeout.lowerBound < error.lowerBound)
        #expect(summary.contains("re-run: ringcheck run basic.error --suite callx"))
        // Evidence that is not a capture is named by its title, on one line.
        #expect(summary.contains("push: POST /3/device/abc → 200\n"))
        #expect(!summary.contains("authorization"))
    }

    @Test func longExpectedAndActualAreClipped() {
        var run = F.mixed
        run.scenarios[0].failures[0].actual = (1...40).map { "line \($0)" }.joined(separator: "\n")
        let summary = ConsoleReport.summary(run, style: Self.plain)
        #expect(summary.contains("line 4\n") && !summary.contains("line 5\n"))
        #expect(summary.contains("… 36 more lines"))
    }

    @Test func quietPrintsTheVerdictLineAlone() {
        #expect(ConsoleReport.verdictLine(F.mixed, style: Self.plain) == "Verdict: non-conformant (exit 1)")
        let passing = F.run([F.scenario("a.b", .pass, requirements: [])])
        #expect(ConsoleReport.verdictLine(passing, style: Self.plain) == "Verdict: conformant (exit 0)")
    }

    /// Each profile's run in `run --profile all` names its profile in the verdict line, in the summary too.
    @Test func theVerdictLineNamesTheProfileWhenAsked() {
        var run = F.mixed
        run.profile = "dialstack"
        #expect(
            ConsoleReport.verdictLine(run, style: Self.plain, namingProfile: true)
                == "Verdict (dialstack): non-conformant (exit 1)")
        #expect(
            ConsoleReport.summary(run, style: Self.plain, namingProfile: true).hasSuffix(
                "Verdict (dialstack): non-conformant (exit 1)\n"))
        #expect(ConsoleReport.summary(run, style: Self.plain).hasSuffix("Verdict: non-conformant (exit 1)\n"))
    }

    /// One scenario whose defect two checks saw (the step's expectation and the invariant on every push):
    /// every report shows the requirement once, the second check named on one line.
    @Test func aOneScenarioRunPrintsADefectOnce() {
        let step = CheckFailure(
            requirement: "CALLX-APNS-5", level: .must, check: "scenarios[0].steps[1] expectPush to b-phone",
            expected: "1 call.invited push(es)",
            actual: "0 matching push(es); headers.apns-expiration: got \"1796155155\"")
        let invariant = CheckFailure(
            requirement: "CALLX-APNS-5", level: .must,
            check: "invariant headers.apns-expiration on every push and event",
            expected: "\"0\"", actual: "\"1796155155\"")
        let run = F.run([
            F.scenario("payload.apns-invitation", .fail, requirements: ["CALLX-APNS-5"], failures: [step, invariant])
        ])
        let console = ConsoleReport.summary(run, style: Self.plain)
        #expect(console.components(separatedBy: "CALLX-APNS-5 failed in").count == 2, "\(console)")
        #expect(console.contains("── MUST CALLX-APNS-5 failed in 1 scenario: step 2 expectPush to b-phone"))
        #expect(console.contains("   also failed by: headers.apns-expiration, checked on every push and event\n"))
        let md = MarkdownReport.render(run)
        #expect(md.components(separatedBy: "CALLX-APNS-5** failed in").count == 2, "\(md)")
        #expect(md.contains("- also failed by: headers.apns-expiration, checked on every push and event\n"))
        let html = HTMLReport.render(run)
        #expect(html.components(separatedBy: "CALLX-APNS-5 failed in").count == 2)
        // The check that failed in more scenarios stands for the group.
        let wider = F.run([
            F.scenario("a.one", .fail, requirements: ["CALLX-APNS-5"], failures: [step, invariant]),
            F.scenario("a.two", .fail, requirements: ["CALLX-APNS-5"], failures: [invariant]),
        ])
        let both = ConsoleReport.summary(wider, style: Self.plain)
        #expect(both.contains("── MUST CALLX-APNS-5 failed in 2 scenarios: headers.apns-expiration, checked on every"))
        // It failed in the group's first scenario only, which the group already names.
        #expect(both.contains("also failed by: step 2 expectPush to b-phone\n   also in: a.two\n"))
    }

    /// A push's type is read wherever the body keeps it, whatever the profile calls its member.
    @Test func aPushTypeNeedsNoProfileName() {
        #expect(ConsoleReport.messageType(["aps": [:] as [String: Any], "acme": ["type": "ring"]]) == "ring")
        #expect(ConsoleReport.messageType(["callx": ["type": "call.invited"]]) == "call.invited")
        #expect(ConsoleReport.messageType(["message": ["data": ["type": "incoming_call"]]]) == "incoming_call")
        #expect(ConsoleReport.messageType(["type": "wake"]) == "wake")
        // Two members naming different types: no guess.
        #expect(ConsoleReport.messageType(["a": ["type": "x"], "b": ["type": "y"]]) == nil)
        let capture: [String: Any] = [
            "mock": "apns", "authority": "api.push.apple.com",
            "json": ["aps": [:] as [String: Any], "dial": ["type": "ring"]],
        ]
        let text = String(decoding: try! JSONSerialization.data(withJSONObject: capture), as: UTF8.self)
        #expect(ConsoleReport.pushFacts(text) == "api.push.apple.com, ring")
    }
}
