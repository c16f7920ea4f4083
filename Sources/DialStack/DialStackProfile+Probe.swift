import Conformance
import HTTP

/// DialStack: a token registration and its delete; the profile reads nothing back from the backend.
extension DialStackProfile: TargetProbing {
    public func probe(_ target: Target, client: HTTPClient) async -> [TargetProbeLine] {
        await TargetProbe.tokenAPI(target, client: client, profile: name)
    }
}
