import Conformance
import JSON
import PushMocks

/// Which `notify` request a push answers, told by the push's content and never by the millisecond it arrived in:
/// ringcheck's marker wherever the service put it (top level, nested under `custom`/`data`, inside a JSON text),
/// else the requests that targeted the device's user and had left by then, narrowed by what each made unique —
/// the kind of push, the call id, the collapse id, the title and text, the data values. A push still tied to more
/// than one request is `unattributed`: no rule that reads the request judges it.
///
/// ```swift
/// switch PushServiceAttribution.of(capture, push, device: d, notifications) {
/// case .request(let i): judge(push, against: notifications[i])
/// case .unattributed(let candidates): note("push #\(capture.sequence) could be any of \(candidates)")
/// case .none: judgeAlone(push)
/// }
/// ```
enum PushServiceAttribution {
    typealias N = PushServiceNotification

    /// The request `c` answers among `all` (in the order ringcheck sent them).
    static func of(_ c: Capture, _ p: PushServicePush, device d: PushServiceDevice, _ all: [N]) -> ContentAttribution {
        let strings = ContentCandidates.strings(in: c.json ?? .null)
        let marked = all.indices.filter { strings.contains(all[$0].marker) }
        if !marked.isEmpty { return ContentCandidates(marked).attribution }
        // A push cannot arrive before its request left; a request reaches the devices of the users it targets.
        var candidates = ContentCandidates(Array(all.indices))
        candidates.require { i in
            all[i].sentAtMs <= c.arrivalMs && (all[i].users.contains(d.user) || all[i].devices.contains(d.name))
        }
        candidates.prefer { all[$0].accepted }
        switch p.type {
        case N.incomingType?: candidates.prefer { all[$0].action == "incoming" }
        case N.endedType?: candidates.prefer { all[$0].action == "ended" }
        default: candidates.prefer { !all[$0].isCall }
        }
        if let callId = p.callId?.lowercased() {
            candidates.prefer { all[$0].givenCallId?.lowercased() == callId }
        }
        if let collapse = collapseId(c) { candidates.prefer { all[$0].body["collapse_id"]?.stringValue == collapse } }
        candidates.prefer { i in
            all[i].hasText && [all[i].heading, all[i].content].allSatisfy { $0.map(strings.contains) ?? true }
        }
        candidates.prefer { i in
            let values = (all[i].body["data"]?.objectValue ?? []).filter { $0.key != N.markerKey }
                .compactMap { PushServiceInvariants.text($0.value) }
            return !values.isEmpty && values.allSatisfy(strings.contains)
        }
        return candidates.attribution
    }

    /// The collapse id the push carries (APNs `apns-collapse-id`, FCM `android.collapse_key`).
    static func collapseId(_ c: Capture) -> String? {
        c.mock == .apns
            ? c.headers["apns-collapse-id"] : c.json?.value(atPath: "message.android.collapse_key")?.stringValue
    }
}
