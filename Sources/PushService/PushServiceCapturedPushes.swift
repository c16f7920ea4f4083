import Conformance
import Foundation
import JSON
import PushMocks

/// `check-payload --profile push-service`: the push-service push rules (`PushServiceRules`) over captured pushes,
/// without the requests that caused them. Each token is a device (an APNs token that got a VoIP push is a VoIP
/// token); the pushes of one call (`call_id`, `type`, ringcheck's marker when present) stand for one request whose
/// `call.id` is that `call_id`, so a call sent as an alert, without priority 10 or high priority, with a
/// notification block, non-string values, twice to one device, or arriving more than its `timeout` (+ 5 s) after
/// the call's first push is caught.
enum PushServiceCapturedPushes: CapturedPushJudge {
    typealias N = PushServiceNotification

    static let profile = PushServiceProfile.profileName
    static let unjudged =
        "without the requests, a notification's mapping (alert text, ttl, collapse id, badge, channel), the request's values, the sandbox host and the counts are not judged"

    static let providers: [MockProviderID] = [.apns, .fcm]

    static func violations(of captures: [Capture], context: CapturedPushContext) -> [Violation] {
        let voipTopic = context.voipTopic
        var groups: [String: [Capture]] = [:]
        var order: [String] = []
        for c in captures {
            guard let p = PushServicePush(c) else { continue }
            let key = p.isCall ? "call \(p.callId ?? "") \(p.type ?? "") \(p.marker ?? "")" : "push \(c.sequence)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(c)
        }
        var out: [Violation] = []
        for key in order {
            let group = groups[key] ?? []
            guard let first = group.first, let p = PushServicePush(first) else { continue }
            var notifications: [N] = []
            if p.isCall, let callId = p.callId {
                let action = p.type == N.endedType ? "ended" : "incoming"
                let sentAtMs = group.map(\.arrivalMs).min() ?? first.arrivalMs
                notifications.append(
                    N(
                        marker: p.marker ?? "captured-\(first.sequence)",
                        body: .object([("call", .object([("action", .string(action)), ("id", .string(callId))]))]),
                        sentAtMs: sentAtMs, status: 200, id: nil, devices: [], save: nil, answeredAtMs: sentAtMs))
            }
            let judged = group.map { PushServiceJudgedPush(capture: $0, device: device(of: $0, among: captures)) }
            out += PushServiceInvariants.check(
                judged, notifications: notifications, bundleId: bundleId(voipTopic, first),
                voipTopic: CapturedPushCheck.voipTopic(voipTopic, for: first))
        }
        return out.sorted { ($0.sequence ?? 0) < ($1.sequence ?? 0) }
    }

    /// The device a push went to: its token, a VoIP token when any push to it was a VoIP push.
    static func device(of c: Capture, among all: [Capture]) -> PushServiceDevice {
        let token = PushServiceCounts.token(of: c) ?? "?"
        let voip =
            c.mock == .apns
            && all.contains { PushServiceCounts.token(of: $0) == token && $0.headers["apns-push-type"] == "voip" }
        return PushServiceDevice(
            name: "device " + Redaction.shortToken(token), user: "", platform: c.mock == .apns ? .ios : .android,
            token: voip ? nil : token, voipToken: voip ? token : nil, sandbox: c.environment == .sandbox)
    }

    static func bundleId(_ voipTopic: String?, _ c: Capture) -> String {
        let topic = CapturedPushCheck.voipTopic(voipTopic, for: c)
        return String(topic.dropLast(".voip".count))
    }
}

extension PushServiceProfile {
    /// `check-payload --profile push-service` judges captures by `PushServiceCapturedPushes`.
    public var capturedPushJudge: (any CapturedPushJudge.Type)? { PushServiceCapturedPushes.self }
}
