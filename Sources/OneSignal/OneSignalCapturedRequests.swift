import Conformance
import JSON
import PushMocks

/// `check-payload --profile onesignal`: the OneSignal request rules (`OneSignalRules.requests`) over captured
/// requests of the mock OneSignal, without the operations that caused them. A request to the VoIP app
/// (`--voip-app-id`) stands for a VoIP push, one with `include_aliases` (or other per-user targeting) for a push to
/// a user, any other for a broadcast; each is judged as if the operation gave its own data and no options: the VoIP
/// defaults (push type, content available, ttl 30, data only), the targeting (one External ID, nothing else), a
/// standard push's app (`--app-id`).
enum OneSignalCapturedRequests: CapturedPushJudge {
    static let profile = OneSignalProfile.profileName
    static let unjudged =
        "without the operations, the REST keys (redacted in captures), the data and options the kit was given and its delivered are not judged"
    static let providers: [MockProviderID] = [.onesignal]
    /// `--app-id` and `--voip-app-id`: the apps its requests must name.
    static let optionRows: [ProfileOptionRow] = [
        .value(
            "app-id", "ID", help: "the standard app's ID",
            default: "$RINGCHECK_ONESIGNAL_APP_ID, else each request's own"),
        .value(
            "voip-app-id", "ID", help: "the VoIP app's ID (its requests are VoIP pushes)",
            default: "$RINGCHECK_ONESIGNAL_VOIP_APP_ID"),
    ]

    /// The apps from `--app-id` and `--voip-app-id`, else from `RINGCHECK_ONESIGNAL_APP_ID` (when not empty) and
    /// `RINGCHECK_ONESIGNAL_VOIP_APP_ID`.
    static func context(voipTopic: String?, options: [String: [String]], environment: [String: String])
        -> CapturedPushContext
    {
        CapturedPushContext(
            voipTopic: voipTopic,
            appId: options["app-id"]?.last
                ?? environment["RINGCHECK_ONESIGNAL_APP_ID"].flatMap { $0.isEmpty ? nil : $0 },
            voipAppId: options["voip-app-id"]?.last ?? environment["RINGCHECK_ONESIGNAL_VOIP_APP_ID"])
    }

    static func violations(of captures: [Capture], context: CapturedPushContext) throws(PayloadInputError)
        -> [Violation]
    {
        guard let voipAppId = context.voipAppId, !voipAppId.isEmpty else {
            throw PayloadInputError(
                "--profile onesignal needs the VoIP app's ID to tell VoIP pushes: --voip-app-id ID (or RINGCHECK_ONESIGNAL_VOIP_APP_ID)"
            )
        }
        var out: [Violation] = []
        for c in captures {
            let request = OneSignalRequest(c)
            let body = request.body
            let appId = body["app_id"]?.stringValue
            let aliases = body.value(atPath: "include_aliases.external_id")?.arrayValue
            let perUser =
                aliases != nil
                || OneSignalInvariants.otherTargeting.contains { $0 != "included_segments" && body[$0] != nil }
            let kind: OneSignalOperation.Kind = appId == voipAppId ? .voipPush : perUser ? .pushToUser : .pushBroadcast
            let operation = OneSignalOperation(
                kind: kind, externalId: perUser ? (aliases?.first?.stringValue ?? "(one External ID)") : nil,
                title: nil, body: nil, data: body["data"] ?? .object([]), options: nil, unconfigured: false,
                sentAtMs: c.arrivalMs, answeredAtMs: c.arrivalMs, delivered: nil)
            // The keys are redacted in captures: each app's key is taken as the one the request carried.
            let key = OneSignalInvariants.key(request.authorization) ?? ""
            let standard = OneSignalApp(role: .standard, appID: context.appId ?? appId ?? "", apiKey: key)
            let voip = OneSignalApp(role: .voip, appID: voipAppId, apiKey: key)
            out += OneSignalRules.requests.violations(
                of: OneSignalRequestSubject(request: request, operation: operation, standard: standard, voip: voip),
                captures: [c.sequence])
        }
        return out
    }
}

extension OneSignalProfile {
    /// `check-payload --profile onesignal` judges captures by `OneSignalCapturedRequests`.
    public var capturedPushJudge: (any CapturedPushJudge.Type)? { OneSignalCapturedRequests.self }
}
