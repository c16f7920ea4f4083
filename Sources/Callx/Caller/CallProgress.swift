import Conformance
import JSON

/// What the fake caller learned about its call, from any source.
public enum CallObservation: Sendable {
    /// A snapshot: the create response, a `GET` of the call, or the response to our own end.
    case snapshot(JSONValue)
    /// An event for this call on the caller's event feed.
    case event(JSONValue)
    /// A push for this call that one of ringcheck's mocks received.
    case push(PushSighting)
}

/// One push for the call as a mock saw it, without secrets.
public struct PushSighting: Sendable, Equatable {
    /// `apns` or `fcm`.
    public var provider: String
    /// `sandbox` or `production` for APNs; nil for FCM.
    public var environment: String?
    /// The virtual device's name, or the redacted token (`ab12…9f3e`) of a device ringcheck does not know.
    public var device: String
    /// `call.invited`, `call.ended`, … (the `callx.type`), or nil when unreadable.
    public var type: String?
    /// `callx.reason` (stop signals).
    public var reason: String?
    public var revision: String?
    /// `callx.eventId`: the message; a second push of it to a device is a repeat (a retry).
    public var eventId: String?
    /// `callx.issuedAtMs`: when the backend built the message (the backend's clock).
    public var issuedAtMs: Int64?
    public var accepted: Bool
    public var status: Int
    /// The provider's rejection reason (`BadDeviceToken`, `UNREGISTERED`), nil when accepted.
    public var rejection: String?
    /// Arrival at the mock, ms since the UNIX epoch (ringcheck's clock).
    public var arrivalMs: Int64
    /// APNs: `apns-push-type`, `apns-priority`, `apns-expiration`.
    public var pushType: String?
    public var priority: String?
    public var apnsExpiration: Int64?
    /// FCM: `android.ttl` in seconds.
    public var ttlSeconds: Double?

    /// Creates a value from its parts.
    public init(
        provider: String, environment: String? = nil, device: String, type: String?, reason: String? = nil,
        revision: String? = nil, accepted: Bool, status: Int, rejection: String? = nil, arrivalMs: Int64,
        pushType: String? = nil, priority: String? = nil, apnsExpiration: Int64? = nil, ttlSeconds: Double? = nil,
        eventId: String? = nil, issuedAtMs: Int64? = nil
    ) {
        self.provider = provider
        self.environment = environment
        self.device = device
        self.type = type
        self.reason = reason
        self.revision = revision
        self.accepted = accepted
        self.status = status
        self.rejection = rejection
        self.arrivalMs = arrivalMs
        self.pushType = pushType
        self.priority = priority
        self.apnsExpiration = apnsExpiration
        self.ttlSeconds = ttlSeconds
        self.eventId = eventId
        self.issuedAtMs = issuedAtMs
    }

    /// True for an invitation (what rings a phone).
    public var isInvitation: Bool { type == "call.invited" }
}

/// Who ended the call, as far as the caller can tell.
public enum CallEnder: String, Sendable, Equatable {
    /// We did (cancel, hang-up, give-up, Ctrl-C).
    case caller
    /// The callee's side (decline, busy, hang-up).
    case callee
    /// The backend's ring timeout.
    case backend
}

/// A change worth a line on the timeline, decided by `CallProgress`.
public enum CallChange: Sendable, Equatable {
    case answered(installationId: String, afterMs: Int64?)
    case ended(reason: String, by: CallEnder)
    /// The backend did something the seed rules out.
    case finding(String)
}

/// The call as the caller sees it: a pure state machine fed with observations, deciding what
/// changed and what the backend got wrong. No I/O, so every rule is testable without sockets.
public struct CallProgress: Sendable {
    public enum State: String, Sendable { case ringing, accepted, ended }

    public let callId: String
    public private(set) var state: State = .ringing
    public private(set) var createdAtMs: Int64?
    public private(set) var expiresAtMs: Int64?
    public private(set) var winner: String?
    public private(set) var answeredAfterMs: Int64?
    public private(set) var endReason: String?
    public private(set) var endedBy: CallEnder?
    /// When we first learned the call ended (ringcheck's clock, ms since the epoch).
    public private(set) var endLearnedAtMs: Int64?
    /// Whether the call was ever accepted.
    public private(set) var wasAnswered = false
    /// The reason we asked to end with, once we did.
    public private(set) var ourEndReason: String?
    /// Our own end request ended the call (`ourEndAccepted`).
    private var endedByOurRequest = false
    public private(set) var findings: [String] = []
    public private(set) var pushes: [PushSighting] = []
    /// How long after the end an invitation may still arrive (it was in flight).
    public var inFlightMarginMs: Int64 = 1_000
    /// How long after the end an invitation the backend built before it (`issuedAtMs`) may still arrive, as
    /// the suite allows (`InvariantContext.inFlightIssuedBoundMs`): later, it was not in flight but stuck.
    public var inFlightIssuedBoundMs: Int64 = InFlightInvitation.issuedBoundMs
    /// Each invitation message already pushed to a device (`device|eventId`): a later push of it is a repeat.
    private var invitationsSent: Set<String> = []

    public init(callId: String) { self.callId = callId }

    /// Notes that we asked the backend to end the call with `reason`.
    public mutating func weAskedToEnd(reason: String) { ourEndReason = reason }

