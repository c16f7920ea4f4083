import Conformance
import PushMocks

/// `check-payload --profile dialstack`: the dialstack push rules (`DialStackRules`) over captured pushes, without
/// the webhooks that caused them: VoIP headers, `apns-expiration` against the arrival, the FCM data message, its
/// priority and ttl, string values. The call ID (DIALSTACK-PUSH-1) only when `--call-id` names the calls the pushes
/// are for: a push carries its webhook's `call_id` under any key the app's call library reads
/// (`DialStackPush.carries`), so without the calls no value can be told to be it.
enum DialStackCapturedPushes: CapturedPushJudge {
    static let profile = DialStackProfile.profileName
    static let unjudged =
        "without the webhooks, the call ID (DIALSTACK-PUSH-1: name the calls with --call-id ID), the copied caller "
        + "fields, the user a push went to, redeliveries and the latency are not judged"

    static let providers: [MockProviderID] = [.apns, .fcm]

    /// `--call-id ID`, repeatable: the calls the captured pushes are for.
    static let optionRows: [ProfileOptionRow] = [
        .value(
            "call-id", "ID",
            help: "a call the pushes are for (the webhook's data.call_id): each push must carry one of these IDs as a "
                + "string under any key, else it breaks DIALSTACK-PUSH-1",
            default: "the call ID is not judged", repeatable: true)
    ]

    static let examples = [
        "ringcheck check-payload --profile dialstack --call-id call_01h2xcejqtf2nbrexx3vqjhp45 captures.json"
    ]

    /// The topic, and the calls of `--call-id`.
    static func context(voipTopic: String?, options: [String: [String]], environment: [String: String])
        -> CapturedPushContext
    { CapturedPushContext(voipTopic: voipTopic, callIds: options["call-id"] ?? []) }

    static func unjudged(given context: CapturedPushContext) -> String {
        guard !context.callIds.isEmpty else { return unjudged }
        return "without the webhooks, the copied caller fields, the user a push went to, redeliveries and the "
            + "latency are not judged; the call ID is judged against --call-id"
    }

    static func violations(of captures: [Capture], context: CapturedPushContext) throws(PayloadInputError)
        -> [Violation]
    {
        if context.callIds.contains(where: \.isEmpty) {
            throw PayloadInputError("--call-id takes a call's ID, not an empty value")
        }
        let voipTopic = context.voipTopic
        return captures.flatMap { c in
            DialStackInvariants.check(
                [DialStackJudgedPush(capture: c, device: c.deviceToken ?? c.fcmTarget?.value ?? "?", user: "")],
                deliveries: [], voipTopic: CapturedPushCheck.voipTopic(voipTopic, for: c), callsKnown: false)
                + givenCall(c, context.callIds)
        }
    }

    /// DIALSTACK-PUSH-1 against the calls of `--call-id` (none given: not judged): the push must carry one of
    /// `callIds` as a string under any key (`DialStackPush.carries`). Unlike a run, where a push naming a call no
    /// webhook announced is unattributed, here the user said which calls the pushes are for: naming another fails.
    static func givenCall(_ capture: Capture, _ callIds: [String]) -> [Violation] {
        guard !callIds.isEmpty, let push = DialStackPush(capture), !callIds.contains(where: push.carries) else {
            return []
        }
        return pushCallId.violations(of: (push, callIds), captures: [capture.sequence])
    }

    static let pushCallId = Rule<(push: DialStackPush, callIds: [String])>(DialStackRequirement.callId) { s, found in
        let named = s.push.callId.map { "call_id \"\($0)\", none of the given calls" }
        found.add(
            s.push.fieldsPath + ".call_id",
            expected: "one of --call-id's calls (\(s.callIds.joined(separator: ", "))), as a string under any key",
            actual: named ?? s.push.fields["call_id"].map { "\($0.serialized()) (not a string)" } ?? "absent")
    }
}

extension DialStackProfile {
    /// `check-payload --profile dialstack` judges captures by `DialStackCapturedPushes`.
    public var capturedPushJudge: (any CapturedPushJudge.Type)? { DialStackCapturedPushes.self }
}
