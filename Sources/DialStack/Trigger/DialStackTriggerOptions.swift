import Conformance
import InputLimits
import PushMocks
import Signing

/// `ringcheck trigger dialstack`: one signed DialStack event (`DialStackTrigger`).
public struct DialStackTriggerOptions: TriggerProfileOptions {
    /// What `--url` names.
    public static let urlExample = "the backend's webhook, e.g. http://127.0.0.1:8080/webhooks/dialstack"
    /// Its paragraph of `trigger --help`: what its exchange does and what it judges.
    public static let helpSection = """
        dialstack: signs one call.mobile_push_wakeup webhook for --user as DialStack does
        (x-dialstack-signature: t=…,v1=…, HMAC-SHA256 of "<t>.<raw body>" with --secret) and posts it to --url,
        then shows the answer and every push for the event, judged by suites/dialstack/requirements.yaml.
        Unless --no-devices, two virtual devices of --user, a phone (APNs VoIP, sandbox) and a tablet (FCM),
        register through the backend's token API (PUT {api}/v1/installations/{id}/push-tokens/{kind} with
        Authorization: Bearer --bearer, as the dialstack reference takes them) before the event, and are
        deleted afterwards; each must be woken within 30 s (DIALSTACK-WAKE-1). --bystander USER also registers
        a phone of another user that must get nothing (DIALSTACK-WAKE-2). Negative cases: --signature
        wrong-secret (or none, garbage, body-changed, …) and --signature stale must be answered 401 and push
        nothing; --type call.incoming or call.ringing must be answered 2xx and push nothing; --redeliver N
        delivers the same event (same id, signed anew) N more times once its pushes arrived: no device may
        ring again (DIALSTACK-DEDUP-1).
        """
    /// Its lines of `trigger --help`'s examples.
    public static let examples = [
        "ringcheck trigger dialstack --url http://127.0.0.1:8080/webhooks/dialstack --secret $S --user user-b",
        "ringcheck trigger dialstack --url $URL --user user-b --redeliver 2          # no second ring",
        "ringcheck trigger dialstack --url $URL --user user-b --signature stale      # 401, no push",
        "ringcheck trigger dialstack --url $URL --user user-b --type call.ringing --json",
    ]
    /// Its rows of `trigger --help`.
    public static let optionRows: [ProfileOptionRow] = [
        .value("url", "URL", help: "the backend's webhook URL (http://host:port/webhooks/dialstack)"),
        .value("user", "USER", help: "data.user_id, whose devices the event wakes (required)"),
        .value("secret", "SECRET", help: "the webhook signing secret", default: "$\(secretVariable)"),
        .value("from", "NUMBER", help: "data.from_number", default: "+14155551234"),
        .value("to", "NUMBER", help: "data.to_number", default: "+14155559876"),
        .value(
            "type", "TYPE", help: "the event type: \(DialStackTriggerPlan.eventTypes.joined(separator: ", "))",
            default: "call.mobile_push_wakeup"),
        .value(
            "signature", "HOW", help: "how to sign: \(WebhookSignatureVariant.names.joined(separator: ", "))",
            default: "valid"),
        .value(
            "redeliver", "N", help: "deliver the same event N more times once its pushes arrived", default: "0",
            number: .whole(0...100)),
        .value("bearer", "TOKEN", help: "--user's bearer token for the token API", default: "token-<user>"),
        .value("bystander", "USER", help: "also register a phone of USER, which must get no push for the event"),
        .value("bystander-bearer", "TOKEN", help: "the bystander's bearer token", default: "token-<bystander>"),
        .value("api", "URL", help: "where the token API is", default: "the origin of --url"),
    ]
    /// Where the secret comes from without --secret: the variable `serve-reference --profile dialstack` reads.
    public static let secretVariable = "DIALSTACK_WEBHOOK_SECRET"

    var plan: DialStackTriggerPlan

    public init(_ arguments: any TriggerArguments, shared: TriggerSharedOptions, environment: [String: String]) throws {
        guard let secret = arguments.value("secret") ?? environment[Self.secretVariable], !secret.isEmpty else {
            throw TriggerOptionError("--secret SECRET (or \(Self.secretVariable)) is required: DialStack signs with it")
        }
        guard let user = shared.user, !user.isEmpty else {
            throw TriggerOptionError("--user USER is required: the data.user_id whose devices wake")
        }
        plan = DialStackTriggerPlan(webhookURL: shared.url, secret: secret, userId: user)
        plan.fromNumber = arguments.value("from")
        plan.toNumber = arguments.value("to")
        if let type = arguments.value("type") {
            guard DialStackTriggerPlan.eventTypes.contains(type) else {
                throw TriggerOptionError(
                    "--type '\(Suggestion.shown(type))' is not an event ringcheck sends\(TriggerOptionError.didYouMean(type, DialStackTriggerPlan.eventTypes)) (\(DialStackTriggerPlan.eventTypes.joined(separator: ", ")))"
                )
            }
            plan.eventType = type
        }
        if let how = arguments.value("signature") {
            guard let variant = WebhookSignatureVariant(name: how) else {
                throw TriggerOptionError(
                    "--signature '\(Suggestion.shown(how))' is not a way to sign\(TriggerOptionError.didYouMean(how, WebhookSignatureVariant.names)) (\(WebhookSignatureVariant.names.joined(separator: ", ")))"
                )
            }
            plan.signature = variant
        }
        plan.redeliveries = try arguments.int("redeliver") ?? 0
        if shared.noDevices {
            for option in ["bearer", "bystander", "bystander-bearer"] where arguments.value(option) != nil {
                throw TriggerOptionError("--no-devices registers no device: --\(option) does not apply")
            }
        } else {
            plan.bearer = arguments.value("bearer") ?? "token-\(user)"
        }
        if let bystander = arguments.value("bystander") {
            guard bystander != user else {
                throw TriggerOptionError("--bystander must be another user than --user '\(user)'")
            }
            plan.bystander = (bystander, arguments.value("bystander-bearer") ?? "token-\(bystander)")
        } else if arguments.value("bystander-bearer") != nil {
            throw TriggerOptionError("--bystander-bearer needs --bystander USER")
        }
        if let api = arguments.value("api") {
            guard let origin = TriggerURL.origin(of: api) else {
                throw TriggerOptionError("--api '\(Suggestion.shown(api))' is not an http(s) URL")
            }
            plan.apiBaseURL = api.count > origin.count ? api : origin
        }
        if let settle = shared.settle { plan.settle = settle }
        plan.keepDevices = shared.keepDevices
    }

    public var announcement: String { "Triggering \(plan.eventType) for \(plan.userId) at \(plan.webhookURL)" }

    public func trigger(mocks: MockStack, emit: @escaping @Sendable (CallTimelineEntry) -> Void) throws
        -> any ProfileTrigger
    {
        try DialStackTrigger(plan: plan, mocks: mocks, emit: emit)
    }
}

extension DialStackProfile {
    /// `ringcheck trigger dialstack` reads its options with `DialStackTriggerOptions`.
    public var triggerOptions: (any TriggerProfileOptions.Type)? { DialStackTriggerOptions.self }
}