    /// Our end request was accepted while the call had not ended before it was sent: the call ended
    /// because we asked, whatever reason the backend stored or an event named (a backend may store
    /// its own reason for a caller's hang-up).
    public mutating func ourEndAccepted(stateWhenSent: State) {
        guard stateWhenSent != .ended else { return }
        endedByOurRequest = true
        if state == .ended { endedBy = .caller }
    }

    /// Applies an observation made at `nowMs` (ringcheck's clock) and returns what changed.
    public mutating func observe(_ observation: CallObservation, nowMs: Int64) -> [CallChange] {
        switch observation {
        case .snapshot(let snapshot): return absorbSnapshot(snapshot, nowMs: nowMs)
        case .event(let event): return absorbEvent(event, nowMs: nowMs)
        case .push(let push): return absorbPush(push)
        }
    }

    // MARK: Sources

    private mutating func absorbSnapshot(_ s: JSONValue, nowMs: Int64) -> [CallChange] {
        if let c = s["createdAtMs"]?.epochMsValue, createdAtMs == nil { createdAtMs = c }
        if let e = s["expiresAtMs"]?.epochMsValue { expiresAtMs = e }
        switch s["state"]?.stringValue {
        case "accepted":
            return accepted(by: s["answeredByInstallationId"]?.stringValue, occurredAtMs: nil, nowMs: nowMs)
        case "ended":
            var changes: [CallChange] = []
            if let w = s["answeredByInstallationId"]?.stringValue, !wasAnswered {
                changes += accepted(by: w, occurredAtMs: nil, nowMs: nowMs)
            }
            let reason = s["endReason"]?.stringValue ?? "unknown"
            return changes + ended(reason: reason, by: ender(reason), nowMs: nowMs)
        case "ringing":
            if state != .ringing {
                return [record("the call went back to ringing after it was \(state.rawValue) (a GET snapshot)")]
            }
            return []
        default:
            return []
        }
    }

    private mutating func absorbEvent(_ e: JSONValue, nowMs: Int64) -> [CallChange] {
        switch e["type"]?.stringValue {
        case "call.accepted":
            return accepted(
                by: e["answeredByInstallationId"]?.stringValue, occurredAtMs: e["occurredAtMs"]?.epochMsValue,
                nowMs: nowMs)
        case "call.ended":
            let reason = e["reason"]?.stringValue ?? "remoteEnded"
            return ended(reason: reason, by: ender(reason), nowMs: nowMs)
        default:
            return []
        }
    }

    private mutating func absorbPush(_ p: PushSighting) -> [CallChange] {
        pushes.append(p)
        guard p.isInvitation else { return [] }
        let firstSend = invitationsSent.insert(p.device + "|" + (p.eventId ?? "")).inserted
        guard p.accepted, let learned = endLearnedAtMs else { return [] }
        // On a busy machine an invitation in flight when the call ended can take seconds to arrive, and the
        // backend did not send it after the end.
        let began = InFlightInvitation.sendBeganMs(
            arrivalMs: p.arrivalMs, issuedAtMs: p.issuedAtMs, firstSend: firstSend, stopMs: learned,
            boundMs: inFlightIssuedBoundMs)
        if began > learned + inFlightMarginMs {
            return [
                record(
                    "an invitation reached \(p.device) \(String(format: "%.1f", Double(p.arrivalMs - learned) / 1000)) s after the call ended"
                )
            ]
        }
        return []
    }

    // MARK: Transitions

    private mutating func accepted(by installation: String?, occurredAtMs: Int64?, nowMs: Int64) -> [CallChange] {
        let who = installation ?? "an unnamed installation"
        if let winner {
            guard installation != nil, who != winner else { return [] }
            return [record("a second winner: \(who) after \(winner) had answered")]
        }
        if state == .ended {
            winner = who
            wasAnswered = true
            return [record("the call was answered by \(who) after it had ended")]
        }
        winner = who
        wasAnswered = true
        state = .accepted
        // The backend's own times when it gives them; else when we learned it (an upper bound).
        // A backend's absurd times must not trap: an overflowing difference is no answer time at all.
        if let createdAtMs {
            let (after, overflow) = (occurredAtMs ?? nowMs).subtractingReportingOverflow(createdAtMs)
            answeredAfterMs = overflow ? nil : max(0, after)
        }
        return [.answered(installationId: who, afterMs: answeredAfterMs)]
    }

    private mutating func ended(reason: String, by: CallEnder, nowMs: Int64) -> [CallChange] {
        guard state != .ended else { return [] }
        state = .ended
        endReason = reason
        endedBy = by
        endLearnedAtMs = nowMs
        return [.ended(reason: reason, by: by)]
    }

    /// Who an end reason points at: us when it is the reason we asked for, the backend's ring
    /// timeout for `unanswered`, else the callee's side.
    private func ender(_ reason: String) -> CallEnder {
        if endedByOurRequest { return .caller }
        if let ours = ourEndReason, reason == ours { return .caller }
        return reason == "unanswered" ? .backend : .callee
    }

    private mutating func record(_ finding: String) -> CallChange {
        findings.append(finding)
        return .finding(finding)
    }

    /// Records a finding made outside the observations (the backend never ended the call, an end
    /// request that did not end it).
    public mutating func addFinding(_ finding: String) -> CallChange { record(finding) }

    /// The invitations providers accepted, and those they refused.
    public var invitationCounts: (accepted: Int, rejected: Int) {
        let invitations = pushes.filter(\.isInvitation)
        return (invitations.filter(\.accepted).count, invitations.filter { !$0.accepted }.count)
    }
}
