import JSON
import PushMocks

/// One broken rule found in a OneSignal request or in what the backend said of it.
struct OneSignalViolation: Sendable, Equatable {
    var requirement: String
    /// The field judged (`body.app_id`, `delivered`).
    var field: String
    var expected: String
    var actual: String
    /// The capture's sequence number; nil when the finding is about an operation with no request.
    var sequence: Int?
}

/// One captured OneSignal request reduced to what the rules read.
struct OneSignalRequest: Sendable {
    var sequence: Int
    var arrivalMs: Int64
    var authorization: String?
    var body: JSONValue
    var status: Int
    /// The answer's `recipients` (0 when it has none).
    var recipients: Int
}

/// The OneSignal rules over every request of a scenario run, as a pure function of the requests, the operations
/// ringcheck triggered and the mock's two apps: which app and key, the targeting, the VoIP defaults, the option
/// mapping, and whether `delivered` told the truth about `recipients`.
enum OneSignalInvariants {
    typealias R = OneSignalRequirement

    /// The `PushOptions` names and their OneSignal fields.
    static let optionFields: [(option: String, field: String)] = [
        ("priority", "priority"), ("ttl", "ttl"), ("contentAvailable", "content_available"),
        ("apnsPushTypeOverride", "apns_push_type_override"), ("collapseId", "collapse_id"),
    ]
    /// Targeting parameters other than `include_aliases`.
    static let otherTargeting = [
        "include_player_ids", "include_subscription_ids", "include_external_user_ids", "included_segments",
        "filters",
    ]

    static func check(
        _ requests: [OneSignalRequest], operations: [OneSignalOperation], standard: OneSignalApp, voip: OneSignalApp
    ) -> [OneSignalViolation] {
        var out: [OneSignalViolation] = []
        var byOperation: [Int: [OneSignalRequest]] = [:]
        for r in requests {
            // The operation it answers: the latest sent before it arrived.
            guard let index = operations.lastIndex(where: { $0.sentAtMs <= r.arrivalMs }) else { continue }
            byOperation[index, default: []].append(r)
            let op = operations[index]
            func fail(_ requirement: String, _ field: String, _ expected: String, _ actual: String) {
                out.append(
                    OneSignalViolation(
                        requirement: requirement, field: field, expected: expected, actual: actual, sequence: r.sequence
                    ))
            }
            if op.unconfigured {
                fail(
                    R.unconfigured, "request", "no request (the instance has no OneSignal settings)",
                    "POST with app_id \(r.body["app_id"]?.serialized() ?? "absent")")
                continue
            }
            let b = r.body
            // App and key.
            let app = op.kind == .voipPush ? voip : standard
            let appRequirement = op.kind == .voipPush ? R.voipApp : R.standardApp
            let appName = op.kind == .voipPush ? "the VoIP app" : "the standard app"
            if b["app_id"]?.stringValue != app.appID {
                let other = b["app_id"]?.stringValue == (op.kind == .voipPush ? standard : voip).appID
                fail(
                    appRequirement, "body.app_id", "\(app.appID) (\(appName))",
                    (b["app_id"]?.serialized() ?? "absent") + (other ? " (the other app)" : ""))
            }
            if key(r.authorization) != app.apiKey {
                fail(
                    appRequirement, "headers.authorization", "Key <\(appName)'s REST API key>",
                    key(r.authorization) == nil ? "absent or not Key/Basic" : "another key")
            }
            // Targeting.
            if let externalId = op.externalId {
                let aliases = b.value(atPath: "include_aliases.external_id")
                let others = otherTargeting.filter { b[$0] != nil }
                if aliases != .array([.string(externalId)]) || !others.isEmpty {
                    fail(
                        R.targeting, "body.include_aliases",
                        "{\"external_id\": [\"\(externalId)\"]} and no other targeting",
                        "include_aliases.external_id \(aliases?.serialized() ?? "absent")"
                            + (others.isEmpty ? "" : ", also \(others.joined(separator: ", "))"))
                }
            }
            // Content and data.
            let sentData = op.data ?? .object([])
            if b["data"] != sentData {
                fail(R.content, "body.data", sentData.serialized(), b["data"]?.serialized() ?? "absent")
            }
            let given = op.options ?? .object([])
            if op.kind == .voipPush {
                for name in ["headings", "contents"] where b[name] != nil {
                    fail(
                        R.voipDataOnly, "body.\(name)", "absent (a VoIP push carries data only)", b[name]!.serialized())
                }
                let defaults: [(option: String, field: String, value: JSONValue, requirement: String)] = [
                    ("apnsPushTypeOverride", "apns_push_type_override", "voip", R.voipPushType),
                    ("contentAvailable", "content_available", true, R.voipContentAvailable),
                    ("ttl", "ttl", 30, R.voipTTL),
                ]
                for d in defaults {
                    let want = given[d.option].flatMap { $0.isNull ? nil : $0 } ?? d.value
                    if !same(b[d.field], want) {
                        fail(d.requirement, "body.\(d.field)", want.serialized(), b[d.field]?.serialized() ?? "absent")
                    }
                }
            } else {
                for (name, sent) in [("headings", op.title), ("contents", op.body)] {
                    if let sent, b.value(atPath: "\(name).en")?.stringValue != sent {
                        fail(
                            R.content, "body.\(name).en", JSONValue.string(sent).serialized(),
                            b[name]?.serialized() ?? "absent")
                    }
                }
            }
            let voipOwn: Set<String> = ["apnsPushTypeOverride", "contentAvailable", "ttl"]
            for (option, field) in optionFields where op.kind != .voipPush || !voipOwn.contains(option) {
                guard let want = given[option], !want.isNull else { continue }
                if !same(b[field], want) {
                    fail(
                        R.options, "body.\(field)", "\(want.serialized()) (options.\(option))",
                        b[field]?.serialized() ?? "absent")
                }
            }
        }
        // Delivery truth, per operation.
        for (index, op) in operations.enumerated() where !op.unconfigured {
            guard let delivered = op.delivered else { continue }
            let answered = byOperation[index] ?? []
            let reached = answered.filter { (200..<300).contains($0.status) }.map(\.recipients).reduce(0, +)
            if reached >= 1 && !delivered {
                out.append(
                    OneSignalViolation(
                        requirement: R.reachedDelivered, field: "delivered",
                        expected: "true (OneSignal answered recipients \(reached))", actual: "false",
                        sequence: answered.last?.sequence))
            } else if reached == 0 && delivered {
                let why = answered.isEmpty ? "no request reached OneSignal" : "OneSignal answered recipients 0"
                out.append(
                    OneSignalViolation(
                        requirement: R.zeroNotDelivered, field: "delivered", expected: "false (\(why))", actual: "true",
                        sequence: answered.last?.sequence))
            }
        }
        return out
    }

    /// The key of `Authorization: Key <key>` or `Basic <key>`.
    static func key(_ header: String?) -> String? {
        guard let header else { return nil }
        for scheme in ["Key ", "Basic "] where header.lowercased().hasPrefix(scheme.lowercased()) {
            return String(header.dropFirst(scheme.count)).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// Equal values, numbers compared by value (`30` and `30.0`).
    static func same(_ a: JSONValue?, _ b: JSONValue) -> Bool {
        guard let a else { return false }
        if let x = a.doubleValue, let y = b.doubleValue, a.boolValue == nil, b.boolValue == nil { return x == y }
        return a == b
    }
}
