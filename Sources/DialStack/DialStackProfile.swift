import Conformance
import JSON
import PushMocks
import Reports

/// DialStack's mobile push wake-up (`dialstack-push-wakeup.txt`): ringcheck plays DialStack, posting signed
/// `call.mobile_push_wakeup` (and `call.incoming`, `call.ringing`) webhooks, and the user's app, registering its
/// devices with the customer backend under test; the backend must verify each signature over the raw body and
/// wake every device of `data.user_id` with an APNs VoIP push or a high-priority FCM data message.
public struct DialStackProfile: Profile {
    public typealias RunState = DialStackRunState

    /// The profile's name (`--profile dialstack`, suite.yaml's `profile:`).
    static let profileName = "dialstack"

    public init() {}

    public var name: String { Self.profileName }
    /// Its suite, compiled into this module from `Suite/` (a link to `suites/<name>/`) by the EmbedSuites plugin.
    public var embeddedSuite: EmbeddedSuite { EmbeddedSuiteFiles.suite }
    public var summary: String {
        "DialStack push wake-up: signed call.mobile_push_wakeup webhooks, APNs VoIP and FCM data wake-ups"
    }
    public var stepTypes: [any DecodableStep.Type] { [WebhookStep.self, WakeUpsStep.self] }
    // Every push of this profile is a wake-up; APNs payloads carry no type.
    public var defaultPushType: String? { nil }

    /// APNs and FCM captures, read by their call fields (`dialstack.call_id`, …).
    public func pushView(_ capture: Capture) -> PushView? { DialStackPush(capture)?.view }

    /// Registers as the engine does, marking where the scenario's registrations begin in the capture log, so the
    /// DialStack API calls they cause (`users.update`) can be noted on its timeline and no earlier scenario's.
    public func registerDevice(_ device: VirtualDevice, with context: isolated any RunContext) async throws {
        if context.dialStack.apiCallsAfter == nil { context.dialStack.apiCallsAfter = context.mocks.log.lastSequence }
        try await context.registerToken(ofDevice: device.name)
    }

    public func invariantFailures(with context: isolated any RunContext) async -> [CheckFailure] {
        context.dialStackInvariantFailures()
    }
}
