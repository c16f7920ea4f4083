import Foundation

/// One profile's part of `run --profile all`: its exit code, the result it wrote (nil when it wrote no
/// `report.json`: a configuration error, or `--format` without `json`) and where its own reports are.
public struct ProfileRun: Sendable {
    public var profile: String
    public var exitCode: Int32
    public var result: RunResult?
    public var reportDir: String

    public init(profile: String, exitCode: Int32, result: RunResult?, reportDir: String) {
        self.profile = profile
        self.exitCode = exitCode
        self.result = result
        self.reportDir = reportDir
    }

    /// `conformant`, `non-conformant`, … from the exit code (a run without a result still has one).
    var verdictText: String {
        switch exitCode {
        case 0: return "conformant"
        case 1: return "non-conformant"
        case 2: return "configuration error"
        case 130, 143: return "interrupted"
        default: return "inconclusive"
        }
    }
}

/// The reports of `run --profile all` that join every profile's run: one JUnit file with a
/// `testsuite` per profile (named after it) and one Markdown summary with a row per profile and each
/// profile's "What failed". Each profile keeps its own reports in its own directory.
///
///     let xml = CombinedReport.junit(runs)
///     let md = CombinedReport.markdown(runs, exitCode: 1)
public enum CombinedReport {
    /// `<testsuites>` with one `<testsuite name="<profile>">` per profile; a profile that wrote no
    /// result is one `error` testcase naming its exit code, so a gate reading only JUnit fails on it.
    public static func junit(_ runs: [ProfileRun]) -> String {
        var body = ""
        var total = JUnitReport.Counts()
        var seconds = 0.0
        for run in runs {
            let suite: (xml: String, counts: JUnitReport.Counts)
            if let result = run.result {
                suite = JUnitReport.testsuite(result, name: run.profile)
                seconds += result.durationSeconds
            } else {
                suite = missing(run)
            }
            body += suite.xml
            total.tests += suite.counts.tests
            total.failures += suite.counts.failures
            total.errors += suite.counts.errors
        }
        let names = runs.map(\.profile).joined(separator: ", ")
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(JUnitReport.attr("ringcheck run --profile all: " + names))\" tests=\"\(total.tests)\" failures=\"\(total.failures)\" errors=\"\(total.errors)\" time=\"\(String(format: "%.3f", seconds))\">\n"
            + body + "</testsuites>\n"
    }

    /// The testsuite of a profile that left no result: one error testcase with its exit code.
    static func missing(_ run: ProfileRun) -> (xml: String, counts: JUnitReport.Counts) {
        let message = "\(run.profile): \(run.verdictText) (exit \(run.exitCode)) and no report.json in \(run.reportDir)"
        var x =
            "  <testsuite name=\"\(JUnitReport.attr(run.profile))\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">\n"
        x += JUnitReport.testcase(
            classname: run.profile + ".run", name: "run", seconds: 0,
            outcome: .error(type: "run", message: message, text: message), out: message)
        return (x + "  </testsuite>\n", JUnitReport.Counts(tests: 1, errors: 1))
    }

    /// `## ringcheck run --profile all: ❌ non-conformant (exit 1)`, a table row per profile (verdict,
    /// scenario counts, failed MUSTs, SHOULD warnings, where its reports are), then each profile's
    /// "What failed" under its name.
    public static func markdown(_ runs: [ProfileRun], exitCode: Int32) -> String {
        let cell = ReportText.markdownCell
        let overall = ProfileRun(profile: "all", exitCode: exitCode, result: nil, reportDir: "")
        var md = "## ringcheck run --profile all: \(icon(overall)) \(overall.verdictText) (exit \(exitCode))\n\n"
        md += "| Profile | Verdict | Scenarios | MUST failed | SHOULD warnings | Reports |\n|---|---|---|---|---|---|\n"
        for run in runs {
            var scenarios = "–"
            var must = "–"
            var should = "–"
            if let r = run.result {
                let counts = r.statusCounts
                scenarios = ["pass", "fail", "flaky", "notApplicable", "error", "timeout"].compactMap { name in
                    counts[name].map { "\(name) \($0)" }
                }.joined(separator: " · ")
                must = r.failedRequirements(.must).joined(separator: ", ")
                should = r.strict ? "" : r.failedRequirements(.should).joined(separator: ", ")
            }
            let verdict =
                run.result.map { MarkdownReport.verdictLine($0) }
                ?? "\(icon(run)) \(run.verdictText) (exit \(run.exitCode))"
            md +=
                "| \(cell(run.profile)) | \(cell(verdict)) | \(cell(scenarios)) | \(cell(must.isEmpty ? "–" : must)) | \(cell(should.isEmpty ? "–" : should)) | `\(MarkdownReport.codeCell(run.reportDir))` |\n"
        }
        for run in runs {
            guard let r = run.result else { continue }
            let section = MarkdownReport.whatFailed(r)
            guard !section.isEmpty else { continue }
            md += section.replacingOccurrences(
                of: "\n### What failed\n", with: "\n### \(cell(run.profile)): what failed\n")
        }
        return md
    }

    static func icon(_ run: ProfileRun) -> String {
        switch run.exitCode {
        case 0: return "✅"
        case 1: return "❌"
        default: return "⚠️"
        }
    }
}
