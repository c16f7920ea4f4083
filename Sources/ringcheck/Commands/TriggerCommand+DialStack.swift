import Conformance
import DialStack
import PushMocks
import Signing

/// `ringcheck trigger dialstack`: one signed DialStack event (`DialStackTrigger`).
struct DialStackTriggerOptions: TriggerProfileOptions {
    static let profile = DialStackProfile().name
    static let ownOptions = [
        "secret", "from", "to", "type", "signature", "redeliver", "bearer", "bystander", "bystander-bearer", "api",
    ]
    /// Where the secret comes from without --secret: the variable `serve-reference --profile dialstack` reads.
    static let secretVariable = "DIALSTACK_WEBHOOK_SECRET"

    var plan: DialStackTriggerPlan

    init(_ arguments: ParsedArguments, shared: TriggerSharedOptions, environment: [String: String]) throws {
        let name = TriggerCommand.configuration.name
        guard let secret = arguments.value("secret") ?? environment[Self.secretVariable], !secret.isEmpty else {
            throw UsageError(
                message: "--secret SECRET (or \(Self.secretVariable)) is required: DialStack signs with it",
                command: name)
        }
        guard let user = shared.user, !user.isEmpty else {
            throw UsageError(message: "--user USER is required: the data.user_id whose devices wake", command: name)
        }
        plan = DialStackTriggerPlan(webhookURL: shared.url, secret: secret, userId: user)
        plan.fromNumber = arguments.value("from")
        plan.toNumber = arguments.value("to")
        if let type = arguments.value("type") {
            guard DialStackTriggerPlan.eventTypes.contains(type) else {
                throw UsageError(
                    message:
                        "--type '\(Suggestion.shown(type))' is not an event ringcheck sends\(TriggerCommand.didYouMean(type, DialStackTriggerPlan.eventTypes)) (\(DialStackTriggerPlan.eventTypes.joined(separator: ", ")))",
                    command: name)
            }
            plan.eventType = type
        }
        if let how = arguments.value("signature") {
            guard let variant = WebhookSignatureVariant(name: how) else {
                throw UsageError(
                    message:
                        "--signature '\(Suggestion.shown(how))' is not a way to sign\(TriggerCommand.didYouMean(how, WebhookSignatureVariant.names)) (\(WebhookSignatureVariant.names.joined(separator: ", ")))",
                    command: name)
            }
            plan.signature = variant
        }
        plan.redeliveries = try arguments.int("redeliver") ?? 0
        if shared.noDevices {
            for option in ["bearer", "bystander", "bystander-bearer"] where arguments.value(option) != nil {
                throw UsageError(message: "--no-devices registers no device: --\(option) does not apply", command: name)
            }
        } else {
            plan.bearer = arguments.value("bearer") ?? "token-\(user)"
        }
        if let bystander = arguments.value("bystander") {
            guard bystander != user else {
                throw UsageError(message: "--bystander must be another user than --user '\(user)'", command: name)
            }
            plan.bystander = (bystander, arguments.value("bystander-bearer") ?? "token-\(bystander)")
        } else if arguments.value("bystander-bearer") != nil {
            throw UsageError(message: "--bystander-bearer needs --bystander USER", command: name)
        }
        if let api = arguments.value("api") {
            guard let origin = TriggerURL.origin(of: api) else {
                throw UsageError(message: "--api '\(Suggestion.shown(api))' is not an http(s) URL", command: name)
            }
            plan.apiBaseURL = api.count > origin.count ? api : origin
        }
        if let settle = shared.settle { plan.settle = settle }
        plan.keepDevices = shared.keepDevices
    }

    var announcement: String { "Triggering \(plan.eventType) for \(plan.userId) at \(plan.webhookURL)" }

    func trigger(mocks: MockStack, emit: @escaping @Sendable (CallTimelineEntry) -> Void) throws -> any ProfileTrigger {
        try DialStackTrigger(plan: plan, mocks: mocks, emit: emit)
    }
}
