import Conformance
import JSON

/// How the call went, from the caller's side.
public enum FakeCallOutcome: String, Sendable, Equatable {
    /// Answered by the callee (and then ended, by either side).
    case answered
    /// The callee's side ended it while it rang: declined, busy, or another refusal.
    case declined
    /// Nobody answered: the backend's ring timeout, or the caller gave up.
    case unanswered
    /// We cancelled it while it rang (`--cancel-after`, or Ctrl-C).
    case cancelled
    /// The backend did something the seed rules out (an invitation after the end, two winners, a
    /// call that never ended).
    case misbehaved
    /// No verdict: the backend could not be reached, refused to create the call, or the call's
    /// end could not be seen.
    case inconclusive
}

/// The summary of one fake call.
public struct FakeCallResult: Sendable {
    public var outcome: FakeCallOutcome
    /// Why, in a few words (the end reason, the finding, the error).
    public var detail: String
    public var callId: String
    public var answeredBy: String?
    public var answeredAfterMs: Int64?
    public var endReason: String?
    public var endedBy: CallEnder?
    public var findings: [String]
    public var invitationsAccepted: Int
    public var invitationsRejected: Int
    /// Seconds from the create request to the end of watching.
    public var duration: Double
    /// True when the user interrupted (Ctrl-C).
    public var interrupted: Bool

    /// Creates a value from its parts.
    public init(
        outcome: FakeCallOutcome, detail: String, callId: String, answeredBy: String? = nil,
        answeredAfterMs: Int64? = nil, endReason: String? = nil, endedBy: CallEnder? = nil, findings: [String] = [],
        invitationsAccepted: Int = 0, invitationsRejected: Int = 0, duration: Double = 0, interrupted: Bool = false
    ) {
        self.outcome = outcome
        self.detail = detail
        self.callId = callId
        self.answeredBy = answeredBy
        self.answeredAfterMs = answeredAfterMs
        self.endReason = endReason
        self.endedBy = endedBy
        self.findings = findings
        self.invitationsAccepted = invitationsAccepted
        self.invitationsRejected = invitationsRejected
        self.duration = duration
        self.interrupted = interrupted
    }

    /// The verdict a finished call earns: findings first, then how it ended.
    public static func judge(_ p: CallProgress, duration: Double, interrupted: Bool) -> FakeCallResult {
        let counts = p.invitationCounts
        var result = FakeCallResult(
            outcome: .inconclusive, detail: "", callId: p.callId, answeredBy: p.winner,
            answeredAfterMs: p.answeredAfterMs, endReason: p.endReason, endedBy: p.endedBy, findings: p.findings,
            invitationsAccepted: counts.accepted, invitationsRejected: counts.rejected, duration: duration,
            interrupted: interrupted)
        if let first = p.findings.first {
            result.outcome = .misbehaved
            result.detail = first + (p.findings.count > 1 ? " (and \(p.findings.count - 1) more)" : "")
            return result
        }
        guard p.state == .ended, let reason = p.endReason else {
            result.detail = "the call's end was not seen (it is still \(p.state.rawValue))"
            return result
        }
        let by = p.endedBy.map { " by \($0.rawValue)" } ?? ""
        if p.wasAnswered {
            result.outcome = .answered
            result.detail = "answered by \(p.winner ?? "?"), ended: \(reason)\(by)"
        } else if reason == "unanswered" {
            result.outcome = .unanswered
            result.detail =
                p.endedBy == .caller ? "nobody answered; the caller gave up" : "nobody answered (unanswered)"
        } else if p.endedBy == .caller {
            result.outcome = .cancelled
            result.detail = "cancelled by the caller (\(reason))"
        } else {
            result.outcome = .declined
            result.detail = "not answered: \(reason)\(by)"
        }
        return result
    }

    /// The summary as the last line of `--json` output.
    public var json: JSONValue {
        var m: [(key: String, value: JSONValue)] = [
            ("kind", "summary"), ("outcome", .string(outcome.rawValue)), ("detail", .string(detail)),
            ("callId", .string(callId)),
        ]
        if let answeredBy { m.append(("answeredByInstallationId", .string(answeredBy))) }
        if let answeredAfterMs { m.append(("answeredAfterMs", .int(answeredAfterMs))) }
        if let endReason { m.append(("endReason", .string(endReason))) }
        if let endedBy { m.append(("endedBy", .string(endedBy.rawValue))) }
        m.append(("findings", .array(findings.map { .string($0) })))
        m.append(
            ("invitations", ["accepted": .int(invitationsAccepted), "rejected": .int(invitationsRejected)]))
        m.append(("durationS", .double((duration * 1000).rounded() / 1000)))
        m.append(("interrupted", .bool(interrupted)))
        return .object(m)
    }
}
