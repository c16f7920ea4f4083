import Foundation

extension ConsoleReport {
    /// One requirement's check failing in one or more scenarios: shown once, with the first scenario's
    /// expected and actual, its evidence one line per item, and the other scenarios by ID.
    struct FailureGroup {
        var failure: CheckFailure
        var first: ScenarioResult
        var scenarios: [String]
    }

    /// A scenario that stopped without a verdict of its own checks (error, timeout, or failed with no
    /// failure recorded), grouped by status and reason.
    struct ProblemGroup {
        var status: String
        var detail: String
        var first: ScenarioResult
        var scenarios: [String]
    }

    /// How many other scenario IDs a group names before `and N more`.
    static let groupIDLimit = 6
    /// How many lines of expected or actual a group shows.
    static let valueLineLimit = 4
    /// How many evidence items a group shows, one line each.
    static let evidenceLimit = 6

    /// The failures grouped by requirement and check, MUSTs first, then scenarios that errored or
    /// timed out grouped by reason. Its size grows with the number of distinct failures, not of scenarios.
    static func failureGroups(_ r: RunResult, style: ConsoleStyle) -> String {
        var groups: [FailureGroup] = []
        var problems: [ProblemGroup] = []
        for s in r.scenarios where s.status.isFailure || s.status.isHarnessProblem {
            if s.failures.isEmpty || s.status.isHarnessProblem {
                let detail = s.status.detail ?? ""
                if let i = problems.firstIndex(where: { $0.status == s.status.name && $0.detail == detail }) {
                    if !problems[i].scenarios.contains(s.id) { problems[i].scenarios.append(s.id) }
                } else {
                    problems.append(ProblemGroup(status: s.status.name, detail: detail, first: s, scenarios: [s.id]))
                }
            }
            for f in s.failures {
                if let i = groups.firstIndex(where: {
                    $0.failure.requirement == f.requirement && $0.failure.check == f.check
                }) {
                    if !groups[i].scenarios.contains(s.id) { groups[i].scenarios.append(s.id) }
                } else {
                    groups.append(FailureGroup(failure: f, first: s, scenarios: [s.id]))
                }
            }
        }
        let ordered =
            groups.filter { $0.failure.level == .must } + groups.filter { $0.failure.level != .must }
        var out = ""
        for g in ordered { out += render(g, r, style: style) }
        for p in problems { out += render(p, style: style) }
        if !ordered.isEmpty || !problems.isEmpty {
            out +=
                style.paint("   (--verbose prints every failure with its full evidence; so does report.html)", .dim)
                + "\n"
        }
        return out
    }

    static func render(_ g: FailureGroup, _ r: RunResult, style: ConsoleStyle) -> String {
        let f = g.failure
        let color: ConsoleStyle.Color = f.level == .must ? .red : .yellow
        let id = f.requirement ?? "unattributed"
        let count = g.scenarios.count
        var out =
            "\n" + style.paint("── \(f.level.rawValue) \(clean(id))", color)
            + style.paint(" failed in \(count) scenario\(count == 1 ? "" : "s")", .bold) + ": " + clean(f.check)
            + "\n"
        if let statement = f.requirement.flatMap({ r.requirement($0)?.statement }) {
            out += style.paint("   \(clean(statement))", .dim) + "\n"
        }
        out += "   first: \(clean(g.first.id)) — \(clean(g.first.title))\n"
        out += "     expected: \(clipped(f.expected, indent: 15))\n"
        out += "     actual:   \(clipped(f.actual, indent: 15))\n"
        for e in f.evidence.prefix(evidenceLimit) { out += style.paint("     " + evidenceLine(e), .dim) + "\n" }
        if f.evidence.count > evidenceLimit {
            out += style.paint("     … \(f.evidence.count - evidenceLimit) more evidence items", .dim) + "\n"
        }
        return out + tail(g.scenarios, rerun: g.first.rerunCommand)
    }

