import Conformance
import InputLimits
import PushMocks

/// `ringcheck trigger push-service`: one call or notification through a running push service
/// (`PushServiceTrigger`).
public struct PushServiceTriggerOptions: TriggerProfileOptions {
    /// What `--url` names.
    public static let urlExample = "the service's base URL, e.g. http://127.0.0.1:8080"
    /// Its paragraph of `trigger --help`: what its exchange does and what it judges.
    public static let helpSection = """
        push-service: plays the app server of --app-id (Authorization: Key --api-key) against the service at
        --url. Unless --no-devices, a virtual phone (iOS, sandbox, with a PushKit VoIP token unless --no-voip)
        and tablet (Android) register for the external ID --user (default: a fresh one) through
        POST /api/v1/apps/{appId}/devices, and are deleted afterwards. --send call (the default) sends the
        call's incoming (call.id --call-id, timeout --ring) and, --end-after S later, its ended with the same id;
        --send notification one notification (--heading, --content, --ttl). Every push is judged by
        suites/push-service/requirements.yaml (a call as VoIP with priority 10 on iOS and a high-priority data
        message on Android, the seed's keys as strings, ended to the same devices with the same call_id, a
        notification's alert, ttl, …), every device must be reached within 30 s (PUSHSVC-DEV-1), and once the
        pushes settled the counts (GET /notifications/{id}?app_id=) must agree with what the mocks accepted and
        refused (PUSHSVC-COUNT-1..3; PUSHSVC-CALL-6 for an iPhone without a VoIP token).
        """
    /// Its lines of `trigger --help`'s examples.
    public static let examples = [
        "ringcheck trigger push-service --url http://127.0.0.1:8080 --app-id $APP   # a call, key from the variable",
        "ringcheck trigger push-service --url $URL --app-id $APP --send notification --ttl 600 --json",
    ]
    /// Its rows of `trigger --help`.
    public static let optionRows: [ProfileOptionRow] = [
        .value("url", "URL", help: "the service's base URL"),
        .value("user", "USER", help: "the external ID", default: "a fresh ringcheck-trigger-… ID"),
        .value("app-id", "ID", help: "the app's App ID", default: "$\(appIdVariable)"),
        .value(
            "api-key", "KEY", help: "the app's REST API key (prefer the variable: argv is visible)",
            default: "$\(apiKeyVariable)"),
        .value("send", "WHAT", help: "call or notification", default: "call"),
        .value(
            "call-id", "ID", help: "the call's call.id ('' lets the service generate one)", default: "a fresh UUID"),
        .value(
            "ring", "S", help: "the call's timeout (how long it rings)", default: "30", number: .whole(1...86_400)),
        .value(
            "end-after", "S", help: "send the call's ended this long after its incoming", default: "3",
            number: .seconds(upTo: 600)),
        .flag("no-end", help: "send no ended for the call"),
        .flag("no-voip", help: "register the phone without a VoIP token (it must get no call push)"),
        .value("heading", "TEXT", help: "the notification's headings.en", default: "ringcheck"),
        .value(
            "content", "TEXT", help: "the notification's contents.en", default: "A notification from ringcheck trigger"),
        .value("ttl", "S", help: "the notification's ttl", default: "none", number: .whole(0...2_419_200)),
    ]

    /// Where the App ID and REST key come from without `--app-id`/`--api-key`: the variables
    /// `serve-reference --profile push-service` reads.
    public static let appIdVariable = "RINGCHECK_PUSH_SERVICE_APP_ID"
    public static let apiKeyVariable = "RINGCHECK_PUSH_SERVICE_API_KEY"

    var plan: PushServiceTriggerPlan

    public init(_ arguments: any TriggerArguments, shared: TriggerSharedOptions, environment: [String: String]) throws {
        let appVariable = Self.appIdVariable
        let keyVariable = Self.apiKeyVariable
        guard let appId = arguments.value("app-id") ?? environment[appVariable], !appId.isEmpty else {
            throw TriggerOptionError("--app-id ID (or \(appVariable)) is required: the app whose REST key sends")
        }
        guard let key = arguments.value("api-key") ?? environment[keyVariable], !key.isEmpty else {
            throw TriggerOptionError("--api-key KEY (or \(keyVariable)) is required: POST /notifications sends with it")
        }
        if shared.noDevices && shared.user == nil {
            throw TriggerOptionError(
                "--no-devices needs --user EXTERNAL_ID: the external ID whose own devices are pushed")
        }
        if let user = shared.user, user.isEmpty {
            throw TriggerOptionError("--user takes a non-empty external ID")
        }
        plan = PushServiceTriggerPlan(
            baseURL: shared.url, appId: appId, apiKey: key,
            externalId: shared.user ?? PushServiceTriggerPlan.freshExternalId())
        if let send = arguments.value("send") {
            plan.kind = try TriggerOptionError.choice("send", send, is: "something ringcheck sends")
        }
        let callOptions = ["call-id", "ring", "end-after", "no-end", "no-voip"]
        let notificationOptions = ["heading", "content", "ttl"]
        for (options, kind) in [(callOptions, PushServiceTriggerPlan.Kind.call), (notificationOptions, .notification)]
        where plan.kind != kind {
            for option in options where arguments.value(option) != nil || arguments.flag(option) {
                throw TriggerOptionError("--\(option) applies to --send \(kind.rawValue) only")
            }
        }
        if let callId = arguments.value("call-id") { plan.callId = callId }
        if let ring = try arguments.int("ring") { plan.ringSeconds = ring }
        if arguments.flag("no-end") {
            if arguments.value("end-after") != nil {
                throw TriggerOptionError("--no-end and --end-after exclude each other")
            }
            plan.endAfter = nil
        } else if let after = try arguments.duration("end-after") {
            plan.endAfter = after
        }
        if let heading = arguments.value("heading") { plan.heading = heading }
        if let content = arguments.value("content") { plan.content = content }
        plan.ttl = try arguments.int("ttl")
        plan.voipToken = !arguments.flag("no-voip")
        if shared.noDevices && arguments.flag("no-voip") {
            throw TriggerOptionError("--no-devices registers no device: --no-voip does not apply")
        }
        plan.registerDevices = !shared.noDevices
        if let settle = shared.settle { plan.settle = settle }
        plan.keepDevices = shared.keepDevices
    }

    public var announcement: String {
        let what =
            plan.kind == .call
            ? "a call (incoming\(plan.endAfter.map { ", ended after \(Self.seconds($0)) s" } ?? ""))" : "a notification"
        return "Sending \(what) to \(plan.externalId) through \(plan.baseURL)"
    }

    static func seconds(_ d: Duration) -> String { PushServiceTrigger.seconds(d) }

    public func trigger(mocks: MockStack, emit: @escaping @Sendable (CallTimelineEntry) -> Void) throws
        -> any ProfileTrigger
    {
        try PushServiceTrigger(plan: plan, mocks: mocks, emit: emit)
    }
}

extension PushServiceProfile {
    /// `ringcheck trigger push-service` reads its options with `PushServiceTriggerOptions`.
    public var triggerOptions: (any TriggerProfileOptions.Type)? { PushServiceTriggerOptions.self }
}
