extension HTMLReport {
    /// The block the page opens with: one entry per requirement and check that failed (`FailureGroups`,
    /// MUSTs first), naming the scenarios it failed in — the first with its rule, actual value and re-run
    /// command, the rest listed — then the scenarios that errored or timed out, grouped by reason, then
    /// those that did not run. A run where nothing failed says so in one line; a run whose only failures
    /// are SHOULD warnings gets the amber box of a warning, not the red one of a failure.
    static func whatFailed(_ r: RunResult) -> String {
        let grouped = FailureGroups(r)
        guard !grouped.isEmpty || !r.notRun.isEmpty else {
            return
                "<section class=\"what-failed none\" id=\"what-failed\"><h2>What failed</h2><p>Nothing failed.</p></section>\n"
        }
        let index = Dictionary(
            r.scenarios.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let link = { (id: String) in index[id].map { "<a href=\"#s-\($0)\">\(e(id))</a>" } ?? e(id) }
        let onlyWarnings = grouped.problems.isEmpty && r.notRun.isEmpty && grouped.failures.allSatisfy(\.isWarning)
        var h =
            "<section class=\"what-failed\(onlyWarnings ? " warn" : "")\" id=\"what-failed\">\n<h2>What failed</h2>\n"
        if onlyWarnings {
            h += "<p>Only SHOULD warnings: they do not change the verdict or the exit code.</p>\n"
        }
        for g in grouped.failures {
            let f = g.failure
            let count = g.scenarios.count
            let (badge, words) =
                g.isWarning
                ? ("<span class=\"badge r-warning\">⚠ SHOULD</span>", "warning in")
                : ("<span class=\"badge r-fail\">\(f.level.rawValue)</span>", "failed in")
            h += "<div class=\"group\(g.isWarning ? " warn" : "")\">\n"
            h +=
                "<h3>\(badge) \(e(f.requirement ?? "unattributed")) \(words) \(count) scenario\(count == 1 ? "" : "s"): \(e(ReportWording.check(f.check)))</h3>\n"
            if let statement = f.requirement.flatMap({ r.requirement($0)?.statement }) {
                h += "<p class=\"statement\">\(ReportWording.ruleLabel(f.level)) \(e(statement))</p>\n"
            }
            h += "<p>first: \(link(g.first.id)) <small>\(e(g.first.title))</small></p>\n"
            h += ruleTable(f, run: r)
            for line in FailureGroups.otherCheckLines(g) { h += "<p class=\"also\">also failed by: \(e(line))</p>\n" }
            h += rest(g.scenarios, link: link)
            h += "<p class=\"rerun\">Re-run: <code>\(e(g.first.rerunCommand))</code></p>\n</div>\n"
        }
        for p in grouped.problems {
            let count = p.scenarios.count
            h += "<div class=\"group\">\n"
            h +=
                "<h3><span class=\"badge st-\(p.status)\">\(e(p.status))</span> in \(count) scenario\(count == 1 ? "" : "s")</h3>\n"
            h +=
                "<p class=\"detail\">\(e(p.detail.isEmpty ? "failed without a recorded check" : p.detail))</p>\n"
            h += "<p>first: \(link(p.first.id)) <small>\(e(p.first.title))</small></p>\n"
            h += rest(p.scenarios, link: link)
            h += "<p class=\"rerun\">Re-run: <code>\(e(p.first.rerunCommand))</code></p>\n</div>\n"
        }
        if !r.notRun.isEmpty {
            h += "<h3>Not run (\(r.notRun.count))</h3>\n<ul class=\"not-run\">\n"
            for s in r.notRun {
                h +=
                    "<li><code>\(e(s.id))</code> \(e(s.title)) — \(e(s.reason)). Re-run: <code>\(e(s.rerunCommand))</code></li>\n"
            }
            h += "</ul>\n"
        }
        return h + "</section>\n"
    }

    /// `also in (35): a, b, …`: every other scenario of a group, each linked to its section.
    static func rest(_ scenarios: [String], link: (String) -> String) -> String {
        let others = scenarios.dropFirst()
        guard !others.isEmpty else { return "" }
        return "<p class=\"also\">also in (\(others.count)): \(others.map(link).joined(separator: ", "))</p>\n"
    }

    /// The rule as a rule (`must be:`) above the actual value, Unix times shown as dates.
    static func ruleTable(_ f: CheckFailure, run: RunResult) -> String {
        let rule = ReportWording.rule(f.level, expected: f.expected)
        let actual = ReportWording.withDates(f.actual, now: run.finishedAt)
        return "<table class=\"ea\"><tr><th>\(e(rule.label))</th><td><pre>\(e(rule.text))</pre></td></tr>"
            + "<tr><th>actual:</th><td><pre>\(e(actual))</pre></td></tr></table>\n"
    }
}
