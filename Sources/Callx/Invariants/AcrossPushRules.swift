import Conformance
import JSON

/// The Callx rules that judge a push against the scenario rather than alone: the token's registered environment,
/// the call's timeline, and what the pushes before it leave (`InvariantChecker` works that out in push order and
/// hands it to each push in its subject).
///
/// | rule | applies to | requirement |
/// |---|---|---|
/// | an APNs push goes to the host of the token's registered environment | all sent | CALLX-APNS-7 |
/// | no invitation arrives after the engine saw the call answered, ended or expired (or after the invitation's own `expiresAtMs`), plus `inFlightMarginMs`; one whose `issuedAtMs` is no later than that moment was in flight and may arrive up to `inFlightIssuedBoundMs` after it | all sent | CALLX-EXP-2 |
/// | at most one invitation per device and call, unless a repeat carries the first one's eventId | accepted only (a retry after a rejection is not a second delivery) | CALLX-OUTBOX-4 |
/// | an eventId names one message: the same eventId on invitations of different calls | all sent | CALLX-INV-5 |
/// | the same eventId on a stop signal and another message | all sent | CALLX-EVT-3 |
enum AcrossPushRules {
    typealias R = CallxRequirement
    typealias PushRule = Rule<CallxPushSubject>

    /// The rules, in the order their findings are reported.
    static let all: [PushRule] = [environment, afterTheStop, oneDelivery, invitationEventId, signalEventId]

    /// CALLX-APNS-7: an APNs push goes to the environment its token is registered for.
    static let environment = PushRule(R.apnsEnvironment) { s, found in
        let push = s.push
        guard push.kind == .apns, let environment = push.environment,
            let device = s.context.device(token: push.deviceToken), device.kind == .apnsVoip,
            let registered = device.environment, registered.rawValue != environment.rawValue
        else { return }
        found.add(
            "host",
            expected: "APNs \(registered.rawValue) (\(device.name)'s token is registered for \(registered.rawValue))",
            actual: "APNs \(environment.rawValue)")
    }

    /// CALLX-EXP-2: no invitation after the call stopped ringing (or past its own `expiresAtMs`), but for one
    /// in flight.
    static let afterTheStop = PushRule(R.noInvitationAfterStop) { s, found in
        let (push, context) = (s.push, s.context)
        guard push.isInvitation, let arrival = push.arrivalMs, let callx = push.callx else { return }
        let callId = callx["callId"]?.stringValue ?? ""
        var stops: [(atMs: Int64, why: String)] = []
        if let stopped = context.calls[callId]?.stoppedRinging { stops.append(stopped) }
        if let own = ValueRules.millis(callx["expiresAtMs"]) { stops.append((own, "past its expiresAtMs")) }
        guard let stop = stops.min(by: { $0.atMs < $1.atMs }) else { return }
        let late = arrival - stop.atMs
        // Arrived within the margin, or stamped by the backend as sent no later than the stop and not absurdly
        // late: it was in flight (queued in the backend's HTTP/2 client on a loaded machine, say), not sent after.
        if InFlightInvitation.wasInFlight(
            arrivalMs: arrival, issuedAtMs: ValueRules.millis(callx["issuedAtMs"]), stopMs: stop.atMs,
            marginMs: context.inFlightMarginMs, boundMs: context.inFlightIssuedBoundMs)
        {
            return
        }
        found.add(
            "",
            expected: "no invitation to \(s.deviceName ?? "the device") after call \(callId) was \(stop.why) at "
                + "\(stop.atMs) (+\(context.inFlightMarginMs) ms in flight)",
            actual: "an invitation arrived at \(arrival), \(late) ms later")
    }

    /// CALLX-OUTBOX-4: a repeated accepted invitation to a device for a call carries the first one's eventId.
    static let oneDelivery = PushRule(R.oneDelivery) { s, found in
        guard let earlier = s.earlierDelivery, let callx = s.push.callx else { return }
        let eventId = callx["eventId"]?.stringValue
        guard eventId == nil || eventId != earlier.eventId else { return }
        let device = s.deviceName ?? s.push.deviceToken ?? "?"
        let callId = callx["callId"]?.stringValue ?? ""
        found.add(
            "callx.eventId",
            expected: "no second invitation to \(device) for call \(callId), or the same eventId "
                + (earlier.eventId.map(Describe.quoted) ?? "(the first had none)"),
            actual: eventId.map(Describe.quoted) ?? "absent", captures: earlier.sequence.map { [$0] } ?? [])
    }

    /// CALLX-INV-5: an invitation's eventId names no other message.
    static let invitationEventId = eventIdRule(R.invitationEventId, invitation: true)
    /// CALLX-EVT-3: a stop signal's eventId names no other message.
    static let signalEventId = eventIdRule(R.eventIdentity, invitation: false)

    static func eventIdRule(_ requirement: RequirementID, invitation: Bool) -> PushRule {
        PushRule(requirement) { s, found in
            guard s.push.isInvitation == invitation, let earlier = s.eventIdClash, let callx = s.push.callx,
                let eventId = callx["eventId"]?.stringValue
            else { return }
            found.add(
                "callx.eventId", expected: "eventId \(Describe.quoted(eventId)) only on \(earlier.identity)",
                actual: "also on \(EventIdRegistry.identity(callx))", captures: earlier.captures,
                events: earlier.events)
        }
    }
}

/// Accepted invitations per device and call: the first one's eventId, to judge repeats.
struct DeliveryLedger {
    struct First: Sendable {
        var sequence: Int?
        var eventId: String?
    }
    var first: [String: First] = [:]

    /// Notes an accepted invitation; returns the first one to the same device for the same call when this one
    /// repeats it.
    mutating func record(_ push: PushDocument, context: InvariantContext) -> First? {
        guard push.accepted ?? true, push.isInvitation, let callx = push.callx,
            let callId = callx["callId"]?.stringValue
        else { return nil }
        let device = context.device(token: push.deviceToken)?.name ?? push.deviceToken ?? "?"
        let key = push.kind.rawValue + "|" + device + "|" + callId
        if let earlier = first[key] { return earlier }
        first[key] = First(sequence: push.sequence, eventId: callx["eventId"]?.stringValue)
        return nil
    }
}
