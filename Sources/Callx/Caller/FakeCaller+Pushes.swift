import Conformance
import InputLimits
import JSON
import PushMocks

extension FakeCaller {
    // MARK: Watching the mocks

    /// Puts every push for this call that a mock receives (after `bookmark`) on the timeline, as it arrives.
    func watchPushes(after bookmark: Int) async {
        guard let log = mocks?.log else { return }
        let id = callId
        var last = bookmark
        while !Task.isCancelled {
            let after = last
            let found = await log.waitFor(
                { $0.sequence > after && Self.capture($0, isForCall: id) }, timeout: .seconds(1))
            guard found != nil else { continue }
            for c in log.captures(where: { $0.sequence > after && Self.capture($0, isForCall: id) }) {
                last = max(last, c.sequence)
                let sighting = sighting(c)
                entry(.push, Self.describe(sighting), Self.fields(sighting), at: sighting.arrivalMs)
                observe(.push(sighting))
                checkPayload(c)
            }
        }
    }

    /// Whether a push capture carries this call's `callx` payload.
    static func capture(_ c: Capture, isForCall callId: String) -> Bool {
        c.mock != .oauth && PushMatchDocument.callx(c)?["callId"]?.stringValue == callId
    }

    /// Whether `c` was sent to the virtual device `d` (as its channel's provider reads a capture).
    static func capture(_ c: Capture, isFor d: VirtualCallee) -> Bool { d.receives(c) }

    func sighting(_ c: Capture) -> PushSighting {
        let callx = PushMatchDocument.callx(c)
        let device =
            plan.calleeDevices.first { Self.capture(c, isFor: $0) }?.name
            ?? Redaction.shortToken(c.deviceToken ?? c.fcmTarget?.value ?? "")
        var s = PushSighting(
            provider: c.mock.rawValue, environment: c.environment?.rawValue, device: device,
            type: callx?["type"]?.stringValue, reason: callx?["reason"]?.stringValue,
            revision: callx?["revision"]?.stringValue, accepted: c.outcome.isAccepted, status: c.response.status,
            rejection: c.outcome.reason, arrivalMs: c.arrivalMs, eventId: callx?["eventId"]?.stringValue,
            issuedAtMs: callx?["issuedAtMs"].flatMap {
                $0.epochMsValue
                    ?? $0.stringValue.flatMap { Int64($0) }.flatMap { CheckedNumber.epochMs.contains($0) ? $0 : nil }
            })
        if let apns = c.apns {
            s.pushType = apns.effectivePushType ?? apns.pushType
            s.priority = apns.priority.map(String.init)
            s.apnsExpiration = apns.expiration
        }
        if let fcm = c.fcm {
            s.priority = fcm.priority
            s.ttlSeconds = fcm.ttlSeconds
        }
        return s
    }

    /// `APNs accepted invitation to phone (voip, priority 10, apns-expiration 0)`.
    static func describe(_ s: PushSighting) -> String {
        var provider = s.provider == "apns" ? "APNs" : "FCM"
        if s.environment == "sandbox" { provider += " sandbox" }
        var what = s.isInvitation ? "invitation" : (s.type ?? "push")
        if let reason = s.reason { what += " (\(reason))" }
        guard s.accepted else {
            return "\(provider) rejected \(what) to \(s.device): \(s.rejection ?? "?") (\(s.status))"
        }
        var details: [String] = []
        if let t = s.pushType { details.append(t) }
        if let p = s.priority { details.append("priority \(p)") }
        if let e = s.apnsExpiration { details.append("apns-expiration \(e)") }
        if let ttl = s.ttlSeconds { details.append("ttl " + JSONValue.double(ttl).serialized() + "s") }
        return "\(provider) accepted \(what) to \(s.device)"
            + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    static func fields(_ s: PushSighting) -> [(key: String, value: JSONValue)] {
        var m: [(key: String, value: JSONValue)] = [
            ("provider", .string(s.provider)), ("device", .string(s.device)),
            ("type", s.type.map { .string($0) } ?? .null), ("accepted", .bool(s.accepted)), ("status", .int(s.status)),
        ]
        if let e = s.environment { m.append(("environment", .string(e))) }
        if let r = s.reason { m.append(("reason", .string(r))) }
        if let r = s.revision { m.append(("revision", .string(r))) }
        if let r = s.rejection { m.append(("rejection", .string(r))) }
        if let p = s.pushType { m.append(("pushType", .string(p))) }
        if let p = s.priority { m.append(("priority", .string(p))) }
        if let e = s.apnsExpiration { m.append(("apnsExpiration", .int(e))) }
        if let t = s.ttlSeconds { m.append(("ttlSeconds", .double(t))) }
        return m
    }
}
