import Conformance
import JSON
import PushMocks

/// One OneSignal request with what it is judged against: the operation it answers and the mock's two apps.
struct OneSignalRequestSubject: Sendable {
    var request: OneSignalRequest
    var operation: OneSignalOperation
    var standard: OneSignalApp
    var voip: OneSignalApp

    /// The app the operation must go through (the VoIP app for a VoIP push), and the other one.
    var app: OneSignalApp { operation.kind == .voipPush ? voip : standard }
    var otherApp: OneSignalApp { operation.kind == .voipPush ? standard : voip }
    var body: JSONValue { request.body }
}

/// One operation ringcheck triggered, with the OneSignal requests that answered it.
struct OneSignalOperationSubject: Sendable {
    var operation: OneSignalOperation
    var answered: [OneSignalRequest]

    /// The recipients OneSignal reported for the operation's accepted requests.
    var reached: Int { answered.filter { (200..<300).contains($0.status) }.map(\.recipients).reduce(0, +) }
}

/// The OneSignal profile's rules, one per requirement: which app and key, the targeting, the content, the VoIP
/// defaults, the option mapping (per request), and whether `delivered` told the truth (per operation).
enum OneSignalRules {
    typealias R = OneSignalRequirement
    typealias RequestRule = Rule<OneSignalRequestSubject>

    /// The rules over each request, in the order their findings are reported.
    static let requests: [RequestRule] = [
        unconfigured, standardApp, voipApp, targeting, broadcastTargeting, content, voipDataOnly, voipPushType,
        voipContentAvailable,
        voipTTL, options,
    ]
    /// The rules over each operation.
    static let operations: [Rule<OneSignalOperationSubject>] = [reachedDelivered, zeroNotDelivered]

    // MARK: Per request

    /// ONESIGNAL-CONF-1: an instance without OneSignal settings sends nothing (every other rule is moot then).
    static let unconfigured = RequestRule(R.unconfigured) { s, found in
        guard s.operation.unconfigured else { return }
        found.add(
            "request", expected: "no request (the instance has no OneSignal settings)",
            actual: "POST with app_id \(s.body["app_id"]?.serialized() ?? "absent")")
    }

    static let standardApp = appRule(R.standardApp, voip: false)
    static let voipApp = appRule(R.voipApp, voip: true)

    /// The operation's app and its REST API key: the standard app's for a standard push, the VoIP app's for a VoIP
    /// push.
    static func appRule(_ requirement: RequirementID, voip: Bool) -> RequestRule {
        RequestRule(requirement) { s, found in
            guard !s.operation.unconfigured, (s.operation.kind == .voipPush) == voip else { return }
            let appName = voip ? "the VoIP app" : "the standard app"
            let appId = s.body["app_id"]?.stringValue
            if appId != s.app.appID {
                found.add(
                    "body.app_id", expected: "\(s.app.appID) (\(appName))",
                    actual: (s.body["app_id"]?.serialized() ?? "absent")
                        + (appId == s.otherApp.appID ? " (the other app)" : ""))
            }
            let key = OneSignalInvariants.key(s.request.authorization)
            if key != s.app.apiKey {
                found.add(
                    "headers.authorization", expected: "Key <\(appName)'s REST API key>",
                    actual: key == nil ? "absent or not Key/Basic" : "another key")
            }
        }
    }

    /// ONESIGNAL-TARGET-1: a push to a user targets `include_aliases.external_id = [userId]` and nothing else.
    static let targeting = RequestRule(R.targeting) { s, found in
        guard !s.operation.unconfigured, let externalId = s.operation.externalId else { return }
        let aliases = s.body.value(atPath: "include_aliases.external_id")
        let others = OneSignalInvariants.otherTargeting.filter { s.body[$0] != nil }
        if aliases != .array([.string(externalId)]) || !others.isEmpty {
            found.add(
                "body.include_aliases", expected: "{\"external_id\": [\"\(externalId)\"]} and no other targeting",
                actual: "include_aliases.external_id \(aliases?.serialized() ?? "absent")"
                    + (others.isEmpty ? "" : ", also \(others.joined(separator: ", "))"))
        }
    }

    /// ONESIGNAL-TARGET-2: a broadcast names its audience; OneSignal answers one without any target 400.
    static let broadcastTargeting = RequestRule(R.broadcastTargeting) { s, found in
        guard !s.operation.unconfigured, s.operation.kind == .pushBroadcast else { return }
        let named = (["include_aliases"] + OneSignalInvariants.otherTargeting).filter { field in
            guard let value = s.body[field], !value.isNull else { return false }
            return value.arrayValue.map { !$0.isEmpty } ?? true
        }
        if named.isEmpty {
            found.add(
                "body.included_segments", expected: "an audience (included_segments or filters)",
                actual: "no targeting parameter (OneSignal answers 400)")
        }
    }

