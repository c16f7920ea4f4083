import Foundation
import Testing

@testable import Reports

@Suite struct HTMLReportTests {
    typealias F = ReportFixtures

    @Test func escapesEverythingAndStaysSelfContained() {
        var run = F.mixed
        run.target = F.hostile
        run.suite.title = F.hostile
        run.scenarios[0].title = F.hostile
        run.scenarios[0].id = "x.<script>"
        run.scenarios[0].failures[0].expected = F.hostile
        run.scenarios[0].failures[0].evidence[0].title = F.hostile
        run.scenarios[0].timeline[0].summary = F.hostile
        run.scenarios[0].timeline[0].actor = F.hostile
        run.scenarios[0].rerunCommand = F.hostile
        run.requirements[0].statement = F.hostile
        let html = HTMLReport.render(run)
        #expect(!html.lowercased().contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"))
        #expect(!html.contains("\u{1B}") && !html.contains("\u{07}"))
        // No external assets: no src attributes, no links or imports leaving the page.
        #expect(!html.contains("src="))
        #expect(!html.contains("href=\"http"))
        #expect(!html.contains("@import"))
        #expect(!html.contains("<link"))
    }

    @Test func showsRequirementsVerdictsAndTimelines() {
        let html = HTMLReport.render(F.mixed)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<h2>MUST requirements</h2>") && html.contains("<h2>SHOULD requirements</h2>"))
        #expect(
            html.contains(
                "<td class=\"id\">CALLX-APNS-5</td><td class=\"verdict-cell\"><span class=\"badge r-fail\">fail</span></td>"
            ))
        #expect(html.contains("r-notEvidenced"))
        #expect(html.contains("non-conformant <span>exit 1</span>"))
        #expect(html.contains("<td>+30ms</td><td>push</td><td>b-phone</td><td>call.invited rev 1"))
        #expect(html.contains("ringcheck run push.expiration --suite callx"))
        #expect(!html.contains("abcdefghijklmnop"))
        #expect(html.components(separatedBy: "<section class=\"scenario\"").count == 7)
    }

    /// The requirements table leads with what failed, and the Verdict column never breaks inside a word.
    @Test func failingRequirementsLeadTheTableAndTheVerdictColumnStaysWhole() throws {
        var run = F.mixed
        // CALLX-SEC-3 (a MUST after CALLX-APNS-5 in the catalogue) fails; CALLX-APNS-5 passes.
        run.scenarios[0] = F.scenario(
            "push.expiration", .pass, requirements: ["CALLX-APNS-5"])
        run.scenarios.append(
            F.scenario(
                "logs.secrets", .fail, requirements: ["CALLX-SEC-3"], failures: [F.failure("CALLX-SEC-3", .must)]))
        let html = HTMLReport.render(run)
        let table = try #require(html.range(of: "<h2>MUST requirements</h2>"))
        let rows = html[table.upperBound...].components(separatedBy: "<tr><td class=\"id\">").dropFirst().prefix(2)
        #expect(rows.first?.hasPrefix("CALLX-SEC-3</td>") == true, "\(rows)")
        #expect(rows.last?.hasPrefix("CALLX-APNS-5</td>") == true)
        #expect(!html.contains("overflow-wrap:anywhere"))
        #expect(html.contains("thead th,td.verdict-cell,.badge{white-space:nowrap}"))
    }

    /// "What failed" lists every other scenario of a group, each linked to its section.
    @Test func whatFailedListsTheRestOfAGroupsScenarios() {
        let run = ConsoleGroupingTests.manyFailures(failing: 12, passing: 1)
        let html = HTMLReport.render(run)
        #expect(html.components(separatedBy: "failed in 12 scenarios").count == 2)
        #expect(
            html.contains(
                "<p class=\"also\">also in (11): <a href=\"#s-1\">calls.s01</a>, <a href=\"#s-2\">calls.s02</a>"))
        #expect(html.contains("<a href=\"#s-11\">calls.s11</a></p>"))
    }
}
