extension HTMLReport {
    /// The block the page opens with: every failure (requirement, level, check, expected against actual)
    /// under its scenario with the re-run command, failed scenarios before errors and timeouts, then the
    /// scenarios that did not run. A run where nothing failed says so in one line.
    static func whatFailed(_ r: RunResult) -> String {
        let failing = ReportOrder.whatFailed(r.scenarios)
        guard !failing.isEmpty || !r.notRun.isEmpty else {
            return
                "<section class=\"what-failed none\" id=\"what-failed\"><h2>What failed</h2><p>Nothing failed.</p></section>\n"
        }
        var h = "<section class=\"what-failed\" id=\"what-failed\">\n<h2>What failed</h2>\n"
        for (index, s) in failing {
            h +=
                "<h3><span class=\"badge st-\(s.status.name)\">\(e(s.status.name))</span> <a href=\"#s-\(index)\">\(e(s.id))</a> <small>\(e(s.title))</small></h3>\n"
            if let detail = s.status.detail { h += "<p class=\"detail\">\(e(detail))</p>\n" }
            if s.status.isFailure && s.failures.isEmpty {
                h += "<p class=\"detail\">failed without a recorded check</p>\n"
            }
            for f in ReportOrder.mustFirst(s.failures) { h += failure(f, run: r, evidence: false) }
            h += "<p class=\"rerun\">Re-run: <code>\(e(s.rerunCommand))</code></p>\n"
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
}
