import Conformance
import JSON
import PushMocks
import Reports

/// An app server that sends its pushes through OneSignal (`onesignal-kit-voip.txt`): ringcheck makes the server
/// run the kit's helpers (push to a user, broadcast, VoIP push) through operations the target maps, plays
/// OneSignal with the mock (its audience set per scenario) and judges every request that reached it.
public struct OneSignalProfile: Profile {
    public typealias RunState = OneSignalRunState

    /// The profile's name (`--profile onesignal`, suite.yaml's `profile:`).
    static let profileName = "onesignal"

    public init() {}

    public var name: String { Self.profileName }
    /// Its suite, compiled into this module from `Suite/` (a link to `suites/<name>/`) by the EmbedSuites plugin.
    public var embeddedSuite: EmbeddedSuite { EmbeddedSuiteFiles.suite }
    public var summary: String {
        "OneSignal kit server: pushes to users, broadcasts and VoIP pushes through a separate VoIP app"
    }
    public var stepTypes: [any DecodableStep.Type] {
        [OneSignalSendStep.self, OneSignalAudienceStep.self, OneSignalRequestsStep.self]
    }
    public var defaultPushType: String? { nil }

    /// The profile's devices are OneSignal's, not ringcheck's: no APNs or FCM capture is its push.
    public func pushView(_ capture: Capture) -> PushView? { nil }

    public func invariantFailures(with context: isolated any RunContext) async -> [CheckFailure] {
        context.oneSignalInvariantFailures()
    }
}