    /// ONESIGNAL-DATA-1: the data given reaches `data`; a standard push's title and body reach `headings.en` and
    /// `contents.en`.
    static let content = RequestRule(R.content) { s, found in
        guard !s.operation.unconfigured else { return }
        let op = s.operation
        let sentData = op.data ?? .object([])
        if s.body["data"] != sentData {
            found.add("body.data", expected: sentData.serialized(), actual: s.body["data"]?.serialized() ?? "absent")
        }
        guard op.kind != .voipPush else { return }
        for (name, sent) in [("headings", op.title), ("contents", op.body)] {
            if let sent, s.body.value(atPath: "\(name).en")?.stringValue != sent {
                found.add(
                    "body.\(name).en", expected: JSONValue.string(sent).serialized(),
                    actual: s.body[name]?.serialized() ?? "absent")
            }
        }
    }

    /// ONESIGNAL-VOIP-5: a VoIP push carries data only.
    static let voipDataOnly = RequestRule(R.voipDataOnly) { s, found in
        guard !s.operation.unconfigured, s.operation.kind == .voipPush else { return }
        for name in ["headings", "contents"] where s.body[name] != nil {
            found.add(
                "body.\(name)", expected: "absent (a VoIP push carries data only)", actual: s.body[name]!.serialized())
        }
    }

    static let voipPushType = voipDefault(
        R.voipPushType, option: "apnsPushTypeOverride", field: "apns_push_type_override", "voip")
    static let voipContentAvailable = voipDefault(
        R.voipContentAvailable, option: "contentAvailable", field: "content_available", true)
    static let voipTTL = voipDefault(R.voipTTL, option: "ttl", field: "ttl", 30)

    /// A VoIP push's default for `field`, unless the caller's `options.<option>` gives another value.
    static func voipDefault(_ requirement: RequirementID, option: String, field: String, _ value: JSONValue)
        -> RequestRule
    {
        RequestRule(requirement) { s, found in
            guard !s.operation.unconfigured, s.operation.kind == .voipPush else { return }
            let given = s.operation.options ?? .object([])
            let want = given[option].flatMap { $0.isNull ? nil : $0 } ?? value
            if !OneSignalInvariants.same(s.body[field], want) {
                found.add("body.\(field)", expected: want.serialized(), actual: s.body[field]?.serialized() ?? "absent")
            }
        }
    }

    /// ONESIGNAL-OPT-1: each `PushOptions` member given maps one to one (a VoIP push's own defaults are judged above).
    static let options = RequestRule(R.options) { s, found in
        guard !s.operation.unconfigured else { return }
        let given = s.operation.options ?? .object([])
        let voipOwn: Set<String> = ["apnsPushTypeOverride", "contentAvailable", "ttl"]
        for (option, field) in OneSignalInvariants.optionFields
        where s.operation.kind != .voipPush || !voipOwn.contains(option) {
            guard let want = given[option], !want.isNull else { continue }
            if !OneSignalInvariants.same(s.body[field], want) {
                found.add(
                    "body.\(field)", expected: "\(want.serialized()) (options.\(option))",
                    actual: s.body[field]?.serialized() ?? "absent")
            }
        }
    }

    // MARK: Per operation

    /// ONESIGNAL-DELIV-2: one recipient or more is delivered.
    static let reachedDelivered = Rule<OneSignalOperationSubject>(R.reachedDelivered) { s, found in
        guard !s.operation.unconfigured, s.operation.delivered == false else { return }
        let reached = s.reached
        if reached >= 1 {
            found.add("delivered", expected: "true (OneSignal answered recipients \(reached))", actual: "false")
        }
    }

    /// ONESIGNAL-DELIV-1: no request, or a 200 with 0 recipients, is not delivered.
    static let zeroNotDelivered = Rule<OneSignalOperationSubject>(R.zeroNotDelivered) { s, found in
        guard !s.operation.unconfigured, s.operation.delivered == true, s.reached == 0 else { return }
        let why = s.answered.isEmpty ? "no request reached OneSignal" : "OneSignal answered recipients 0"
        found.add("delivered", expected: "false (\(why))", actual: "true")
    }
}
