import Conformance
import Foundation

/// The console summary of a load run: the figures, then each violation with its call, then the verdict.
enum LoadConsoleSummary {
    /// At most this many violations of one rule are printed; load-report.json has them all.
    static let perRule = 10

    /// `words` name a unit of work (`call`, `webhook`) and the pushes that start something (`invitations`,
    /// `wake-ups`): the profile's `ProfileLoad.words`.
    static func render(_ r: LoadReport, words: LoadWords = LoadWords()) -> String {
        var out = ""
        let unit = words.unit
        var scripts = r.scripts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        if !scripts.isEmpty { scripts = " [\(scripts)]" }
        out +=
            "\(unit)s: \(r.callsStarted) started, \(r.callsFinished) finished (\(r.callsFailed) failed) in "
            + "\(LoadFigures.format(r.callSeconds)) s: \(LoadFigures.format(r.callsPerSecond)) \(unit)s/s sustained\(scripts)\n"
        out +=
            "requests: \(r.requests) (\(r.transportErrors) without an answer); pushes: \(r.pushes) "
            + "(\(r.invitations) \(words.invitations))\n"
        if !r.endpoints.isEmpty || !r.pushLatency.isEmpty {
            out += "latency (ms)" + pad("", 22) + "     n     p50     p90     p99     max\n"
            for f in r.endpoints + r.pushLatency { out += row(f) }
        }
        if let res = r.resources {
            out +=
                "\(res.label), pid \(res.pid): CPU \(LoadFigures.format(res.cpuSeconds)) s "
                + "(\(LoadFigures.format(res.cpuPercent))% of a core); RSS \(mib(res.rssStartKiB)) -> \(mib(res.rssEndKiB)) MiB "
                + "(peak \(mib(res.rssPeakKiB)))\n"
        } else {
            out +=
                "backend CPU and memory: not measured (the backend does not run on this machine as ringcheck's child)\n"
        }
        out += violations(
            "history check", r.historyViolations.map { ($0.rule?.rawValue ?? "", $0.description) })
        out += violations(
            "push and event invariants",
            r.invariantViolations.map { ($0.requirement.rawValue, $0.unitMessage) })
        for p in r.problems.prefix(5) { out += "note: \(p)\n" }
        if let why = r.inconclusiveReason { out += "inconclusive: \(why)\n" }
        if let i = r.interrupted {
            out +=
                "interrupted by \(i.signal): \(unit)s in flight finished; the verdict covers the \(unit)s that ran\n"
        }
        out += "verdict: \(r.verdict.label) (exit \(r.exitCode))\n"
        return out
    }

    static func violations(_ title: String, _ items: [(group: String, text: String)]) -> String {
        guard !items.isEmpty else { return "\(title): clean\n" }
        var out = "\(title): \(items.count) violation\(items.count == 1 ? "" : "s")\n"
        var shown: [String: Int] = [:]
        for item in items {
            shown[item.group, default: 0] += 1
            if shown[item.group]! <= perRule { out += "  \(item.text)\n" }
        }
        for (group, n) in shown.sorted(by: { $0.key < $1.key }) where n > perRule {
            out += "  … and \(n - perRule) more \(group) (load-report.json has them all)\n"
        }
        return out
    }

    static func row(_ f: LatencyFigures) -> String {
        "  " + pad(f.name, 32)
            + String(format: "%6d %7.1f %7.1f %7.1f %7.1f\n", f.count, f.p50Ms, f.p90Ms, f.p99Ms, f.maxMs)
    }

    static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : s + String(repeating: " ", count: n - s.count)
    }

    static func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
}
