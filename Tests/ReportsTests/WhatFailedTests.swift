import Foundation
import Testing

@testable import Reports

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The HTML and Markdown reports open with what failed; JUnit keeps a lenient run's SHOULD warnings and
/// the scenarios that never ran out of the failures CI counts.
@Suite struct WhatFailedTests {
    typealias F = ReportFixtures

    func position(_ needle: String, in text: String) -> Int? {
        text.range(of: needle).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
    }

    @Test func htmlOpensWithWhatFailedBeforeThePassesAndTheCatalogue() throws {
        let html = HTMLReport.render(F.mixed)
        let block = try #require(position("<h2>What failed</h2>", in: html))
        let catalogue = try #require(position("<h2>MUST requirements</h2>", in: html))
        let firstPass = try #require(position("<span class=\"badge st-pass\">", in: html))
        #expect(block < catalogue && block < firstPass)
        let end = try #require(position("</section>", in: String(html.dropFirst(block))))
        let whatFailed = String(html.dropFirst(block).prefix(end))
        // Requirement, level, the rule and the actual value, the scenario and its re-run command.
        #expect(
            whatFailed.contains(
                "<span class=\"badge r-fail\">MUST</span> CALLX-APNS-5 failed in 1 scenario: VoIP push to b-phone has apns-expiration 0"
            ))
        #expect(whatFailed.contains("<th>must be:</th><td><pre>0</pre>") && whatFailed.contains("<pre>3600</pre>"))
        #expect(whatFailed.contains("Re-run: <code>ringcheck run push.expiration --suite callx</code>"))
        // Failed scenarios before errors and timeouts; passes and not applicable are not in it.
        let flaky = try #require(position(">arbitration.late</a>", in: whatFailed))
        let timeout = try #require(position(">basic.timeout</a>", in: whatFailed))
        #expect(flaky < timeout)
        #expect(!whatFailed.contains("arbitration.race") && !whatFailed.contains("tokens.cleanup"))
        // The scenario sections: failed first, a pass last.
        let sections = html.components(separatedBy: "<section class=\"scenario\"").dropFirst()
        #expect(sections.first?.contains("st-fail") == true)
        #expect(sections.last?.contains("st-pass") == true || sections.last?.contains("st-notApplicable") == true)
    }

    /// A requirement charged in scenarios that do not declare it (an invariant every scenario runs) lists
    /// them in its Scenarios cell, beside the scenarios that declare it and did not fail on it.
    @Test func theRequirementsTableListsWhereARequirementFailed() throws {
        let must = F.failure("CALLX-APNS-5", .must)
        let html = HTMLReport.render(
            F.run([
                F.scenario("push.expiration", .pass, requirements: ["CALLX-APNS-5"]),
                F.scenario("basic.one", .fail, requirements: ["CALLX-ARB-1"], failures: [must]),
                F.scenario("basic.two", .fail, requirements: ["CALLX-ARB-1"], failures: [must]),
            ]))
        let start = try #require(html.range(of: "<tr><td class=\"id\">CALLX-APNS-5</td>"))
        let row = String(html[start.lowerBound...].prefix { $0 != "\n" })
        #expect(row.contains("failed in 2:<br><a href=\"#s-"), "\(row)")
        #expect(row.contains(">basic.one</a><br><a href=\"#s-") && row.contains(">basic.two</a>"), "\(row)")
        #expect(row.contains("also evidenced by:<br><a href=\"#s-") && row.contains(">push.expiration</a>"), "\(row)")
        // A requirement nothing failed keeps the scenarios that declare it.
        let arb = try #require(html.range(of: "<tr><td class=\"id\">CALLX-ARB-1</td>"))
        let arbRow = String(html[arb.lowerBound...].prefix { $0 != "\n" })
        #expect(!arbRow.contains("failed in") && arbRow.contains(">basic.one</a><br>"), "\(arbRow)")
    }

    /// One defect seen in every scenario (36 for apns-expiration-30) kept its row as tall as 36 links: the
    /// cell shows the first few and folds the rest into `<details>`, each still linked to its section.
    @Test func aLongScenarioListFoldsAfterTheFirstFew() throws {
        let must = F.failure("CALLX-APNS-5", .must)
        let ids = (1...8).map { "basic.s\($0)" }
        let html = HTMLReport.render(
            F.run(ids.map { F.scenario($0, .fail, requirements: ["CALLX-ARB-1"], failures: [must]) }))
        let start = try #require(html.range(of: "<tr><td class=\"id\">CALLX-APNS-5</td>"))
        let row = String(html[start.lowerBound...].prefix { $0 != "\n" })
        let limit = HTMLReport.cellListLimit
        let fold = try #require(row.range(of: "<details class=\"more\"><summary>and \(8 - limit) more</summary>"))
        let shown = row[..<fold.lowerBound]
        let folded = row[fold.upperBound...]
        #expect(row.hasPrefix("<tr><td class=\"id\">") && row.contains("failed in 8:<br>"), "\(row)")
        for id in ids.prefix(limit) { #expect(shown.contains(">\(id)</a>") && !folded.contains(">\(id)</a>"), "\(id)") }
        for id in ids.dropFirst(limit) { #expect(folded.contains("<a href=\"#s-") && folded.contains(">\(id)</a>")) }
        #expect(folded.contains("</details>"))
        // A list of exactly the limit folds nothing.
        let few = HTMLReport.render(
            F.run(ids.prefix(limit).map { F.scenario($0, .fail, requirements: ["CALLX-ARB-1"], failures: [must]) }))
        #expect(!few.contains("<details class=\"more\">"))
    }

    @Test func aCleanRunSaysNothingFailed() {
        let html = HTMLReport.render(F.run([F.scenario("a.b", .pass, requirements: ["CALLX-ARB-1"])]))
        #expect(html.contains("<h2>What failed</h2><p>Nothing failed.</p>"))
    }

    @Test func requirementsNoScenarioTouchedAreFoldedAndTheTableFitsANarrowWindow() throws {
        // Only CALLX-ARB-1 is evidenced: the three others are folded into one <details> per level.
        let html = HTMLReport.render(F.run([F.scenario("a.b", .pass, requirements: ["CALLX-ARB-1"])]))
        #expect(
            html.contains("<details class=\"untouched\"><summary>2 MUST requirements no scenario of this run evidences")
        )
        #expect(html.contains("<summary>1 SHOULD requirement no scenario of this run evidences"))
        let folded = try #require(html.range(of: "<details class=\"untouched\">"))
        #expect(!html[..<folded.lowerBound].contains("CALLX-APNS-5"))
        #expect(html.contains("<div class=\"scroll\"><table class=\"reqs\">"))
        #expect(html.contains(".scroll{overflow-x:auto") && html.contains("overflow-wrap:break-word"))
        #expect(html.contains("@media (max-width:640px)"))
        // No column is given a fixed width wider than a phone.
        #expect(html.range(of: #"(?<![-a-z])width:\s*[0-9]{3,}px"#, options: .regularExpression) == nil)
    }

    @Test func markdownOpensWithWhatFailedAndCountsUntouchedRequirements() throws {
        let md = MarkdownReport.render(F.mixed)
        let block = try #require(position("### What failed", in: md))
        let table = try #require(position("### Requirements that failed", in: md))
        #expect(block < table)
        #expect(md.contains("**❌ MUST CALLX-APNS-5** failed in 1 scenario: VoIP push to b-phone has apns-expiration 0"))
        #expect(md.contains("- must be: 0 — actual: 3600"))
        let subset = MarkdownReport.render(F.run([F.scenario("a.b", .pass, requirements: ["CALLX-ARB-1"])]))
        #expect(
            subset.contains(
                "- Requirements: pass 1 · fail 0 · inconclusive 0 · notApplicable 0; 3 not touched by the selected scenarios"
            ))
        #expect(!subset.contains("### What failed"))
        #expect(!subset.contains("CALLX-APNS-5"))
    }

    @Test func interruptedReportsSayInterruptedAndListWhatDidNotRun() throws {
        let r = F.interrupted
        #expect(r.verdict == .nonConformant && r.exitCode == 130)
        var clean = r
        clean.scenarios.removeLast()
        #expect(clean.verdict == .inconclusive && clean.exitCode == 130)
        let md = MarkdownReport.render(clean)
        #expect(md.contains("⚠️ inconclusive: interrupted (exit 130)"))
        #expect(md.contains("> **Interrupted by SIGINT**"))
        #expect(md.contains("`tokens.cleanup`") && md.contains("interrupted by SIGINT"))
        let html = HTMLReport.render(r)
        #expect(html.contains("Interrupted by SIGINT") && html.contains("<h3>Not run (1)</h3>"))
        let json = JSONReport.render(r)
        #expect(json.contains("\"signal\" : \"SIGINT\""))
        let back = try JSONReport.decode(Data(json.utf8))
        #expect(back.notRun == r.notRun && back.interruption == r.interruption && back.exitCode == 130)
    }

    @Test func junitShowsSHOULDWarningsAsSkippedUnlessStrict() throws {
        let lenient = try XMLDocument(data: Data(JUnitReport.render(F.warningOnly).utf8))
        #expect(try lenient.nodes(forXPath: "//failure").isEmpty)
        let skipped = try lenient.nodes(forXPath: "//testcase[@name='arbitration.late']/skipped/@message").first
        #expect(skipped?.stringValue?.hasPrefix("SHOULD warning (does not fail the run): CALLX-ARB-1 (SHOULD)") == true)
        let out = try lenient.nodes(forXPath: "//testcase[@name='arbitration.late']/system-out").first?.stringValue
        #expect(
            out?.contains("should be: 0\n  actual: 3600") == true
                && out?.contains("requirements: CALLX-ARB-1 (SHOULD)") == true)
        let suite = try #require(try lenient.nodes(forXPath: "/testsuites/testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "failures")?.stringValue == "0")
        #expect(suite.attribute(forName: "skipped")?.stringValue == "1")

        var strictRun = F.warningOnly
        strictRun.strict = true
        let strict = try XMLDocument(data: Data(JUnitReport.render(strictRun).utf8))
        let type = try strict.nodes(forXPath: "//testcase[@name='arbitration.late']/failure/@type").first
        #expect(type?.stringValue == "SHOULD")
    }

    @Test func junitListsScenariosThatDidNotRunAsSkipped() throws {
        let doc = try XMLDocument(data: Data(JUnitReport.render(F.interrupted).utf8))
        #expect(try doc.nodes(forXPath: "//testcase").count == 3)
        let reason = try doc.nodes(forXPath: "//testcase[@name='tokens.cleanup']/skipped/@message").first
        #expect(reason?.stringValue == "not run: interrupted by SIGINT")
        let property = try doc.nodes(forXPath: "//testsuite/properties/property[@name='interrupted']/@value").first
        #expect(property?.stringValue == "SIGINT")
    }
}
