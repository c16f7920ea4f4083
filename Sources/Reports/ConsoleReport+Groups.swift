import Foundation

extension ConsoleReport {
    /// How many other scenario IDs a group names before `and N more`.
    static let groupIDLimit = 6
    /// How many lines of expected or actual a group shows.
    static let valueLineLimit = 4
    /// How many evidence items a group shows, one line each.
    static let evidenceLimit = 6

    /// The failures grouped by requirement and check (`FailureGroups`), MUSTs first, then scenarios that
    /// errored or timed out grouped by reason. Its size grows with the number of distinct failures, not of scenarios.
    static func failureGroups(_ r: RunResult, style: ConsoleStyle) -> String {
        let grouped = FailureGroups(r)
        var out = ""
        for g in grouped.failures { out += render(g, r, style: style) }
        for p in grouped.problems { out += render(p, style: style) }
        if !grouped.isEmpty {
            out +=
                style.paint("   (--verbose prints every failure with its full evidence; so does report.html)", .dim)
                + "\n"
        }
        return out
    }

    /// `── MUST CALLX-APNS-5 failed in 3 scenarios: …` (`── ⚠ SHOULD … warning in …` for a warning).
    static func groupTitle(_ f: CheckFailure, count: Int, warning: Bool, style: ConsoleStyle) -> String {
        let id = clean(f.requirement ?? "unattributed")
        let scenarios = "\(count) scenario\(count == 1 ? "" : "s")"
        let head =
            warning
            ? style.paint("── ⚠ SHOULD \(id)", .yellow) + style.paint(" warning in \(scenarios)", .bold)
            : style.paint("── \(f.level.rawValue) \(id)", .red) + style.paint(" failed in \(scenarios)", .bold)
        return head + ": " + clean(ReportWording.check(f.check))
    }

    static func render(_ g: FailureGroups.Failure, _ r: RunResult, style: ConsoleStyle) -> String {
        let f = g.failure
        var out = "\n" + groupTitle(f, count: g.scenarios.count, warning: g.isWarning, style: style) + "\n"
        if let statement = f.requirement.flatMap({ r.requirement($0)?.statement }) {
            out += style.paint("   \(ReportWording.ruleLabel(f.level)) \(clean(statement))", .dim) + "\n"
        }
        out += "   first: \(clean(g.first.id)) — \(clean(g.first.title))\n"
        out += ruleAndActual(f, now: r.finishedAt, indent: 5) { clipped($0, indent: $1) }
        for e in f.evidence.prefix(evidenceLimit) {
            out += style.paint("     " + ReportWording.withDates(evidenceLine(e), now: r.finishedAt), .dim) + "\n"
        }
        if f.evidence.count > evidenceLimit {
            out += style.paint("     … \(f.evidence.count - evidenceLimit) more evidence items", .dim) + "\n"
        }
        for line in FailureGroups.otherCheckLines(g) { out += "   also failed by: " + clean(line) + "\n" }
        return out + tail(g.scenarios, rerun: g.first.rerunCommand)
    }

    /// The rule as a rule (`must be: "0"`) right above the actual value, whose Unix times read as dates;
    /// each value passes through `value(text, continuation indent)`.
    static func ruleAndActual(
        _ f: CheckFailure, now: Date, indent: Int, value: (String, Int) -> String
    ) -> String {
        let rule = ReportWording.rule(f.level, expected: f.expected)
        let width = max(rule.label.count, "actual:".count) + 1
        let pad = { (label: String) in label + String(repeating: " ", count: width - label.count) }
        let margin = String(repeating: " ", count: indent)
        return margin + pad(rule.label) + value(rule.text, indent + width) + "\n" + margin + pad("actual:")
            + value(ReportWording.withDates(f.actual, now: now), indent + width) + "\n"
    }

    static func render(_ p: FailureGroups.Problem, style: ConsoleStyle) -> String {
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
        if let json = capture["json"] as? [String: Any], let type = messageType(json) {
            facts.append(clean(type))
        }
        if let response = capture["response"] as? [String: Any], let status = response["status"] as? NSNumber {
            facts.append("status \(status)")
        }
        if let outcome = capture["outcome"] as? String, outcome != "accepted" {
            facts.append(clean(outcome) + ((capture["reason"] as? String).map { " (\(clean($0)))" } ?? ""))
        }
        return facts.joined(separator: ", ")
    }

    /// The `type` a push's body names, wherever its profile keeps it: at the top (`{"type": …}`), in FCM's
    /// `message.data`, or in one object member of the body (`{"aps": {}, "callx": {"type": …}}`, whatever
    /// the member's name), so the console knows no profile by name. Nil when none or several differ.
    static func messageType(_ json: [String: Any]) -> String? {
        if let type = json["type"] as? String { return type }
        if let data = (json["message"] as? [String: Any])?["data"] as? [String: Any],
            let type = data["type"] as? String
        {
            return type
        }
        let found = Set(json.values.compactMap { ($0 as? [String: Any])?["type"] as? String })
        return found.count == 1 ? found.first : nil
    }
}