    static func render(_ p: ProblemGroup, style: ConsoleStyle) -> String {
        let count = p.scenarios.count
        var out =
            "\n" + style.paint("── \(p.status)", .yellow)
            + style.paint(" in \(count) scenario\(count == 1 ? "" : "s")", .bold)
            + (p.detail.isEmpty ? "" : ": " + clipped(p.detail, indent: 3)) + "\n"
        out += "   first: \(clean(p.first.id)) — \(clean(p.first.title))\n"
        return out + tail(p.scenarios, rerun: p.first.rerunCommand)
    }

    /// `also in: …` for the group's other scenarios (the first `groupIDLimit`), then the first one's re-run command.
    static func tail(_ scenarios: [String], rerun: String) -> String {
        var out = ""
        let others = scenarios.dropFirst()
        if !others.isEmpty {
            let shown = others.prefix(groupIDLimit).map(clean).joined(separator: ", ")
            let more = others.count > groupIDLimit ? " and \(others.count - groupIDLimit) more" : ""
            out += "   also in: \(shown)\(more)\n"
        }
        return out + "   re-run: " + clean(rerun) + "\n"
    }

    /// At most `valueLineLimit` lines of `text`, continuation lines indented by `indent`.
    static func clipped(_ text: String, indent width: Int) -> String {
        let lines = clean(text).split(separator: "\n", omittingEmptySubsequences: false)
        var shown = lines.prefix(valueLineLimit).joined(separator: "\n")
        if lines.count > valueLineLimit { shown += "\n… \(lines.count - valueLineLimit) more lines" }
        return indent(shown, width)
    }

    /// One line for one piece of evidence: a push as host, push type, priority, expiry and status; an
    /// exchange, event or note by its title (and the start of its text).
    static func evidenceLine(_ e: EvidenceItem) -> String {
        let title = clean(e.title)
        switch e.kind {
        case .push:
            guard let facts = pushFacts(e.text) else { return "push: " + title }
            return "push: \(title) [\(facts)]"
        case .httpExchange: return "exchange: " + title
        case .event, .note:
            let first = clean(e.text).split(separator: "\n").first.map(String.init) ?? ""
            let text = first.count > 100 ? String(first.prefix(100)) + "…" : first
            return "\(e.kind.rawValue): \(title)\(text.isEmpty ? "" : " " + text)"
        }
    }

    /// `api.sandbox.push.apple.com, voip, priority 10, apns-expiration 0, status 200` from a capture's
    /// JSON (as the engine's evidence holds it); nil when the text is not a capture.
    static func pushFacts(_ text: String) -> String? {
        guard let data = text.data(using: .utf8),
            let capture = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            capture["mock"] is String
        else { return nil }
        var facts: [String] = []
        if let host = (capture["addressedHost"] as? String) ?? (capture["authority"] as? String) {
            facts.append(clean(host))
        } else if let mock = capture["mock"] as? String {
            facts.append(clean(mock))
        }
        if let apns = capture["apns"] as? [String: Any] {
            if let type = (apns["effectivePushType"] as? String) ?? (apns["pushType"] as? String) {
                facts.append(clean(type))
            }
            if let p = apns["priority"] as? NSNumber { facts.append("priority \(p)") }
            if let e = apns["expiration"] as? NSNumber { facts.append("apns-expiration \(e)") }
        }
        if let fcm = capture["fcm"] as? [String: Any] {
            if let p = fcm["priority"] as? String { facts.append("priority " + clean(p)) }
            if let ttl = fcm["ttlSeconds"] as? NSNumber { facts.append("ttl \(ttl)s") }
        }
        if let json = capture["json"] as? [String: Any] {
            let message = json["message"] as? [String: Any]
            let callx = (json["callx"] as? [String: Any]) ?? (message?["data"] as? [String: Any]) ?? json
            if let type = callx["type"] as? String { facts.append(clean(type)) }
        }
        if let response = capture["response"] as? [String: Any], let status = response["status"] as? NSNumber {
            facts.append("status \(status)")
        }
        if let outcome = capture["outcome"] as? String, outcome != "accepted" {
            facts.append(clean(outcome) + ((capture["reason"] as? String).map { " (\(clean($0)))" } ?? ""))
        }
        return facts.joined(separator: ", ")
    }
}
