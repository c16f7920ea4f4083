import Conformance
import HTTP
import JSON

/// Callx: a token registration, a read of the installation's events feed, the token's delete.
extension CallxProfile: TargetProbing {
    /// For `validate --help`.
    public var probeSummary: String { "a device token and its installation's events feed" }

    public func probe(_ target: Target, client: HTTPClient) async -> [TargetProbeLine] {
        await TargetProbe.tokenAPI(target, client: client, profile: name) { device, account in
            await Self.readEvents(of: device, account: account, target: target, client: client)
        }
    }

    /// Reads the first page of `device`'s events feed as `account` (`events`): it must answer 2xx with an
    /// `events` list once the target's mapping has read the answer back.
    static func readEvents(of device: VirtualCallee, account: TargetUser, target: Target, client: HTTPClient)
        async -> TargetProbeLine
    {
        let path = target.routes.events + "?installationId=" + RequestTemplate.percentEncode(device.installationId)
        let read = await TargetProbe.send(
            PreparedRequest(
                actor: account.userId, method: "GET", path: path, credentials: account.authHeaders,
                operation: .events,
                values: ["installationId": .string(device.installationId), "userId": .string(account.userId)],
                actorInstallation: device.installationId),
            to: target, client: client)
        let answer = TargetProbe.summary(status: read.status, json: read.json, error: read.error)
        let what = "read (events) of that installation's feed: \(read.sent) → \(answer)"
        guard let status = read.status, (200..<300).contains(status) else { return TargetProbeLine(.failed, what) }
        guard let events = read.json?["events"]?.arrayValue else {
            return TargetProbeLine(
                .failed, what + ", but the answer has no 'events' list (check the events operation's response mapping)")
        }
        return TargetProbeLine(.worked, what + " (\(events.count) event\(events.count == 1 ? "" : "s"))")
    }
}
