import Conformance
import HTTP

/// DialStack: a token registration and its delete; the profile reads nothing back from the backend.
extension DialStackProfile: TargetProbing {
    /// For `validate --help`.
    public var probeSummary: String { "a device token" }

    public func probe(_ target: Target, client: HTTPClient) async -> [TargetProbeLine] {
        await TargetProbe.tokenAPI(target, client: client, profile: name)
    }
}
