import Conformance
import HTTP

/// OneSignal: the backend's kit addresses OneSignal users by External ID and registers no device with the
/// backend, and its operations send pushes; validate neither registers nor reads.
extension OneSignalProfile: TargetProbing {
    public func probe(_ target: Target, client: HTTPClient) async -> [TargetProbeLine] {
        [
            TargetProbeLine(
                .notApplicable,
                "registration and read: a OneSignal kit server registers no device (its users are OneSignal "
                    + "External IDs) and every operation it offers sends a push")
        ]
    }
}
