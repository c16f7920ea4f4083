import Conformance
import PushMocks
import PushService

/// `ringcheck trigger push-service`: one call or notification through a running push service
/// (`PushServiceTrigger`).
struct PushServiceTriggerOptions: TriggerProfileOptions {
    static let profile = PushServiceProfile().name
    static let ownOptions = [
        "app-id", "api-key", "send", "call-id", "ring", "end-after", "no-end", "heading", "content", "ttl", "no-voip",
    ]

    var plan: PushServiceTriggerPlan

    init(_ arguments: ParsedArguments, shared: TriggerSharedOptions, environment: [String: String]) throws {
        let name = TriggerCommand.configuration.name
        let appVariable = PushServiceReferenceKit.appIdVariable
        let keyVariable = PushServiceReferenceKit.apiKeyVariable
        guard let appId = arguments.value("app-id") ?? environment[appVariable], !appId.isEmpty else {
            throw UsageError(
                message: "--app-id ID (or \(appVariable)) is required: the app whose REST key sends", command: name)
        }
        guard let key = arguments.value("api-key") ?? environment[keyVariable], !key.isEmpty else {
            throw UsageError(
                message: "--api-key KEY (or \(keyVariable)) is required: POST /notifications sends with it",
                command: name)
        }
        if shared.noDevices && shared.user == nil {
            throw UsageError(
                message: "--no-devices needs --user EXTERNAL_ID: the external ID whose own devices are pushed",
                command: name)
        }
        if let user = shared.user, user.isEmpty {
            throw UsageError(message: "--user takes a non-empty external ID", command: name)
        }
        plan = PushServiceTriggerPlan(
            baseURL: shared.url, appId: appId, apiKey: key,
            externalId: shared.user ?? PushServiceTriggerPlan.freshExternalId())
        if let send = arguments.value("send") {
            plan.kind = try TriggerCommand.choice("send", send, is: "something ringcheck sends")
        }
        let callOptions = ["call-id", "ring", "end-after", "no-end", "no-voip"]
        let notificationOptions = ["heading", "content", "ttl"]
        for (options, kind) in [(callOptions, PushServiceTriggerPlan.Kind.call), (notificationOptions, .notification)]
        where plan.kind != kind {
            for option in options where arguments.value(option) != nil || arguments.flag(option) {
                throw UsageError(message: "--\(option) applies to --send \(kind.rawValue) only", command: name)
            }
        }
        if let callId = arguments.value("call-id") { plan.callId = callId }
        if let ring = try arguments.int("ring") { plan.ringSeconds = ring }
        if arguments.flag("no-end") {
            if arguments.value("end-after") != nil {
                throw UsageError(message: "--no-end and --end-after exclude each other", command: name)
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
            throw UsageError(message: "--no-devices registers no device: --no-voip does not apply", command: name)
        }
        plan.registerDevices = !shared.noDevices
        if let settle = shared.settle { plan.settle = settle }
        plan.keepDevices = shared.keepDevices
    }

    var announcement: String {
        let what =
            plan.kind == .call
            ? "a call (incoming\(plan.endAfter.map { ", ended after \(Self.seconds($0)) s" } ?? ""))" : "a notification"
        return "Sending \(what) to \(plan.externalId) through \(plan.baseURL)"
    }

    static func seconds(_ d: Duration) -> String { PushServiceTrigger.seconds(d) }

    func trigger(mocks: MockStack, emit: @escaping @Sendable (CallTimelineEntry) -> Void) throws -> any ProfileTrigger {
        try PushServiceTrigger(plan: plan, mocks: mocks, emit: emit)
    }
}
