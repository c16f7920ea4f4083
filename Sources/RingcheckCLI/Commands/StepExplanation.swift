import AllProfiles
import Conformance
import Foundation
import JSON
import PushMocks

/// One sentence per scenario step for `ringcheck explain`: what the step does (generated from the step
/// itself), the requirement it judges, and the comment written above it in the scenario file.
enum StepExplanation {
    /// What `step` does, in one sentence.
    static func sentence(_ step: Step) -> String {
        switch step {
        case .registerToken(let s):
            return "Registers \(s.device)'s push token\(s.asUser.map { " as user \($0)" } ?? "")\(expects(s.options))."
        case .deleteToken(let s):
            return "Deletes \(s.device)'s push token\(s.asUser.map { " as user \($0)" } ?? "")\(expects(s.options))."
        case .request(let s):
            let who = s.actor.map(actor) ?? "ringcheck"
            let auth =
                switch s.auth {
                case .session: ""
                case .none: " without credentials"
                case .invalid: " with credentials the backend must refuse"
                }
            return "\(who) sends \(s.method) \(text(s.path))\(auth)\(expects(s.options))."
        case .expectPush(let s):
            let count = s.count == 1 ? "a" : "\(s.count)"
            return
                "Waits up to \(s.within) until \(s.to.joined(separator: " and ")) \(s.to.count == 1 ? "has" : "each have") received \(count) \(s.type ?? "matching") push\(s.count == 1 ? "" : "es")\(s.call.map { " for call \(text($0))" } ?? "")\(matching(s.match))."
        case .expectNoPush(let s):
            return
                "Checks that \(s.to.joined(separator: " and ")) get\(s.to.count == 1 ? "s" : "") no further \(s.type ?? "") push\(s.call.map { " for call \(text($0))" } ?? "") \(s.fromNow ? "from now" : "since the start") for \(s.duration)\(matching(s.match))."
                .replacingOccurrences(of: "  ", with: " ")
        case .race(let s):
            return
                "Releases \(s.steps.count) requests at the same instant\(s.winners.map { "; exactly \($0) must succeed" } ?? "")."
        case .expectNotLogged(let s):
            return
                "Watches the backend's log for \(s.duration): no push token, push body\(s.values.isEmpty ? "" : " or the \(s.values.count) listed value\(s.values.count == 1 ? "" : "s")") may appear."
        case .fault(let s):
            return "Makes the push mock misbehave\(s.device.map { " for \($0)" } ?? ""): \(fault(s.plan))."
        case .save(let values):
            return "Saves \(values.keys.sorted().joined(separator: ", ")) for later steps."
        case .restartBackend: return "Restarts the backend and waits until it answers again."
        case .wait(let d): return "Lets \(d) pass so that late pushes and events are captured; judges nothing itself."
        case .profile(let p): return profileSentence(p.base)
        }
    }

    /// The requirement a step judges, if it names one.
    static func requirement(_ step: Step) -> String? {
        switch step {
        case .registerToken(let s): return s.options.expect?.requirement
        case .deleteToken(let s): return s.options.expect?.requirement
        case .request(let s): return s.options.expect?.requirement
        case .expectPush(let s): return s.requirement ?? s.match.compactMap(\.requirement).first
        case .expectNoPush(let s): return s.requirement
        case .race(let s): return s.requirement
        case .expectNotLogged(let s): return s.requirement
        case .profile(let p): return find("requirement", in: p.base, depth: 4)
        default: return nil
        }
    }

    /// The `#` comment lines directly above the step's line (and a comment at the end of it), from the file.
    static func comment(file: String, line: Int, lines: [Substring]) -> String? {
        guard line >= 1, line <= lines.count else { return nil }
        var above: [String] = []
        var i = line - 2
        while i >= 0 {
            let t = lines[i].trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("#") else { break }
            above.insert(t.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces), at: 0)
            i -= 1
        }
        if let hash = lines[line - 1].range(of: " # ") {
            above.append(lines[line - 1][hash.upperBound...].trimmingCharacters(in: .whitespaces))
        }
        return above.isEmpty ? nil : above.joined(separator: " ")
    }

    // MARK: - Pieces

    static func actor(_ a: StepActor) -> String {
        switch a {
        case .user(let u): return "user \(u)"
        case .device(let d): return "device \(d)"
        }
    }

    static func text(_ v: JSONValue) -> String { v.stringValue ?? v.serialized() }

    static func expects(_ o: RequestOptions) -> String {
        var out = ""
        if let e = o.expect {
            if e.anyStatus {
                out += "; any status"
            } else if let status = e.status {
                out += "; expects status \(status.map(String.init).joined(separator: " or "))"
            }
            if !e.body.isEmpty { out += "; checks " + e.body.map(\.path).joined(separator: ", ") + " in the body" }
        }
        if let save = o.save { out += "; saves the response as $\(save)" }
        return out
    }

    static func matching(_ m: [PathMatcher]) -> String {
        m.isEmpty ? "" : " with " + m.map(\.path).joined(separator: ", ") + " as given"
    }

    static func fault(_ p: FaultPlan) -> String {
        var parts: [String] = []
        if let r = p.respond { parts.append("answer \(r)") }
        if let ms = p.latencyMs { parts.append("delay \(ms) ms") }
        if let t = p.times { parts.append("\(t) time\(t == 1 ? "" : "s")") }
        return parts.isEmpty ? "as planned" : parts.joined(separator: ", ")
    }

    static func profileSentence(_ step: any ProfileStep) -> String {
        let verb = step.explanation ?? "Runs the '\(step.keyword)' step"
        let facts = fields(step).filter { $0.0 != "requirement" }.map { "\($0.0) \($0.1)" }
        return verb + (facts.isEmpty ? "" : " (" + facts.joined(separator: ", ") + ")") + "."
    }

    /// The step's simple fields, as `(name, value)`: strings, numbers, JSON values, users and devices.
    static func fields(_ value: Any) -> [(String, String)] {
        Mirror(reflecting: value).children.compactMap { child -> (String, String)? in
            guard let label = child.label, label != "keyword" else { return nil }
            let v = unwrap(child.value)
            switch v {
            case let s as String: return (label, s)
            case let n as Int: return (label, String(n))
            case let b as Bool: return (label, String(b))
            case let j as JSONValue: return (label, text(j))
            case let a as StepActor: return ("by", actor(a))
            case let d as ScenarioDuration: return (label, d.description)
            case let o as RequestOptions:
                let e = expects(o)
                return e.isEmpty ? nil : ("then", String(e.dropFirst(2)))
            default: return nil
            }
        }
    }

    static func unwrap(_ v: Any) -> Any {
        let m = Mirror(reflecting: v)
        guard m.displayStyle == .optional else { return v }
        return m.children.first.map { unwrap($0.value) } ?? NSNull()
    }

    /// The first non-nil string field called `label`, searching nested values up to `depth`.
    static func find(_ label: String, in value: Any, depth: Int) -> String? {
        guard depth > 0 else { return nil }
        for child in Mirror(reflecting: value).children {
            let v = unwrap(child.value)
            if child.label == label, let s = v as? String { return s }
            if let s = find(label, in: v, depth: depth - 1) { return s }
        }
        return nil
    }
}
