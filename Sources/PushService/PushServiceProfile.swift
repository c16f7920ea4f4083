import Conformance
import JSON
import PushMocks
import Reports

/// A OneSignal-style push service (`push-service-rest-api.txt`): ringcheck plays the app server (`POST
/// /notifications`, `GET /notifications/{id}`) and the apps registering their devices (an iOS device with an APNs
/// alert token and a PushKit VoIP token, an Android device with an FCM token); the service must deliver calls as
/// VoIP pushes and high-priority FCM data messages, notifications as alerts, and count what the providers did.
public struct PushServiceProfile: Profile {
    public typealias RunState = PushServiceRunState

    /// The profile's name (`--profile push-service`, suite.yaml's `profile:`).
    static let profileName = "push-service"

    public init() {}

    public var name: String { Self.profileName }
    /// Its suite, compiled into this module from `Suite/` (a link to `suites/<name>/`) by the EmbedSuites plugin.
    public var embeddedSuite: EmbeddedSuite { EmbeddedSuiteFiles.suite }
    public var summary: String {
        "push service REST API: devices, notifications and calls delivered as APNs VoIP/alert and FCM pushes, counts"
    }
    // Requests carry the app's REST key and raw bodies, which a race's canonical request cannot: none is a request
    // step.
    public var stepTypes: [any DecodableStep.Type] {
        [
            RegisterDeviceStep.self, RemoveDeviceStep.self, NotifyStep.self, GetNotificationStep.self,
            MalformedNotificationsStep.self, MalformedRegistrationsStep.self,
        ]
    }
    public var defaultPushType: String? { nil }

    /// APNs and FCM captures, read by the seed's payload keys (`pushService.type`, `pushService.call_id`, …).
    public func pushView(_ capture: Capture) -> PushView? { PushServicePush(capture)?.view }

    public func invariantFailures(with context: isolated any RunContext) async -> [CheckFailure] {
        context.pushServiceInvariantFailures()
    }
}
