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
}
