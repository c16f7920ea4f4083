import Callx
import Conformance
import Foundation
import Reports

/// Writes the fake caller's timeline as it happens: text lines (`+0.012s created call …`, coloured
/// on a terminal unless `NO_COLOR`), or with `--json` one JSON object per line and a summary.
struct CallTimelinePrinter: Sendable {
    let json: Bool
    let colors: Bool

    init(json: Bool, colors: Bool = ConsoleStyle.forStandardOutput().colors) {
        self.json = json
        self.colors = colors
    }

    func print(_ e: CallTimelineEntry) {
        if json {
            Console.out(e.json.serialized())
            return
        }
        Console.out(paint(Self.stamp(e.elapsed), "2") + " " + paint(e.message, Self.color(e)))
    }

    func summary(_ r: FakeCallResult, exitCode: ExitCode) {
        if json {
            Console.out(r.json.setting("exitStatus", to: .int(exitCode.rawValue)).serialized())
            return
        }
        var lines = [""]
        let color =
            r.outcome == .answered ? "32" : (r.outcome == .misbehaved || r.outcome == .inconclusive ? "31" : "33")
        lines.append(
            paint("Outcome: \(r.outcome.rawValue)", "1;" + color) + " — \(r.detail) (exit \(exitCode.rawValue))")
        lines.append("Call \(r.callId)")
        if let who = r.answeredBy {
            lines.append(
                "Answered by installation \(who)"
                    + (r.answeredAfterMs.map { String(format: " after %.2fs", Double($0) / 1000) } ?? ""))
        }
        lines.append(
            "Invitations: \(r.invitationsAccepted) accepted by the push mocks, \(r.invitationsRejected) rejected"
                + String(format: "; watched for %.1fs", r.duration))
        for f in r.findings { lines.append(paint("Finding: \(f)", "31")) }
        Console.out(lines.joined(separator: "\n"))
    }

    /// `+0.012s`, `+12.345s`, `-0.020s` (set-up before the call), right-aligned.
    static func stamp(_ seconds: Double) -> String {
        let text = (seconds < 0 ? "-" : "+") + String(format: "%.3fs", abs(seconds))
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    static func color(_ e: CallTimelineEntry) -> String? {
        switch e.kind {
        case .created, .ended: return "1"
        case .answered: return "32"
        case .finding: return "31"
        case .push: return e.fields.contains { $0.key == "accepted" && $0.value == .bool(false) } ? "31" : "36"
        case .action: return "33"
        case .setup, .note: return "2"
        case .event: return nil
        }
    }

    func paint(_ text: String, _ code: String?) -> String {
        guard colors, let code else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
